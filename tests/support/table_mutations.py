"""Mutated rule tables, as an attacker (or a careless editor) would send them, and the board's
verdict on each, from the board's own check (table_check) on the real MicroPython VM."""

import copy
import json
import random
import re
from pathlib import Path

from mpvm import run_mp

from cheeseboard import paths
from cheeseboard.flash import build, image
from cheesefw.games import GAMES

ROOT = Path(__file__).resolve().parents[2]

ODD_VALUES = [0, -1, 1, 2, 255, 256, 5.0, 1.5, 1e30, -1e30, 10**40, True, False, None, "", "x",
              "m1", "a1", "green", "x" * 300, [], [1], [1, 2, 3], [0, 0, 0], [-1, -5, -9],
              [256, 0, 0], [1e30, 5, 5], [1, 2], [1, 2, 3, 4], ["a", "b", "c"], {}, {"a": 1},
              [[1, 2, 3]], "m1 tin", "crl jug crr"]


def base_tables():
    return {g: json.loads((ROOT / "firmware/rules" / (g + ".json")).read_text()) for g in GAMES}


def _places(value, path=()):
    """Every (path, value) in a parsed table."""
    yield path, value
    if isinstance(value, dict):
        for k in sorted(value):
            yield from _places(value[k], path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _places(v, path + (i,))


def _parent(table, path):
    for p in path[:-1]:
        table = table[p]
    return table


def mutate(table, rng):
    """One table with one to three changes (a value swapped, a field dropped or added, a list
    grown or cut), text no table has (nesting 2,000 deep, a long string, NaN, cut short), or
    one syntax change (a trailing comma, a good or bad escape: syntax_mutation): the table's
    bytes."""
    roll = rng.random()
    if roll < 0.06:
        return _text_attack(table, rng)
    if roll < 0.3:
        return syntax_mutation(json.dumps(table, indent=rng.choice((None, 1))), rng).encode()
    t = copy.deepcopy(table)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        places = [p for p, _ in _places(t) if p]
        if not places:
            break
        path = rng.choice(places)
        parent, key = _parent(t, path), path[-1]
        kind = rng.random()
        if kind < 0.55:
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES + [_near(parent[key], rng)]))
        elif kind < 0.7:
            del parent[key]
        elif kind < 0.8 and isinstance(parent, dict):
            parent[rng.choice(["extra", "game", "0", "zz", str(key) + "x"])] = copy.deepcopy(
                rng.choice(ODD_VALUES))
        elif kind < 0.9 and isinstance(parent[key], list):
            items = parent[key]
            if items and rng.random() < 0.5:
                items.append(copy.deepcopy(rng.choice(items)))
            else:
                del items[rng.randrange(len(items) + 1) if items else 0:]
        else:
            parent[key] = _near(parent[key], rng)
    return json.dumps(t, indent=rng.choice((None, 1))).encode()


