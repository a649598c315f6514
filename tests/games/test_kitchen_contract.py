"""The kitchen game against docs/game-contract.md: rule table, options, view, hint, to_dict."""

import copy
import json
import random
from pathlib import Path

import pytest

from cheesefw.games import CHANCE, decide, kitchen, load
from cheesefw.games.kitchen_moves import PASS, STOP, search
from cheesefw.games.kitchen_table import read_board

RULES_PATH = Path(__file__).resolve().parents[2] / "firmware/rules/kitchen.json"
RULES = json.loads(RULES_PATH.read_text())


def dealt(rules=RULES, options=None):
    s = kitchen.State(rules, options or {})
    while s.current_player() == CHANCE:
        s.apply_action(s.chance_outcomes()[0][0])
    return s


def test_the_module_has_the_contract_names():
    assert load("kitchen") is kitchen and kitchen.NAME == "kitchen"
    for key, values in kitchen.OPTIONS:
        assert isinstance(key, str) and values
    for name in (
        "current_player",
        "legal_actions",
        "chance_outcomes",
        "apply_action",
        "action_player",
        "is_terminal",
        "winners",
        "hint",
        "view",
        "to_dict",
    ):
        assert callable(getattr(kitchen.State, name))
    assert callable(kitchen.State.from_dict)


def test_the_rule_table_states_the_published_facts():
    assert isinstance(RULES["version"], int)
    assert RULES["grid"] == {"cols": 6, "rows": 7}
    assert len(RULES["table"]) == 6 and len(RULES["holes"]) == 4
    assert sum(RULES["deck"].values()) == 38 and RULES["deck"]["cheese"] == 10
    assert RULES["dice"] == {"grey": [1, 1, 2, 2, 3, 4], "blue": [1, 1, 2, 2, 2, 3]}
    assert RULES["win"]["cheese"] == 10 and RULES["win"]["all_out"] and RULES["win"]["one_home"]
    # Parsed on a board with little heap (docs/benchmarks.md's heap table; this table in):
    # the colour-vision palette's `cb:` colours took it past the 1 200 B it was held to before.
    assert len(RULES_PATH.read_bytes()) < 1600


def test_the_palette_colours_every_kind_the_view_shows():
    kinds = {"cat", "mouse", "tile", "cheese", "hole-open", "hole-closed", "table", "table-tile"}
    engine = {"0", "1", "die0", "die1", "meter"}  # seats, each side's die, the cheese meter
    turned = {"dish", "plus1", "plus2", "arrow", "fork", "knife"}  # shown while turned over
    palette = {k for k in RULES["palette"] if not k.startswith("cb:")}
    assert kinds | engine | turned | {"empty"} == palette
    # The colour-vision palette recolours some of these, and names nothing else.
    assert {k[3:] for k in RULES["palette"] if k.startswith("cb:")} <= palette
    for rgb in RULES["palette"].values():
        assert len(rgb) == 3 and all(0 <= c <= 255 for c in rgb)


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("version",), "1", "version"),
        (("grid", "rows"), 10, "grid.rows"),
        (("table",), ["c3", "z9"], "table"),
        (("holes",), ["a4", "c1", "d7"], "holes"),
        (("holes",), ["a4", "c1", "d7", "c4"], "holes"),
        (("deck", "cheese"), 11, "deck"),
        (("deck", "spoon"), 1, "deck"),
        (("dice", "grey"), [1, 2, 7], "dice.grey"),
        (("win", "cheese"), 11, "win.cheese"),
        (("win", "turn_limit"), 0, "win.turn_limit"),
        (("win", "one_home"), 1, "win.one_home"),
        (("house", "revisit"), "no", "house.revisit"),
        (("palette", "cat"), [1, 2], "palette.cat"),
    ],
)
def test_a_bad_rule_table_is_refused_naming_the_field(path, value, field):
    rules = copy.deepcopy(RULES)
    node = rules
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(ValueError, match=field.replace(".", r"\.")):
        kitchen.State(rules, {})


