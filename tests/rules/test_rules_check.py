"""Rule tables checked on the host: the schema and the firmware's loader, field by field."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cheeseboard.rules.check import check_file, check_table
from cheesefw.games import GAMES, load

ROOT = Path(__file__).resolve().parents[2]
TABLES = {g: json.loads((ROOT / "firmware/rules" / (g + ".json")).read_text()) for g in GAMES}
MODULES = {g: load(g) for g in GAMES}


@pytest.mark.parametrize("game", sorted(TABLES))
def test_the_default_tables_are_good(game):
    assert check_file(ROOT / "firmware/rules" / (game + ".json")) == []


@pytest.mark.parametrize("game,change,field", [
    ("gouda", lambda t: t["dice"].update(n=6), "dice.n"),
    ("gouda", lambda t: t["dice"]["faces"].append("blue"), "dice.faces.6"),
    ("gouda", lambda t: t.update(players=[2]), "players"),
    ("gouda", lambda t: t["palette"].update(cheese=[300, 0, 0]), "palette.cheese.0"),
    ("gouda", lambda t: t.pop("top"), "top"),  # a missing key is named
    ("gouda", lambda t: t["spaces"][3].__setitem__(2, "nowhere"), "spaces"),  # the loader's
    ("gouda", lambda t: _loop_before_the_top(t), "start.crl"),  # the top out of reach
    ("kitchen", lambda t: t["deck"].update(cheese="ten"), "deck.cheese"),
    ("kitchen", lambda t: t["dice"].update(grey=[1, 2, 7]), "dice.grey.2"),
    ("kitchen", lambda t: t["deck"].update(dish=9), "deck"),  # 39 tiles: the loader's
    ("kitchen", lambda t: t["win"].update(cheese=11), "win.cheese"),  # more than the deck
    ("kitchen", lambda t: t["house"].update(revisit="yes"), "house.revisit"),
    ("kitchen", lambda t: t.update(holes=["a4", "c1"]), "holes"),
    # Kalle: the schema refuses unknown keys; the loader what a schema cannot say.
    ("kalle", lambda t: t["house"].update(swap_twice=True), "house"),
    ("kalle", lambda t: t.update(extra=1), "extra: unknown key"),
    ("kalle", lambda t: t["grid"].update(steps=[[1, 1]]), "grid.steps"),  # not connected
    ("kalle", lambda t: t["grid"].update(steps=[[2, 0], [0, 2]]), "grid.steps"),
    ("kalle", lambda t: t["cards"]["animals"].pop(), "cards.animals"),  # 16 cards, 15 animals
    ("kalle", lambda t: t["grid"].update(cols=5), "cards.animals"),  # 20 cards, 16 animals
    ("kalle", lambda t: t["rounds"].update({"3": 0}), "rounds.3"),
    ("kalle", lambda t: t["rounds"].update({"4": 9}), "rounds.4"),
    ("kalle", lambda t: t["rounds"].pop("5"), "rounds"),
    ("kalle", lambda t: t.update(uncover=12), "uncover"),  # no card left for 5 players' guesses
    ("kalle", lambda t: t["palette"].pop("frog"), "palette.frog"),
    ("kalle", lambda t: t["cards"]["animals"].__setitem__(3, "rat"), "cards.animals"),
])
def test_a_bad_field_is_refused_with_its_path(game, change, field):
    table = copy.deepcopy(TABLES[game])
    change(table)
    problems = check_table(table)
    assert problems, "accepted a bad table"
    assert any(p.startswith(field) for p in problems), problems


def _loop_before_the_top(table):
    """m5 leads back to m4 instead of up to the table: every space has a way up, yet the
    race can never end."""
    for space in table["spaces"]:
        if space[0] == "m5":
            space[2] = "m4"


def test_files_that_are_not_tables(tmp_path):
    bad = tmp_path / "gouda.json"
    bad.write_text("{not json")
    assert check_file(bad)[0].startswith("(the file): not valid JSON")
    bad.write_text("[1, 2]")
    assert check_file(bad) == ["(the table): expected a JSON object, got list"]
    assert "cannot read" in check_file(tmp_path / "missing.json")[0]
    other = tmp_path / "house.json"
    other.write_text('{"game": "chess"}')
    assert check_file(other) == ["game: expected one of %s, got 'chess'" % ", ".join(GAMES)]


def mutations(game):
    """A table with one field replaced by something else, somewhere in its tree."""
    leaves = st.one_of(st.integers(-5, 400), st.text(max_size=6), st.booleans(), st.none(),
                       st.lists(st.integers(-2, 300), max_size=4))

    def mutate(table, where, value):
        table = copy.deepcopy(table)
        node = table
        for step in where[:-1]:
            node = node[step]
        node[where[-1]] = value
        return table

    def paths(node, prefix=()):
        out = [prefix] if prefix else []
        if isinstance(node, dict):
            for k in node:
                out += paths(node[k], prefix + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                out += paths(v, prefix + (i,))
        return out

    all_paths = paths(TABLES[game])
    return st.builds(lambda i, v: mutate(TABLES[game], all_paths[i], v),
                     st.integers(0, len(all_paths) - 1), leaves)


@pytest.mark.parametrize("game,examples", [(g, 300) for g in sorted(TABLES)] + [
    pytest.param(g, 3000, marks=pytest.mark.slow) for g in sorted(TABLES)])
def test_mutated_tables_are_refused_on_both_sides_or_played_on_both(game, examples):
    @settings(max_examples=examples, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(table=mutations(game))
    def check(table):
        problems = check_table(table)
        try:  # the firmware's loader never fails with anything but a clear ValueError
            MODULES[game].State(table, {})
            loads = True
        except ValueError:
            loads = False
        if loads and not problems:
            return  # a harmless change (a name, a colour, a count within range)
        # the host refuses whatever the board would refuse, with a field path
        assert problems, "the host accepted what the board refuses"
        assert all(":" in p for p in problems)

    check()


@pytest.mark.parametrize("each", [150, pytest.param(1500, marks=pytest.mark.slow)])
def test_mutated_tables_on_micropython_never_crash_the_loader(tmp_path, each):
    """The board's own check, on the MicroPython VM: a clear ValueError or a playable table."""
    import random

    from mpvm import run_mp

    rng = random.Random(11 + each)
    cases = []
    for game in sorted(TABLES):
        for _ in range(each):
            cases.append((game, _mutate_at_random(game, rng)))
    (tmp_path / "cases.txt").write_text("\n".join(json.dumps(c) for c in cases) + "\n")
    out = run_mp("""
import gc, json
from cheesefw.games import load
with open('cases.txt') as f:
    for line in f:  # one table at a time, as the board receives them
        game, table = json.loads(line)
        try:
            load(game).check_table(table)
            print('ok')
        except ValueError:
            print('refused')
        table = None
        gc.collect()
""", cwd=tmp_path, timeout=300)
    verdicts = out.split()
    assert len(verdicts) == len(cases)  # no crash: every table got its verdict
    for (game, table), verdict in zip(cases, verdicts, strict=True):
        if not check_table(table, game):  # what the host accepts, the board plays
            assert verdict == "ok", table
    assert "refused" in verdicts and "ok" in verdicts


def _mutate_at_random(game, rng):
    """The table with one to three leaves (or whole branches) replaced by odd values."""
    table = copy.deepcopy(TABLES[game])
    for _ in range(rng.randint(1, 3)):
        node = table
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            key = rng.choice(keys)
            child = node[key]
            if isinstance(child, (dict, list)) and child and rng.random() < 0.7:
                node = child
                continue
            node[key] = rng.choice([0, -1, 7, 300, "", "m1", None, True, [], {}, [1, 2], 2.5])
            break
    return table
