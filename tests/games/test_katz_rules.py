"""Alles für die Katz: a test per sentence of the rulebook (seeds/002), in its order.

docs/rules.md maps every sentence, and every decision where the rulebook is silent, to the
test here that would catch its violation. Positions are set up directly on the state's
places; the default track has traps (empty cans) on f04 f08 f12 f15 f19 f23 f26 and 29 fields.
"""

import copy
import json
from pathlib import Path

import pytest

from cheesefw.games import CHANCE, TERMINAL, katz

RULES = json.loads((Path(__file__).resolve().parents[2] / "firmware/rules/katz.json").read_text())
HOLE = 30  # place of the hole on the default track (29 fields)


def game(players=2, **options):
    return katz.State(RULES, dict(options, players=players))


def setup(s, mice, turn=0, roll=None):
    """Put mice where a test wants them: {mouse: place} or {mouse: (place, level, trapped)};
    the others stay in the pantry. With roll, the player to act has rolled it."""
    for i, where in mice.items():
        place, level, trapped = where if type(where) is tuple else (where, 0, 0)
        s.place[i], s.level[i], s.trapped[i] = place, level, trapped
    s.turn = turn
    if roll is not None:
        s.phase = katz.MOVE
        s.roll = roll
    return s


def at(s, i):
    return s.track.ids[s.place[i]]


def roll(s, face):
    assert s.current_player() == CHANCE
    s.apply_action(face)


def refused(s, action):
    before = s.to_dict()
    with pytest.raises(ValueError, match="expected"):
        s.apply_action(action)
    assert s.to_dict() == before


# -- "Es beginnt, wer Käse am liebsten mag. Danach kommt reihum im Uhrzeigersinn ..." --------

def test_seat_0_starts_the_board_cannot_ask_who_likes_cheese_best():
    for players in (2, 3, 6):
        s = game(players)
        assert s.current_player() == CHANCE and s.roller() == 0


def test_turns_go_round_clockwise_in_seat_order():
    s = game(3)
    order = []
    for _ in range(6):
        order.append(s.roller())
        roll(s, 1)
        s.apply_action(s.legal_actions()[0])
    assert order == [0, 1, 2, 0, 1, 2]


def test_the_first_field_is_the_one_after_the_pantry():
    s = game()
    roll(s, 1)
    assert s.legal_actions() == [("pantry", 1)]
    s.apply_action(("pantry", 1))
    assert at(s, 0) == RULES["first"] == "f01"


# -- Würfeln und ziehen --------------------------------------------------------------------

def test_1_one_roll_per_turn_then_the_move_then_the_next_player():
    s = game()
    roll(s, 3)
    assert s.current_player() == 0 and s.chance_outcomes() == []
    refused(s, 3)  # no second roll
    s.apply_action(("pantry", 3))
    assert s.current_player() == CHANCE and s.roller() == 1


def test_2_exactly_one_mouse_moves_by_the_roll_forwards():
    s = setup(game(), {0: 5, 1: 9}, roll=3)
    assert s.legal_actions() == [("f05", 3), ("f09", 3), ("pantry", 3)]
    refused(s, ("f05", 2))  # not the roll
    refused(s, ("f05", 4))
    before = list(s.place)
    s.apply_action(("f05", 3))
    moved = [i for i in range(len(before)) if s.place[i] != before[i]]
    assert moved == [0] and s.place[0] == 8


def test_3_every_yellow_field_and_every_trap_counts_one():
    s = setup(game(), {0: 3, 1: (6, 0, 0), 3: (6, 1, 0)}, roll=2)
    s.apply_action(("f03", 2))  # over the trap f04: f05
    assert at(s, 0) == "f05"
    s = setup(game(), {0: 5, 2: 6}, turn=0, roll=2)
    s.apply_action(("f05", 2))  # over the occupied f06: it counts one, like any field
    assert at(s, 0) == "f07"


def test_4_the_clover_is_a_joker_of_1_to_5_steps():
    s = setup(game(), {0: 9}, roll="clover")
    assert s.legal_actions() == [("f09", k) for k in range(1, 6)] + [
        ("pantry", k) for k in range(1, 6)]
    for bad in (0, 6, -1, True, "1"):
        refused(s, ("f09", bad))
    s.apply_action(("f09", 5))
    assert at(s, 0) == "f14"


# -- Mäusetürme ----------------------------------------------------------------------------

def test_5_a_mouse_ending_on_an_occupied_field_goes_on_top():
    s = setup(game(), {0: 5, 4: 7}, roll=2)
    s.apply_action(("f05", 2))
    assert s.tower(7) == [4, 0]


def test_6_a_later_mouse_lands_on_top_too():
    s = setup(game(), {0: 5, 4: (7, 0, 0), 1: (7, 1, 0)}, roll=2)
    s.apply_action(("f05", 2))
    assert s.tower(7) == [4, 1, 0]