def test_options_take_their_default_and_refuse_bad_values():
    assert kitchen.State(RULES, {}).goal == 10
    assert kitchen.State(RULES, {"short_game": True}).goal == RULES["win"]["short_cheese"]
    for bad in ({"short_game": 1}, {"short_game": "yes"}, {"players": 3}):
        with pytest.raises(ValueError, match="expected"):
            kitchen.State(RULES, bad)


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    s = dealt()
    before = s.to_dict()
    for bad in ("a1", "z9", 1, True, None, ("c3",), ["c3"], "stay"):
        with pytest.raises(ValueError, match="expected"):
            s.apply_action(bad)
        assert s.to_dict() == before
    s.apply_action("c3")
    before = s.to_dict()
    for bad in (0, 5, True, 1.0, "1", "c3"):  # the grey die has no 5, and True is not 1
        with pytest.raises(ValueError):
            s.apply_action(bad)
        assert s.to_dict() == before


def test_view_hides_what_lies_under_a_face_down_tile():
    seen = set()
    for seed in range(6):
        s = kitchen.State(RULES, {})
        n = 0
        while s.current_player() == CHANCE:
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[(n * 7 + seed) % len(outcomes)][0])
            n += 1
        view = json.dumps(s.view()["marks"])
        seen.add(view)
        for kind in kitchen.KINDS:
            assert '"%s"' % kind not in view
    assert len(seen) == 1  # different deals look the same from above


def test_hint_lights_the_squares_of_each_action():
    s = dealt()
    assert s.hint("d4") == {"spaces": ["d4"], "text": "cat starts"}
    s.apply_action("d4")
    assert s.hint(3) == {"spaces": [], "text": "roll 3"}
    s.apply_action(1)
    assert s.hint("a4") == {"spaces": ["a3", "a4", "a5", "b4"], "text": "mouse"}
    s.apply_action("a4")
    assert s.hint("b4") == {"spaces": ["a4", "b4"], "text": "mouse"}
    with pytest.raises(ValueError):
        s.hint("f7")


def test_a_pick_s_hints_are_searched_once_a_node_and_found_anew_after_each_move():
    # A person's blinking offer is drawn four times a second: the mouse's reach is searched
    # once at a node, and a hint kept from an earlier node would light the wrong squares.
    rng = random.Random(5)
    picks = 0
    for _ in range(8):
        s = dealt()
        searches = []

        def counted(m, steps, first=False, reach=s._reach, searches=searches):
            searches.append(first)
            return reach(m, steps, first)

        s._reach = counted
        while not s.is_terminal() and len(s.history) < 120:
            if s.current_player() == CHANCE:
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            actions = s.legal_actions()
            if s.phase == kitchen.PICK and actions != [kitchen.STAY]:
                picks += 1
                fresh = kitchen.State(RULES, {})
                for a in s.history:
                    fresh.apply_action(a)
                del searches[:]
                for a in actions * 3:
                    assert s.hint(a) == fresh.hint(a)
                assert searches.count(False) == len(actions)
            s.apply_action(rng.choice(actions))
    assert picks > 20


def test_the_deal_hint_never_names_the_tile():
    s = kitchen.State(RULES, {})
    for outcome, _ in s.chance_outcomes():
        assert s.hint(outcome) == {"spaces": ["a1"], "text": "tile"}


def test_view_shows_pieces_die_and_counters():
    s = dealt()
    s.apply_action("c5")
    s.apply_action(2)
    view = s.view()
    assert view["turn"] == 0 and view["dice"] == [2]
    assert view["pieces"] == [
        ["a4", "mouse"],
        ["c1", "mouse"],
        ["c5", "cat"],
        ["d7", "mouse"],
        ["f4", "mouse"],
    ]
    assert view["status"] == {"cheese": 0, "goal": 10, "caught": 0, "to_come_out": 4, "home": 0,
                              "meter": [0, 10]}
    assert view["reveal"] is None
    assert kitchen.State(RULES, {}).view()["turn"] == CHANCE


def test_to_dict_is_plain_data_and_from_dict_rebuilds_it():
    s = dealt()
    s.apply_action("c3")
    s.apply_action(1)
    s.apply_action("a4")
    d = s.to_dict()
    again = kitchen.State.from_dict(RULES, json.loads(json.dumps(d)))
    assert again == s and again.to_dict() == d and again.history == s.history
    assert again.legal_actions() == s.legal_actions()
    for broken in (
        {},
        dict(d, phase="dance"),
        dict(d, cheese="3"),
        dict(d, mice=["a4"]),
        dict(d, log="zz"),
        # no action has these codes (a square is < 42, a tile 240..246, a die 248..253, STAY 255)
        *(dict(d, log=d["log"] + code) for code in ("2a", "c3", "ef", "f7", "fe")),
        dict(d, log=d["log"][:-1]),
        dict(d, log=list(s.history)),
        dict(d, cat="q1"),
        dict(d, tiles=["spoon"] * 42),
    ):
        with pytest.raises(ValueError):
            kitchen.State.from_dict(RULES, broken)


