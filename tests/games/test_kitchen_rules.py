"""The kitchen game, one test per rule sentence of the rulebook (docs/rules.md maps them).

Positions are built like a resumed game: a real set-up, then the pieces and tiles put where the
test needs them through to_dict/from_dict. The board (rule table firmware/rules/kitchen.json):

    row 7   a7 b7 c7 [d7] e7 f7        [x]  mouse hole: a4 mouse 0, c1 mouse 1,
    row 6   a6 b6 c6  d6  e6 f6                          d7 mouse 2, f4 mouse 3
    row 5   a5 b5 C5  D5  e5 f5        C3..D5  the table (6 squares)
    row 4  [a4]b4 C4  D4  e4[f4]
    row 3   a3 b3 C3  D3  e3 f3
    row 2   a2 b2 c2  d2  e2 f2
    row 1   a1 b1[c1] d1  e1 f1
"""

import copy
import json
from pathlib import Path

import pytest

from cheesefw.games import CHANCE, TERMINAL, kitchen

RULES = json.loads(
    (Path(__file__).resolve().parents[2] / "firmware/rules/kitchen.json").read_text()
)
HOLES = ("a4", "c1", "d7", "f4")
MICE, CAT = 0, kitchen.CAT  # the sides (the mice's: a private constant of the game)


def rules_with(section, **values):
    """The default rule table with some values of one section changed."""
    rules = copy.deepcopy(RULES)
    rules[section].update(values)
    return rules


def sq(sid):
    return (ord(sid[0]) - 97) * 7 + int(sid[1:]) - 1


def position(tiles=None, cat="d4", mice=HOLES, out=None, rules=RULES, options=None, **fields):
    """A game past its set-up with the mice to roll; then tiles and pieces put as asked.

    `tiles` maps square ids to tile kinds ("shown" for a cheese the cat left face up); every
    other square has no tile left. `mice` lists each mouse's square (None: caught); `out`
    defaults to "has left its hole".
    """
    s = kitchen.State(rules, options or {})
    while s.phase == "deal":
        s.apply_action(s.chance_outcomes()[0][0])
    s.apply_action(s.legal_actions()[0])
    d = s.to_dict()
    d["tiles"] = [None] * 42
    for sid, kind in (tiles or {}).items():
        d["tiles"][sq(sid)] = kind
    d["cat"] = cat
    d["mice"] = list(mice)
    d["out"] = list(out) if out is not None else [m != h for m, h in zip(mice, HOLES, strict=True)]
    d.update(fields)
    return kitchen.State.from_dict(rules, d)


def roll(s, face):
    assert s.current_player() == CHANCE and s.phase == "roll"
    s.apply_action(face)
    return s


def mouse_moves(s, face, mouse_at):
    """Roll `face` for the mice, pick the mouse on `mouse_at`; the legal destinations."""
    roll(s, face)
    s.apply_action(mouse_at)
    return s.legal_actions()


def cat_moves(s, face):
    roll(s, face)
    assert s.current_player() == CAT
    return s.legal_actions()


def cat_turn(**kw):
    """A position with the cat to roll."""
    return position(side=CAT, **kw)


def marks(s):
    return dict(map(tuple, s.view()["marks"]))


def pieces(s):
    return sorted(map(tuple, s.view()["pieces"]))


def manhattan(a, b):
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1]) - int(b[1]))


ALL = [c + str(r) for c in "abcdef" for r in range(1, 8)]


# -- Doel van het spel / Voorbereiding -------------------------------------------------------


def test_one_player_is_the_cat_the_others_the_mice():
    s = kitchen.State(RULES, {})
    while s.phase == "deal":
        s.apply_action(s.chance_outcomes()[-1][0])
    assert s.current_player() == CAT  # the cat places itself
    s.apply_action("c3")
    roll(s, 1)
    assert s.current_player() == MICE


def test_cat_wins_when_it_catches_the_fourth_mouse():
    s = cat_turn(cat="b3", mice=(None, "b2", None, None))
    assert "b2" in cat_moves(s, 1)
    s.apply_action("b2")
    assert s.is_terminal() and s.winners() == [CAT]
    assert s.current_player() == TERMINAL and s.legal_actions() == []