def test_7_towers_of_any_height():
    s = game(6)
    mice = {i: (10, i, 0) for i in range(0, 23)}
    mice[23] = 6
    setup(s, mice, turn=5, roll=4)
    s.apply_action(("f06", 4))
    assert len(s.tower(10)) == 24 and s.tower(10)[-1] == 23


def test_8_only_the_top_mouse_moves_and_only_for_its_owner():
    s = setup(game(), {0: (7, 0, 0), 4: (7, 1, 0)}, turn=0, roll=2)
    assert ("f07", 2) not in s.legal_actions()  # player 1's mouse is on top
    refused(s, ("f07", 2))
    s.turn = 1
    assert ("f07", 2) in s.legal_actions()
    s.apply_action(("f07", 2))
    assert at(s, 4) == "f09" and at(s, 0) == "f07"  # the top mouse went, alone


def test_9_the_mice_below_are_blocked():
    s = setup(game(), {0: (7, 0, 0), 1: (7, 1, 0), 4: (7, 2, 0)}, turn=0, roll=1)
    assert s.free_mice(0) == [2, 3]  # the two still in the pantry
    assert [a for a in s.legal_actions() if a[0] == "f07"] == []


def test_10_blocked_until_they_are_on_top_again():
    s = setup(game(), {0: (7, 0, 0), 4: (7, 1, 0)}, turn=1, roll=3)
    s.apply_action(("f07", 3))
    roll(s, 2)
    assert ("f07", 2) in s.legal_actions()


# -- Zugzwang und Aussetzen ----------------------------------------------------------------

def test_11_you_must_move_while_a_mouse_is_free_there_is_no_pass():
    s = setup(game(), {0: 20, 1: HOLE, 2: HOLE, 3: HOLE}, roll=1)
    assert s.legal_actions() == [("f20", 1)]
    for bad in ("pass", None, (), ("f20",), ("hole", 1)):
        refused(s, bad)


def test_12_even_into_a_trap():
    s = setup(game(), {0: 22, 1: HOLE, 2: HOLE, 3: HOLE}, roll=1)
    assert s.legal_actions() == [("f22", 1)]
    s.apply_action(("f22", 1))
    assert s.trapped[0] and at(s, 0) == "f23"


def test_13_all_your_mice_blocked_you_sit_out():
    # Player 1's mice: all under player 0's top mice or home.
    s = setup(game(3), {0: (9, 1, 0), 4: (9, 0, 0), 5: HOLE, 6: HOLE, 7: HOLE}, turn=0, roll=1)
    s.apply_action(("pantry", 1))
    assert s.roller() == 2  # seat 1 sits out, without a roll


def test_14_you_come_back_in_once_a_mouse_is_free_again():
    s = setup(game(), {0: (9, 1, 0), 4: (9, 0, 0), 5: HOLE, 6: HOLE, 7: HOLE}, turn=0, roll=1)
    s.apply_action(("pantry", 1))
    assert s.roller() == 0  # player 1 sat out
    roll(s, 2)
    s.apply_action(("f09", 2))  # the top mouse leaves: player 1's mouse is free
    assert s.roller() == 1


# -- Die Fallen ------------------------------------------------------------------------------

def test_15_passing_over_empty_cans_is_safe():
    s = setup(game(), {0: 3}, roll=4)
    s.apply_action(("f03", 4))  # over the can f04
    assert at(s, 0) == "f07" and not s.trapped[0]
    s = setup(game(), {0: 7}, roll="clover")
    s.apply_action(("f07", 4))  # over f08 with the clover too
    assert at(s, 0) == "f11" and not s.trapped[0]


def test_16_ending_exactly_on_an_empty_can_catches_the_mouse():
    s = setup(game(), {}, roll=4)
    s.apply_action(("pantry", 4))
    assert at(s, 0) == "f04" and s.trapped[0] == 1


def test_17_the_caught_mouse_is_turned_over_its_colour_no_longer_shows():
    s = setup(game(), {0: (4, 0, 1), 1: 9})
    stacks = dict((sid, tower) for sid, tower in s.view()["stacks"])
    assert stacks["f04"] == ["trapped"] and stacks["f09"] == [0]


def test_18_a_caught_mouse_never_moves_again():
    s = setup(game(), {0: (4, 0, 1), 1: HOLE, 2: HOLE, 3: HOLE, 4: (4, 1, 0)}, turn=1, roll=2)
    s.apply_action(("f04", 2))  # the mouse on top leaves: the caught one is on top now
    assert 0 not in s.free_mice(0)
    assert s.roller() == 1  # player 0 has no free mouse: it sits out for good


def test_19_all_four_caught_the_player_is_out():
    traps = (4, 8, 12, 15)
    s = setup(game(3), {i: (traps[i], 0, 1) for i in range(4)}, turn=2, roll=1)
    s.apply_action(("pantry", 1))
    for _ in range(4):
        assert s.roller() != 0
        roll(s, 1)
        s.apply_action(s.legal_actions()[0])
    assert s.view()["status"]["trapped"][0] == 4


