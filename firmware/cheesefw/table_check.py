"""A rule table's whole check, the same on the board and on the host: bounds on its bytes
and strict JSON before they are parsed, then its game's schema and the game's own loader.

The board runs it on every table it takes in (tables.py's commit, from `cheeseboard sync` or
the web board) and before a game starts on a synced table (engine.load_rules); the host runs
the same bounds and loader (rules.py), with Python's json (strict) and the full JSON Schema
validator, so that both refuse the same tables.
"""

import json

MAX_BYTES = 16384  # a table's text (today's are under 2 KB)
MAX_DEPTH = 8  # arrays and objects within each other (today's: 4)
MAX_STRING = 256  # characters of one string, escapes counted as written
MAX_NUMBER = 24  # characters of one number


def bounds(data):
    """ValueError unless data (bytes) is a text the board can parse without running out of
    heap or stack: printable ASCII and white space, within the limits above. A table
    nested 2,000 deep, or a 1 MB string, stops here, before json has seen a byte."""
    if len(data) > MAX_BYTES:
        raise ValueError("(the table): expected at most %d bytes, got %d" % (MAX_BYTES, len(data)))
    depth = run = 0
    in_string = escaped = False
    for b in data:
        if b < 32 and b not in (9, 10, 13) or b > 126:
            raise ValueError("(the table): expected ASCII text, got byte 0x%02x" % b)
        if in_string:
            run += 1
            if run > MAX_STRING:
                raise ValueError("(the table): expected strings of at most %d characters"
                                 % MAX_STRING)
            if escaped:
                escaped = False
            elif b == 92:  # backslash
                escaped = True
            elif b == 34:  # the closing quote
                in_string = False
            continue
        if b == 34:
            in_string, run = True, 0
        elif b in (91, 123):  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                raise ValueError("(the table): expected at most %d levels of nesting"
                                 % MAX_DEPTH)
        elif b in (93, 125):
            depth -= 1
        if 48 <= b <= 57 or b in (43, 45, 46, 69, 101):  # digits + - . E e
            run += 1
            if run > MAX_NUMBER:
                raise ValueError("(the table): expected numbers of at most %d characters"
                                 % MAX_NUMBER)
        else:
            run = 0


def parse(data):
    """The JSON value in data (bytes), or ValueError: its bounds, then strict JSON (RFC 8259,
    as the host's json reads it: MicroPython's json.loads takes `[1,]`, `[1 2]`, `01` and more,
    which the host would refuse to read back from the board), then json.loads."""
    from cheesefw import strict_json
    from cheesefw.modules import forget

    bounds(data)
    try:
        strict_json.check(data, MAX_DEPTH)
        return json.loads(data)
    except ValueError as e:
        raise ValueError("(the table): expected JSON text (%s)" % e) from None
    finally:
        forget("cheesefw.strict_json")  # its code's heap back for the schema check


def game_of(table, name=None):
    """The table's game: its "game" field, which must be name when name is given."""
    from cheesefw.games import GAMES

    if type(table) is not dict:
        raise ValueError("(the table): expected a JSON object, got %s" % type(table).__name__)
    game = table.get("game")
    if game not in GAMES or (name is not None and game != name):
        raise ValueError("game: expected %s, got %r" % (
            repr(name) if name else "one of " + ", ".join(GAMES), game))
    return game


def game_check(game, table, keep=False):
    """The game's own checks (what a schema cannot say), and a game set up on the table with
    its default options: whatever the game would trip over, as a refusal. keep: the game's
    modules stay imported (for a game about to be played: imported once, in one piece)."""
    import sys

    from cheesefw.games import load
    from cheesefw.modules import forget

    loaded = [m for m in sys.modules if m.startswith("cheesefw.games.")]  # a game in play's
    module = load(game)
    try:
        module.check_table(table)
        module.State(table, {})
    except (ValueError, MemoryError):  # (no heap to set the game up: no fault of the table's)
        raise
    except Exception as e:  # a table the schema lets through and the game cannot play
        raise ValueError("(the table): the game cannot play it (%s: %s)"
                         % (type(e).__name__, e)) from None
    finally:
        module = None
        if not keep:
            forget("cheesefw.games.", keep=loaded)  # the checked game's code goes, a game in
            # play's stays


def check(data, name, read_schema, keep=False):
    """The parsed table in data (bytes) for game name, or ValueError saying why not: bounds,
    JSON, its game, schema, the game's own checks (game_check; keep: see there).
    read_schema() gives the game's schema, parsed: it and its matcher are let go before the
    game is set up on the table, so that the two never need the heap at once."""
    import gc

    from cheesefw.modules import forget

    table = match(data, name, read_schema)
    forget("cheesefw.schema")
    gc.collect()
    game_check(name, table, keep)
    return table


def match(data, name, read_schema):
    """check's first part: the parsed table, matched against the schema read_schema() gives."""
    from cheesefw import schema as schemas

    table = parse(data)
    game_of(table, name)
    schemas.check(table, read_schema())
    return table


# Where a firmware run from a checkout of the project (not flashed: the tests) finds them
CHECKOUT_SCHEMAS = "../host/cheeseboard/schemas/%s.schema.json"


def load_schema(board, home, game):
    """The game's schema, as the firmware carries it (schemas/<game>.json in its slot, put
    there by the image from host/cheeseboard/schemas)."""
    data = None
    for name in ("schemas/%s.json" % game, CHECKOUT_SCHEMAS % game):
        try:
            data = board.read_file(home + name)
        except OSError:  # (a board whose read_file raises for a missing file)
            pass
        if data is not None:
            break
    if data is None:
        raise ValueError("(the table): this firmware has no schema for %s to check it" % game)
    return json.loads(data)