def test_mice_win_with_the_tenth_cheese():
    s = position(tiles={"b3": "cheese"}, mice=("b2", "e2", "e6", "a1"), cheese=9, home=True)
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.cheese == 10 and s.winners() == [MICE]


def test_the_first_side_to_reach_its_goal_wins_at_once():
    # On the first of two rolls (after a knife): the tenth cheese ends the game there and then.
    s = position(
        tiles={"b3": "cheese"}, mice=("b2", "e2", "e6", "a1"), cheese=9, home=True, extra=1
    )
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.is_terminal() and s.winners() == [MICE]
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    with pytest.raises(ValueError):
        s.apply_action(1)


def test_the_mice_may_move_any_mouse():
    s = position(mice=("b2", "e2", "e6", "a6"))
    roll(s, 1)
    assert s.current_player() == MICE
    assert s.legal_actions() == ["a6", "b2", "e2", "e6"]


def test_the_deal_is_a_shuffle_weighted_by_the_deck():
    s = kitchen.State(RULES, {})
    first = dict(s.chance_outcomes())
    assert first["cheese"] == pytest.approx(10 / 38) and first["plus2"] == pytest.approx(3 / 38)
    assert sum(first.values()) == pytest.approx(1.0)
    count = {}
    while s.phase == "deal":
        outcomes = s.chance_outcomes()
        kind = outcomes[len(s.history) % len(outcomes)][0]
        count[kind] = count.get(kind, 0) + 1
        s.apply_action(kind)
    assert count == RULES["deck"]
    assert sum(1 for t in s.tiles if t) == 38 and [s.tiles[sq(h)] for h in HOLES] == [None] * 4


def test_the_tiles_lie_face_down():
    s = kitchen.State(RULES, {})
    while s.phase == "deal":
        s.apply_action(s.chance_outcomes()[0][0])
    assert set(marks(s).values()) == {"tile", "table-tile", "hole-closed"}
    shown = str([s.view()["marks"], s.view()["pieces"]])
    assert not [k for k in kitchen.KINDS if k in shown]


def test_the_table_stands_on_its_six_squares():
    s = position(tiles={"c3": "dish"})
    table = sorted(k for k, v in marks(s).items() if v.startswith("table"))
    assert table == ["c3", "c4", "c5", "d3", "d4", "d5"]
    assert marks(s)["c3"] == "table-tile" and marks(s)["d3"] == "table"


def test_a_mouse_starts_in_each_hole_one_per_side():
    s = kitchen.State(RULES, {})
    assert pieces(s) == [(h, "mouse") for h in HOLES]
    assert {k for k, v in marks(s).items() if v == "hole-closed"} == set(HOLES)
    cols, rows = {h[0] for h in HOLES}, {h[1] for h in HOLES}
    assert {"a", "f"} <= cols and {"1", "7"} <= rows  # left, right, bottom, top


def test_the_cat_starts_on_a_table_square_of_its_choice():
    s = kitchen.State(RULES, {})
    while s.phase == "deal":
        s.apply_action(s.chance_outcomes()[0][0])
    assert s.legal_actions() == ["c3", "c4", "c5", "d3", "d4", "d5"]
    s.apply_action("d5")
    assert ("d5", "cat") in pieces(s)


# -- Verloop van het spel: het verplaatsen ---------------------------------------------------


def test_the_mice_roll_the_grey_die_and_the_cat_the_blue():
    s = position()
    assert s.chance_outcomes() == [(1, 2 / 6), (2, 2 / 6), (3, 1 / 6), (4, 1 / 6)]
    s = cat_turn()
    assert s.chance_outcomes() == [(1, 2 / 6), (2, 3 / 6), (3, 1 / 6)]


def test_moves_are_horizontal_and_vertical_never_diagonal():
    s = position(mice=("b2", "e2", "e6", "a6"))
    assert mouse_moves(s, 1, "b2") == ["a2", "b1", "b3", "c2"]


def test_a_move_takes_exactly_the_rolled_number_of_steps():
    s = position(mice=("b2", "e2", "e6", "a6"))
    got = mouse_moves(s, 2, "b2")
    assert got == [x for x in ALL if manhattan(x, "b2") == 2]
    s = position(mice=("b2", "e2", "e6", "a6"))
    got = mouse_moves(s, 3, "b2")  # odd: three squares away, or one round a corner
    assert set(got) == {x for x in ALL if manhattan(x, "b2") in (1, 3)} - {"e2"}