def test_20_one_mouse_only_is_caught_in_each_can():
    s = setup(game(), {0: (4, 0, 1)}, turn=1, roll=4)
    s.apply_action(("pantry", 4))
    assert s.tower(4) == [0, 4] and not s.trapped[4]


def test_21_a_full_can_is_harmless_and_told_apart_from_an_empty_one():
    s = setup(game(), {0: (4, 0, 1)})
    marks = dict(s.view()["marks"])
    assert marks["f04"] == "trap-full" and marks["f08"] == "trap"


def test_22_more_mice_sit_on_top_there_and_move_on_normally_later():
    s = setup(game(), {0: (4, 0, 1), 4: (4, 1, 0)}, turn=1, roll=2)
    assert ("f04", 2) in s.legal_actions()
    s.apply_action(("f04", 2))
    assert at(s, 4) == "f06" and at(s, 0) == "f04" and s.trapped[0]


# -- Ins Mauseloch -------------------------------------------------------------------------

def test_23_a_mouse_in_the_hole_is_safe():
    s = setup(game(), {0: 27}, roll=3)
    s.apply_action(("f27", 3))
    assert s.place[0] == HOLE and s.home_count(0) == 1
    roll(s, 1)
    roll_then = s.legal_actions()
    assert all(a[0] != "hole" for a in roll_then)
    assert 0 not in s.free_mice(0)


def test_24_no_exact_count_for_the_hole_surplus_points_are_lost():
    for start, face in ((29, 5), (25, 5), (26, 4)):
        s = setup(game(), {0: start}, roll=face)
        s.apply_action(("f%02d" % start, face))
        assert s.place[0] == HOLE


# -- What the rulebook leaves open: decided in docs/rules.md ----------------------------------

def test_the_clover_offers_the_hole_once_with_the_fewest_steps():
    s = setup(game(), {0: 27, 1: HOLE, 2: HOLE, 3: HOLE}, roll="clover")
    assert s.legal_actions() == [("f27", 1), ("f27", 2), ("f27", 3)]
    refused(s, ("f27", 4))


def test_a_trap_under_a_tower_holds_only_its_bottom_mouse():
    s = setup(game(), {0: (4, 0, 1), 4: (4, 1, 0), 1: (4, 2, 0)}, turn=0, roll=1)
    assert ("f04", 1) in s.legal_actions()  # player 0's free top mouse
    assert 0 not in s.free_mice(0)


def test_a_mouse_may_walk_into_a_can_by_choice():
    s = setup(game(), {0: 2}, roll=2)
    assert ("f02", 2) in s.legal_actions() and ("pantry", 2) in s.legal_actions()
    s.apply_action(("f02", 2))
    assert s.trapped[0]


def test_the_race_ends_when_no_mouse_is_free_most_mice_home_wins():
    s = setup(game(), {0: HOLE, 1: HOLE, 2: HOLE, 3: 28, 4: HOLE, 5: (4, 0, 1), 6: (8, 0, 1),
                       7: (12, 0, 1)}, roll=3)
    s.apply_action(("f28", 3))
    assert s.current_player() == TERMINAL and s.is_terminal()
    assert s.winners() == [0] and s.ranking() == [0, 1]
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    refused(s, 1)


def test_a_tie_goes_to_who_brought_their_last_mouse_home_first():
    s = setup(game(), {0: HOLE, 1: HOLE, 2: (4, 0, 1), 3: 28, 4: HOLE, 5: 29, 6: (8, 0, 1),
                       7: (12, 0, 1)}, roll=3)
    s.apply_action(("f28", 3))  # player 0: 3 home
    roll(s, 1)
    s.apply_action(("f29", 1))  # player 1: 2 home ... still behind
    assert s.is_terminal() and s.winners() == [0]
    s = setup(game(), {0: HOLE, 1: (15, 0, 1), 2: (4, 0, 1), 3: 28, 4: HOLE, 5: 29,
                       6: (8, 0, 1), 7: (12, 0, 1)}, turn=1, roll=1)
    s.apply_action(("f29", 1))  # player 1 reaches 2 first ...
    roll(s, 2)
    s.apply_action(("f28", 2))  # ... player 0 later
    assert s.is_terminal() and s.home_count(0) == s.home_count(1) == 2
    assert s.winners() == [1]


def test_options_and_tables_that_cannot_be_played_are_refused():
    with pytest.raises(ValueError, match="players"):
        game(7)
    with pytest.raises(ValueError, match="colour"):
        katz.State(RULES, {"colour": "red"})
    small = copy.deepcopy(RULES)
    small["players"] = [2, 3]
    with pytest.raises(ValueError, match="players"):
        katz.State(small, {"players": 4})


def test_the_board_s_seats_are_the_menu_s_not_an_option():
    assert not hasattr(katz, "bot_players")  # the menu's seat step asks every seat
    with pytest.raises(ValueError, match="board"):  # the old option is gone
        katz.State(RULES, {"players": 2, "board": 1})