def test_history_lists_every_action_and_outcome_in_order():
    s = dealt()
    s.apply_action("c3")
    s.apply_action(4)
    s.apply_action("f4")
    h = s.history
    assert len(h) == 38 + 3 and h[-3:] == ["c3", 4, "f4"]
    assert set(h[:38]) <= set(kitchen.KINDS)


def destinations(*args, **kwargs):
    """The path search run to its end (the board's player steps it a slice at a time)."""
    return decide(search(*args, **kwargs))


def test_the_path_search_is_bounded_by_the_steps():
    b = read_board(RULES, kitchen.KINDS)
    open_floor = bytearray(b.open)
    # From the middle of an open 6x7 floor, six steps reach every square of the right parity
    # within six; the search visits at most 4*3**5 paths.
    got = destinations(b, b.square("c4"), 6, open_floor, False)
    assert got and all(abs(sq // 7 - 2) + abs(sq % 7 - 3) in (2, 4, 6) for sq in got)


def test_rules_doc_names_every_rule_test_and_only_real_ones():
    import re

    import test_kitchen_rules

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"test_kitchen_rules\.py::(test_\w+)", doc))
    tests = {name for name in dir(test_kitchen_rules) if name.startswith("test_")}
    assert named == tests


def every_path_ends(board, start, steps, access, revisit):
    """The squares where some path of exactly `steps` steps from `start` may stop, each path
    followed one by one (the rule as it reads, however slow): through PASS squares, onto a STOP
    one, never back to the start, and unless `revisit` never on a square twice."""
    ends = set()

    def walk(path, left):
        for nb in board.around(path[-1]):
            if nb == start or (not revisit and nb in path):
                continue
            if left == 1:
                if access[nb] & STOP:
                    ends.add(nb)
            elif access[nb] & PASS:
                walk(path + [nb], left - 1)

    walk([start], steps)
    return sorted(ends)


@pytest.mark.parametrize("revisit", [False, True])
def test_the_search_finds_where_every_path_ends_and_yields_in_steps_on_long_ones(revisit):
    import random

    board = read_board(RULES, kitchen.KINDS)
    rng = random.Random(1)
    for _ in range(2000):
        access = bytearray(rng.choice([0, 1, 2, 3, 3, 3]) for _ in range(board.n))
        start, steps = rng.randrange(board.n), rng.randint(1, 6)
        want = every_path_ends(board, start, steps, access, revisit)
        assert destinations(board, start, steps, access, revisit) == want
    # The board's player steps the search a slice of a tick at a time: from the open middle, a
    # 6 yields at each way of its first two steps (12 of them), each way's paths in between.
    thinking = search(board, board.square("c4"), 6, bytearray([3] * board.n), revisit)
    steps = 0
    try:
        while True:
            next(thinking)
            steps += 1
    except StopIteration as done:
        assert done.value == every_path_ends(board, board.square("c4"), 6, [3] * board.n, revisit)
    assert steps == (6 if revisit else 12)


@pytest.mark.parametrize("revisit", [False, True])
def test_the_first_square_found_is_one_of_them_and_none_only_when_there_is_none(revisit):
    """A pick asks only whether each mouse can move: the search stops at its first square."""
    import random

    board = read_board(RULES, kitchen.KINDS)
    rng = random.Random(2)
    stopped_early = 0
    for _ in range(2000):
        access = bytearray(rng.choice([0, 1, 2, 3, 3, 3]) for _ in range(board.n))
        start, steps = rng.randrange(board.n), rng.randint(1, 6)
        every = destinations(board, start, steps, access, revisit)
        first = destinations(board, start, steps, access, revisit, first=True)
        assert len(first) == min(1, len(every))
        assert set(first) <= set(every)
        stopped_early += len(every) > 1
    assert stopped_early > 100