def test_no_jumping_over_a_piece_go_round_it():
    # Mouse 1 in the corner a1, mouse 2 above it: a3 is only reachable round a2.
    s = position(mice=("a4", "a1", "a2", "f4"))
    assert "a3" not in mouse_moves(s, 2, "a1")
    s = position(mice=("a4", "a1", "a2", "f4"))
    assert "a3" in mouse_moves(s, 4, "a1")  # a1 b1 b2 b3 a3
    # The cat goes round a mouse too: e3 lies behind the mouse on e2.
    s = cat_turn(cat="e1", mice=("a4", "c1", "e2", "f4"))
    assert cat_moves(s, 2) == ["d2", "f2"]


def test_a_move_never_comes_back_to_its_start():
    for revisit in (False, True):  # not even when the house rule lets a path revisit squares
        for face in (2, 4):
            s = position(mice=("b2", "e2", "e6", "a6"), rules=rules_with("house", revisit=revisit))
            assert "b2" not in mouse_moves(s, face, "b2")


def test_a_path_may_revisit_squares_but_not_its_start_unless_the_house_rule_forbids():
    # Mouse 1 in the corner a1 with b1 taken: a2 is three steps away only by going back
    # (a1 a2 a3 a2). The rulebook forbids only the start square, so that is the default.
    mice = ("a4", "a1", "b1", "f4")
    assert RULES["house"]["revisit"] is True
    s = position(mice=mice)
    assert mouse_moves(s, 3, "a1") == ["a2", "b3", "c2"]  # still never a1 itself
    s = position(mice=mice, rules=rules_with("house", revisit=False))
    assert mouse_moves(s, 3, "a1") == ["b3", "c2"]  # the stricter house rule: no square twice


def test_the_cat_walks_on_the_table_as_on_the_floor():
    s = cat_turn(cat="b3")
    assert "e3" in cat_moves(s, 3)  # straight over c3 and d3, the table top
    s = cat_turn(cat="e3", tiles={"d3": "cheese"})
    assert "d3" in cat_moves(s, 1)
    s.apply_action("d3")  # on the table top: the tile beneath is not the cat's
    assert s.tiles[sq("d3")] == "cheese" and marks(s)["d3"] == "table-tile"