def _near(value, rng):
    """A value close to a good one: a number just out of range, a string a little off."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((-300, -1, 1, 300))
    if isinstance(value, str):
        return rng.choice((value + "x", value.upper(), value[:-1], value + " " + value))
    if isinstance(value, list) and value:
        return [_near(v, rng) for v in value]
    return value


def _text_attack(table, rng):
    text = json.dumps(table)
    attack = rng.randrange(6)
    if attack == 0:  # nested 2,000 deep
        return text[:-1].encode() + b', "deep": ' + b"[" * 2000 + b"]" * 2000 + b"}"
    if attack == 1:  # a long string, and more bytes than a table may have
        return text[:-1].encode() + b', "long": "' + b"y" * rng.choice((300, 20000)) + b'"}'
    if attack == 2:
        return text.replace("1", "NaN", 1).encode()
    if attack == 3:  # cut short
        return text[: rng.randrange(len(text))].encode()
    if attack == 4:  # nested a little deeper than allowed
        return text[:-1].encode() + b', "deep": ' + b"[" * 9 + b"]" * 9 + b"}"
    return text[:-1].encode() + b', "n": ' + b"9" * 40 + b"}"


# Where each syntax change may go: (what to find, what goes there instead of it)
_SYNTAX = [
    (r"\s*[\]}]", lambda m, rng: "," + m.group()),  # a trailing comma
    (r",", lambda m, rng: rng.choice(("", " ", ",,", ";"))),  # a comma missing or doubled
    (r"[\[\]{}]", lambda m, rng: rng.choice("[]{}")),  # a bracket of the wrong kind
    (r"[\[{]", lambda m, rng: m.group() + rng.choice((",", " ,", "\n"))),  # a leading comma
    (r"-?\d+(\.\d+)?", lambda m, rng: rng.choice((  # numbers near and off the grammar
        "0", "-0", "00", "0" + m.group().lstrip("-"), "-" + m.group(), "+" + m.group(),
        m.group() + ".", m.group() + "e", m.group() + "e+2", m.group() + "E-0", "." + m.group(),
        m.group() + ".5", m.group() + "x", "NaN", "Infinity", "-Infinity", "0x1F"))),
    (r":\s*(-?\d+|\"[^\"]*\"|true|false|null)", lambda m, rng: rng.choice((  # no value
        ":", ": ", "::" + m.group()[1:], m.group()[1:]))),
    (r"true|false|null", lambda m, rng: rng.choice((
        m.group()[:-1], m.group().upper(), m.group() + "e", "None", m.group() + " " + m.group()))),
    (r"\"[^\"]*\"", lambda m, rng: m.group()[:-1] + rng.choice((  # inside a string
        "\t", "\x01", "\x1f", "\x7f", "\n", "\\q", "\\x41", "\\'", "\\", "\\u12x4",
        "\\u12", "\\uZZZZ", "\\U0041", "\\n", "\\t", "\\/", "\\\"", "\\\\", "\\u00e9",
        "\\uABCD", "\\ud800", "\\b\\f\\r")) + '"'),
    (r"\"", lambda m, rng: rng.choice(("", "'", '""'))),  # a quote lost or doubled
    (r"[,:]", lambda m, rng: rng.choice((" ", "\n\t", "\r\n")) + m.group()),  # still JSON
    (r"\Z", lambda m, rng: rng.choice((" ", "\n", " {}", "x", ",", "]", "\x00"))),  # after
    (r"\A", lambda m, rng: rng.choice((" ", "\n", ",", "\x0b", "[")))]


def syntax_mutation(text, rng):
    """text (JSON) with one change where the grammar is easy to get wrong: trailing, missing
    and leading commas, brackets of the wrong kind, numbers (leading zeros, `1.`, NaN), values
    missing, literals cut, control characters and good or bad escapes in strings, quotes lost,
    text before or after the value, a byte deleted, doubled or changed; many stay JSON."""
    if rng.random() < 0.2:  # one byte, anywhere
        i = rng.randrange(len(text) + 1)
        c = rng.choice(',:[]{}"\\ \t\n0123456789-+.eEtfnu\x00\x01a')
        return rng.choice((text[:i] + c + text[i:], text[:i] + c + text[i + 1:],
                           text[:i] + text[i + 1:], text[:i] + text[i:i + 1] * 2 + text[i + 1:]))
    while True:
        pattern, change = rng.choice(_SYNTAX)
        found = list(re.finditer(pattern, text))
        if found:
            m = rng.choice(found)
            return text[:m.start()] + change(m, rng) + text[m.end():]


def cases(n, seed):
    """n (game, bytes) pairs, spread over every game."""
    rng = random.Random(seed)
    tables = base_tables()
    games = sorted(tables)
    return [(games[i % len(games)], mutate(tables[games[i % len(games)]], rng))
            for i in range(n)]


BOARD_SCRIPT = """
import gc, os
from cheesefw import table_check
schemas = {}
class Flash:
    def read_file(self, name):
        try:
            with open(name, 'rb') as f:
                return f.read()
        except OSError:
            return None
flash = Flash()
listing = open(%r)
i = -1
while True:
    game = listing.readline().strip()
    if not game:
        break
    i += 1
    gc.collect()  # as the board's main loop does between requests
    name = %r + '/%%d.json' %% i
    if os.stat(name)[6] > table_check.MAX_BYTES:  # what `put` takes in stops there
        print('no (more than a put takes)')
        continue
    if game not in schemas:
        schemas[game] = table_check.load_schema(flash, %r, game)
    try:
        table_check.check(flash.read_file(name), game, lambda: schemas[game])
        print('ok')
    except (ValueError, MemoryError, RuntimeError) as e:  # one line each (a message names
        print('no ' + str(e)[:60].replace('\\n', ' '))  # keys, which may hold a line feed)
    except Exception as e:
        print(('CRASH %%s: %%s' %% (type(e).__name__, e)).replace('\\n', ' '))
"""


def board_verdicts(pairs, folder, heap=200 * 1024):
    """The board's verdict on each (game, bytes): "ok", "no ..." or "CRASH ...", from
    table_check run by MicroPython with the Pico's heap, on the schemas as the image ships
    them (a table longer than `put` takes in is refused there)."""
    folder = Path(folder)
    home = folder / "slot"
    # The firmware as a board carries it: compiled to .mpy (compiling five games' sources in the
    # VM would take the heap the check is measured in).
    build.build_tree(paths.FIRMWARE, home)
    for rel, data in image._schemas().items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_bytes(data)
    tables = folder / "tables"
    tables.mkdir()
    for i, (_, data) in enumerate(pairs):
        (tables / ("%d.json" % i)).write_bytes(data)
    (folder / "games.txt").write_text("".join(g + "\n" for g, _ in pairs))
    out = run_mp(BOARD_SCRIPT % (str(folder / "games.txt"), str(tables), str(home) + "/"),
                 heap=heap, timeout=1800, cwd=home, path=[home])
    verdicts = out.strip().split("\n")
    assert len(verdicts) == len(pairs), out[-500:]
    return verdicts