def test_one_mouse_moves_per_turn_then_the_cat():
    s = position(mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.phase == "roll" and s.side == CAT
    assert s.chance_outcomes() == [(1, 2 / 6), (2, 3 / 6), (3, 1 / 6)]
    s.apply_action(1)
    s.apply_action(s.legal_actions()[0])
    assert s.side == MICE and s.phase == "roll"


def test_mice_hide_under_the_table_never_on_it():
    s = position(cat="c4", mice=("a4", "b4", "d7", "f4"), out=(True, True, False, False))
    assert "c4" in mouse_moves(s, 1, "b4")  # under the table, below the cat
    s.apply_action("c4")
    assert ("c4", "cat") in pieces(s) and ("c4", "mouse") in pieces(s)
    # The cat on the table top neither blocks nor catches the mice beneath.
    s = cat_turn(cat="b3", mice=("a4", "c3", "d7", "f4"), out=(True, True, False, False))
    cat_moves(s, 1)
    s.apply_action("c3")
    assert s.mice[1] == sq("c3")


def test_a_hole_holds_one_mouse():
    s = position(mice=("a4", "b4", "d7", "f4"), out=(False, True, False, False))
    assert "a4" not in mouse_moves(s, 1, "b4")
    s = position(mice=("b5", "b4", "d7", "f4"), out=(True, True, False, False))
    assert "a4" in mouse_moves(s, 1, "b4")


def test_the_mice_begin():
    s = kitchen.State(RULES, {})
    while s.phase == "deal":
        s.apply_action(s.chance_outcomes()[0][0])
    s.apply_action("c4")
    assert s.side == MICE and s.chance_outcomes()[-1] == (4, 1 / 6)


def test_leaving_its_hole_turns_the_hole_card_over():
    s = position()
    assert marks(s)["a4"] == "hole-closed" and s.view()["status"]["to_come_out"] == 4
    mouse_moves(s, 1, "a4")
    s.apply_action("b4")
    assert marks(s)["a4"] == "hole-open" and s.view()["status"]["to_come_out"] == 3


def test_only_the_tile_where_the_mouse_stops_is_turned():
    s = position(tiles={"b3": "cheese", "b4": "cheese"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 2, "b2")
    s.apply_action("b4")
    assert s.cheese == 1 and s.tiles[sq("b3")] == "cheese" and marks(s)["b3"] == "tile"


def test_a_mouse_never_steps_onto_the_cat():
    s = position(cat="b3", mice=("b2", "e2", "e6", "a6"))
    assert "b3" not in mouse_moves(s, 1, "b2")
    s = position(cat="b3", mice=("b2", "e2", "e6", "a6"))
    assert "b4" not in mouse_moves(s, 2, "b2")  # nor through it


def test_the_cat_landing_on_a_mouse_catches_it():
    s = cat_turn(cat="b3", mice=("a4", "b2", "d7", "f4"), out=(False, True, False, False))
    cat_moves(s, 1)
    s.apply_action("b2")
    assert s.mice[1] == -1 and s.view()["status"]["caught"] == 1
    assert ("b2", "mouse") not in pieces(s) and ("b2", "cat") in pieces(s)
    assert s.side == MICE  # caught mice are out of the game: never offered again
    roll(s, 1)
    assert "b2" not in s.legal_actions()


def test_the_cat_does_not_catch_under_the_table_unless_the_house_rule_says():
    kw = dict(cat="b3", mice=("a4", "c3", "d7", "f4"), out=(False, True, False, False))
    s = cat_turn(**kw)
    cat_moves(s, 1)
    s.apply_action("c3")
    assert s.mice[1] == sq("c3")
    s = cat_turn(rules=rules_with("house", catch_under_table=True), **kw)
    cat_moves(s, 1)
    s.apply_action("c3")
    assert s.mice[1] == -1


def test_the_cat_turns_the_tile_it_lands_on():
    s = cat_turn(cat="b3", tiles={"b2": "plus1"})
    cat_moves(s, 1)
    s.apply_action("b2")
    assert s.tiles[sq("b2")] is None and s.phase == "bonus" and s.side == CAT


def test_a_square_without_a_tile_does_nothing():
    s = position(mice=("b2", "e2", "e6", "a6"))
    before = s.to_dict()
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    after = s.to_dict()
    assert after["tiles"] == before["tiles"] and after["cheese"] == before["cheese"]
    assert s.side == CAT and s.phase == "roll"


# -- De tegelkaartjes -------------------------------------------------------------------------


def test_a_turned_tile_leaves_the_game():
    s = position(tiles={"b3": "dish"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.tiles[sq("b3")] is None and "b3" not in marks(s)


def test_broken_dishes_do_nothing_the_piece_stands_there():
    s = position(tiles={"b3": "dish"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.mice[0] == sq("b3") and s.side == CAT and s.cheese == 0
    s = cat_turn(cat="e2", tiles={"e3": "dish"})
    cat_moves(s, 1)
    s.apply_action("e3")
    assert s.cat == sq("e3") and s.side == MICE


def test_a_mouse_on_a_cheese_wins_it_for_the_mice():
    s = position(tiles={"b3": "cheese"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.cheese == 1 and s.view()["status"]["cheese"] == 1 and s.tiles[sq("b3")] is None


def test_the_cat_leaves_a_cheese_face_up_and_stands_on_it():
    s = cat_turn(cat="e2", tiles={"e3": "cheese"})
    cat_moves(s, 1)
    s.apply_action("e3")
    assert marks(s)["e3"] == "cheese" and ("e3", "cat") in pieces(s) and s.cheese == 0


def test_the_cat_may_not_cross_or_stop_on_a_visible_cheese():
    s = cat_turn(cat="d2", tiles={"e2": "shown"})
    assert "e2" not in cat_moves(s, 1)
    s = cat_turn(cat="d2", tiles={"e2": "shown"})
    assert "f2" not in cat_moves(s, 2)  # the only way to f2 in two steps is over e2
    s = cat_turn(cat="d2")
    assert "f2" in cat_moves(s, 2)


def test_the_mice_cannot_take_the_cheese_the_cat_stands_on():
    s = position(cat="b4", tiles={"b4": "shown", "b2": "fork"}, mice=("b1", "e2", "e6", "a6"))
    assert "b4" not in mouse_moves(s, 3, "b1")
    s = position(cat="b4", tiles={"b4": "shown", "b2": "fork"}, mice=("b1", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b1")
    s.apply_action("b2")  # a fork, but the only visible cheese is under the cat
    assert s.cheese == 0 and s.side == CAT and s.phase == "roll"


def test_a_mouse_stopping_on_a_visible_cheese_takes_it():
    s = position(cat="e6", tiles={"b4": "shown"}, mice=("b2", "e2", "d7", "a6"))
    mouse_moves(s, 2, "b2")
    s.apply_action("b4")
    assert s.cheese == 1 and s.tiles[sq("b4")] is None


def test_plus_tiles_give_one_or_two_more_steps():
    for tile, steps in (("plus1", 1), ("plus2", 2)):
        s = position(tiles={"b3": tile}, mice=("b2", "e2", "e6", "a6"))
        mouse_moves(s, 1, "b2")
        s.apply_action("b3")
        assert s.phase == "bonus" and s.current_player() == MICE
        want = [x for x in ALL if manhattan(x, "b3") == steps]
        assert s.legal_actions() == want
        s.apply_action(want[-1])
        assert s.mice[0] == sq(want[-1]) and s.side == CAT


def test_plus_not_back_to_its_square_but_back_to_where_the_roll_began():
    s = position(tiles={"b3": "plus1"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert "b2" in s.legal_actions() and "b3" not in s.legal_actions()
    s = position(tiles={"b4": "plus2"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 2, "b2")
    s.apply_action("b4")
    assert "b2" in s.legal_actions() and "b4" not in s.legal_actions()


def test_a_plus_move_ending_on_a_tile_turns_it():
    s = position(tiles={"b3": "plus1", "b4": "cheese"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    s.apply_action("b4")
    assert s.cheese == 1 and s.tiles[sq("b4")] is None
    s = cat_turn(cat="b2", tiles={"b3": "plus1"}, mice=("b4", "e2", "e6", "a6"))
    cat_moves(s, 1)
    s.apply_action("b3")
    s.apply_action("b4")  # the cat's extra step catches the mouse there
    assert s.mice[0] == -1


def test_an_arrow_moves_the_piece_anywhere_it_may_stand():
    s = position(tiles={"b3": "arrow"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.phase == "free"
    assert "f7" in s.legal_actions() and "a1" in s.legal_actions()
    s.apply_action("f7")
    assert s.mice[0] == sq("f7") and s.side == CAT


def test_an_arrow_mouse_not_into_a_hole_onto_a_visible_cheese_or_a_piece():
    s = position(
        cat="e3",
        tiles={"b3": "arrow", "f6": "shown"},
        mice=("b2", "e2", "b6", "f4"),
        out=(True, True, True, False),
    )
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    got = set(s.legal_actions())
    assert got == set(ALL) - {"a4", "c1", "d7", "f4", "f6", "e3", "e2", "b6", "b3"}
    assert {"c3", "d4"} <= got  # under the table is not on it


@pytest.mark.parametrize("cat_in_holes", [False, True])
def test_an_arrow_cat_not_under_the_table_on_a_cheese_a_mouse_or_a_hole(cat_in_holes):
    s = cat_turn(
        cat="e2",
        tiles={"e3": "arrow", "a1": "shown"},
        mice=("b2", "c1", "c4", "f4"),
        out=(True, False, True, False),
        rules=rules_with("house", cat_in_holes=cat_in_holes),  # the arrow's limit holds anyway
    )
    cat_moves(s, 1)
    s.apply_action("e3")
    got = set(s.legal_actions())
    fronts = {"b1", "d1", "c2", "f3", "f5", "e4"}  # before the closed holes c1 and f4
    assert got == set(ALL) - set(HOLES) - {"a1", "b2", "c4", "e3"} - fronts
    assert "d4" in got  # on the table


def test_the_arrow_tile_turns_the_tile_it_lands_on_unless_the_house_rule_says_not():
    kw = dict(tiles={"b3": "arrow", "f7": "cheese"}, mice=("b2", "e2", "e6", "a6"))
    s = position(**kw)
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    s.apply_action("f7")
    assert s.cheese == 1
    s = position(rules=rules_with("house", arrow_turns_tile=False), **kw)
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    s.apply_action("f7")
    assert s.cheese == 0 and s.tiles[sq("f7")] == "cheese"


def test_a_fork_takes_a_visible_cheese_without_moving():
    s = position(
        cat="e6", tiles={"b3": "fork", "e3": "shown", "f1": "shown"}, mice=("b2", "e2", "d7", "a6")
    )
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.phase == "take" and s.legal_actions() == ["e3", "f1"]
    s.apply_action("f1")
    assert s.cheese == 1 and s.tiles[sq("f1")] is None and s.mice[0] == sq("b3")


def test_a_fork_with_no_visible_cheese_does_nothing():
    s = position(tiles={"b3": "fork"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.cheese == 0 and s.side == CAT and s.phase == "roll"


def test_a_fork_does_nothing_for_the_cat():
    s = cat_turn(cat="e2", tiles={"e3": "fork", "a1": "shown"})
    cat_moves(s, 1)
    s.apply_action("e3")
    assert s.cat == sq("e3") and s.side == MICE and s.tiles[sq("a1")] == "shown"


def test_a_knife_ends_the_turn_at_once():
    # A mouse on the first of its two rolls cuts itself: the second roll is lost.
    s = position(tiles={"b3": "knife"}, mice=("b2", "e2", "e6", "a6"), extra=1)
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.side == CAT and s.phase == "roll"


def test_after_a_knife_the_next_side_rolls_twice():
    s = position(tiles={"b3": "knife"}, mice=("b2", "e2", "e6", "a6"))
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.side == CAT and s.extra == 1
    for _ in range(2):
        assert s.side == CAT
        cat_moves(s, 1)
        s.apply_action(s.legal_actions()[0])
    assert s.side == MICE and s.extra == 0


def test_after_a_knife_the_mice_move_the_same_mouse_twice():
    s = cat_turn(cat="e2", tiles={"e3": "knife"}, mice=("b2", "e1", "e6", "a6"))
    cat_moves(s, 1)
    s.apply_action("e3")
    assert s.side == MICE and s.extra == 1
    mouse_moves(s, 1, "a6")
    s.apply_action("a7")
    roll(s, 1)
    assert s.phase == "move" and s.legal_actions() == ["a6", "b7"]  # no second pick
    # A mouse that cannot move the second time stays.
    s = cat_turn(cat="e3", tiles={"e4": "knife"}, mice=("a2", "b1", "b2", "a3"))
    cat_moves(s, 1)
    s.apply_action("e4")
    assert mouse_moves(s, 1, "a2") == ["a1"]
    s.apply_action("a1")
    roll(s, 2)  # a1 a2, then a3 and b2 are taken
    assert s.legal_actions() == ["stay"]
    s.apply_action("stay")
    assert s.side == CAT and s.mice[0] == sq("a1")


# -- Einde van het spel ----------------------------------------------------------------------


def test_the_mice_win_only_when_all_four_came_out():
    kw = dict(tiles={"b3": "cheese"}, cheese=9, home=True)
    s = position(mice=("b2", "c1", "e6", "a6"), out=(True, False, True, True), **kw)
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.cheese == 10 and not s.is_terminal()
    s.apply_action(1)  # the cat plays on
    s.apply_action(s.legal_actions()[0])
    mouse_moves(s, 1, "c1")  # the last mouse comes out: now the mice win
    s.apply_action("c2")
    assert s.winners() == [MICE]
    s = position(
        mice=("b2", "c1", "e6", "a6"),
        out=(True, False, True, True),
        rules=rules_with("win", all_out=False),
        **kw,
    )
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.winners() == [MICE]


def test_the_mice_win_only_when_one_came_back_to_a_hole():
    s = position(tiles={"b3": "cheese"}, mice=("b2", "e2", "e6", "a5"), cheese=9)
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.cheese == 10 and not s.is_terminal()
    s.apply_action(1)
    s.apply_action(s.legal_actions()[0])
    mouse_moves(s, 1, "a5")  # into a hole, not its own: any free hole is home
    s.apply_action("a4")
    assert s.winners() == [MICE] and s.home
    s = position(
        tiles={"b3": "cheese"},
        mice=("b2", "e2", "e6", "a5"),
        cheese=9,
        rules=rules_with("win", one_home=False),
    )
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.winners() == [MICE]


def test_the_cat_may_not_stand_before_a_hole_whose_mouse_is_still_in():
    s = cat_turn(cat="b3")
    got = cat_moves(s, 1)
    assert "b4" not in got and "a3" not in got and "b2" in got
    s = cat_turn(cat="b3")
    assert "b5" in cat_moves(s, 2)  # passing in front of the hole is allowed
    s = cat_turn(cat="b3", mice=("e5", "c1", "d7", "f4"), out=(True, False, False, False))
    assert "b4" in cat_moves(s, 1)  # mouse 0 came out: the hole may be blocked now
    s = cat_turn(cat="b3", mice=("a4", "b4", "d7", "f4"), out=(False, True, False, False))
    assert "b4" not in cat_moves(s, 1)  # a mouse in front of a closed hole is safe there


def test_house_rule_the_cat_may_catch_a_mouse_in_front_of_a_hole():
    # House rule catch_in_front_of_hole: the rulebook forbids standing there "om dit te
    # blokkeren" (to block it); landing on a mouse there is a catch, not a block.
    rules = rules_with("house", catch_in_front_of_hole=True)
    s = cat_turn(cat="b3", mice=("a4", "b4", "d7", "f4"), out=(False, True, False, False),
                 rules=rules)
    got = cat_moves(s, 1)
    assert "b4" in got and "a3" not in got  # the catch, but still no empty square to block
    s.apply_action("b4")
    assert s.mice[1] == -1


# -- Decisions where the rulebook is silent (docs/rules.md) ---------------------------


def test_the_cat_never_goes_into_a_hole():
    s = cat_turn(cat="b4", mice=("e5", "c1", "d7", "f4"), out=(True, False, False, False))
    assert "a4" not in cat_moves(s, 1)
    s = cat_turn(cat="a3", mice=("e5", "c1", "d7", "f4"), out=(True, False, False, False))
    assert "a5" not in cat_moves(s, 2)  # nor through one


def test_house_rule_the_cat_may_walk_through_and_onto_an_empty_hole():
    # House rule cat_in_holes: the rulebook forbids holes to the cat only for the arrow (39).
    rules = rules_with("house", cat_in_holes=True)
    s = cat_turn(cat="b4", mice=("e5", "c1", "d7", "f4"), out=(True, False, False, False),
                 rules=rules)
    assert "a4" in cat_moves(s, 1)  # the empty hole
    s = cat_turn(cat="a3", mice=("e5", "c1", "d7", "f4"), out=(True, False, False, False),
                 rules=rules)
    assert "a5" in cat_moves(s, 2)  # through it
    s = cat_turn(cat="b4", mice=("a4", "c1", "d7", "f4"), out=(True, False, False, False),
                 rules=rules)
    assert "a4" not in cat_moves(s, 1)  # a mouse hiding in a hole stays safe


def test_a_mouse_may_pass_through_an_empty_hole():
    s = position(mice=("e5", "a3", "d7", "f4"), out=(True, True, False, False))
    assert "a5" in mouse_moves(s, 2, "a3")


def test_a_piece_that_cannot_move_stays():
    s = cat_turn(cat="a1", tiles={"a2": "shown", "b1": "shown"})
    assert cat_moves(s, 2) == ["stay"]
    assert s.hint("stay") == {"spaces": ["a1"], "text": "no move"}
    s.apply_action("stay")
    assert s.cat == sq("a1") and s.side == MICE


def test_the_turn_limit_ends_the_game_for_the_cat():
    limit = RULES["win"]["turn_limit"]
    s = position(mice=("b2", "e2", "e6", "a6"), turns=limit - 1)
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.is_terminal() and s.winners() == [CAT]


def test_the_short_game_option_plays_to_fewer_cheeses():
    s = position(
        tiles={"b3": "cheese"},
        mice=("b2", "e2", "e6", "a6"),
        cheese=5,
        home=True,
        options={"short_game": True},
    )
    assert s.view()["status"]["goal"] == RULES["win"]["short_cheese"] == 6
    mouse_moves(s, 1, "b2")
    s.apply_action("b3")
    assert s.winners() == [MICE]
