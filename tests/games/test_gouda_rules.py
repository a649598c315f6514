"""One test per sentence of the Gouda rulebook (shared/seeds/001_034f658690eb2b22.txt).

docs/rules.md quotes each sentence, says how the board interprets it and names the test
here that fails when the rule is broken. Seats: 0 is the youngest player (Dominique in the
rulebook's examples), 1 Victor, 2 Léon; play goes clockwise 0, 1, 2, ...
"""

import json
from pathlib import Path

import pytest

from cheesefw.games import CHANCE, PASS, REACTION, TERMINAL, gouda
from cheesefw.games.gouda_powers import GO

ROOT = Path(__file__).resolve().parents[2]
RULES = json.loads((ROOT / "firmware" / "rules" / "gouda.json").read_text())
MICE = RULES["mice_per_player"]
SPACES = {e[0]: {"name": e[1], "up": e[2].split(), "dn": e[3].split()} for e in RULES["spaces"]}


def new(**options):
    return gouda.State(RULES, options)


def position(mice, turn=0, rest="crl", hands=None, **options):
    """A game at the start of `turn`'s turn, mice placed as {space: [owner, ...]}.

    Each player's other mice wait on `rest`; hands gives markers as {player: [power, ...]}.
    """
    st = new(**options)
    d = st.to_dict()
    ids = list(st.board.ids)
    n = st.n
    cnt = [0] * (len(ids) * n)
    placed = [0] * n
    for space, owners in mice.items():
        for p in owners:
            cnt[ids.index(space) * n + p] += 1
            placed[p] += 1
    for p in range(n):
        cnt[ids.index(rest) * n + p] += MICE - placed[p]
    hand = [0] * (n * 6)
    for p, powers in (hands or {}).items():
        for power in powers:
            hand[p * 6 + gouda.POWERS.index(power)] += 1
    d.update(phase=GO, setup_count=0, turn=turn, mice=cnt, hand=hand, pool=[0] * 6)
    return gouda.State.from_dict(RULES, d)


def count(st, space, player=None):
    """Mice on `space` (of `player`, or all) as the view shows them."""
    return sum(1 for s, p in st.view()["pieces"] if s == space and player in (None, p))


def roll(st, space, *faces):
    """Designate `space` and roll `faces` (die colours)."""
    st.apply_action(("go", space))
    for f in faces:
        assert st.current_player() == CHANCE
        st.apply_action(f)


def dice(st):
    v = st.view()["dice"]
    return (v.count("green"), v.count("yellow"), v.count("red"))


def setup_all(st, space="jug"):
    """Every player puts every mouse on `space`."""
    while st.legal_actions() and st.legal_actions()[0][0] == "place":
        st.apply_action(("place", space))


# -- Game components ---------------------------------------------------------------------------


def test_five_special_dice():
    # "5 special dice" (each 2 green, 2 yellow, 2 red faces: DESIGN.md)
    assert RULES["dice"]["n"] == 5
    st = position({"jug": [0] * 5 + [1] * 5})
    st.apply_action(("go", "jug"))
    outcomes = st.chance_outcomes()
    assert outcomes == [
        ("green", pytest.approx(1 / 3)),
        ("red", pytest.approx(1 / 3)),
        ("yellow", pytest.approx(1 / 3)),
    ]
    for _ in range(5):
        st.apply_action("green")
    assert st.current_player() == 0  # 10 mice, but only 5 dice: the roll is over
    assert dice(st) == (5, 0, 0)


def test_five_mice_per_player_in_six_colours():
    # "6 sets of 5 mouse pawns in different colours" (setup says "6 mouse pawns": 5 is used)
    assert MICE == 5
    st = new(players=6)
    setup_all(st)
    pieces = st.view()["pieces"]
    assert [sum(1 for _, p in pieces if p == q) for q in range(6)] == [5] * 6
    colours = [tuple(RULES["palette"][str(p)]) for p in range(6)]
    assert len(set(colours)) == 6


def test_thirty_power_markers():
    # "30 power markers" (6 types x 5: DESIGN.md)
    st = new(players=2, powers=True)
    assert sorted(RULES["powers"]["types"]) == list(gouda.POWERS)
    assert RULES["powers"]["each"] * len(RULES["powers"]["types"]) == 30
    assert sum(st.to_dict()["pool"]) == 30
    assert st.chance_outcomes() == [(p, pytest.approx(1 / 6)) for p in gouda.POWERS]


# -- Setup -------------------------------------------------------------------------------------


def test_cheese_on_the_top_space():
    # "A cheese pawn is placed on the space at the "top" of the game board."
    v = new().view()
    assert v["marks"] == [[RULES["top"], "cheese"]]
    assert v["status"]["cheese"] == 1


def test_race_from_bottom_to_a_single_top_space():
    # "The race runs from the "bottom" to the "top" of the board. The top consists of a single
    # space: a table on which the cheese pawn is placed."
    top = RULES["top"]
    assert [s for s in SPACES if not SPACES[s]["up"]] == [top]  # the only space with no way up
    for sid in SPACES:  # every space leads up to the table
        seen, todo = set(), [sid]
        while todo:
            s = todo.pop()
            seen.add(s)
            todo += [u for u in SPACES[s]["up"] if u not in seen]
        assert top in seen
    for s in RULES["start"]:
        assert SPACES[s]["dn"] == []  # the bottom
    assert SPACES[top]["name"] == "table"
    with pytest.raises(ValueError, match="table.up"):
        bad = json.loads(json.dumps(RULES))
        bad["spaces"][-1][2] = "m5"  # a way up from the table: no longer the top
        gouda.State(bad)


def test_each_player_has_a_colour():
    # "Each player chooses a colour and places the corresponding mouse marker in front of them to
    # remember the colour they control."
    st = new(players=4)
    setup_all(st)
    assert sorted({p for _, p in st.view()["pieces"]}) == [0, 1, 2, 3]
    for p in range(6):
        rgb = RULES["palette"][str(p)]
        assert len(rgb) == 3 and all(0 <= c <= 255 for c in rgb)


def test_setup_puts_all_of_a_players_mice_on_one_start_space_in_turn():
    # "They also take the 6 mouse pawns of the colour they chose and place them in one of the
    # first three spaces at the bottom of the board (the big jug and the two crates)."
    st = new(players=3)
    assert st.options["placement"] == "together"  # the rulebook's reading is the default
    assert st.legal_actions() == [("place", "crl"), ("place", "crr"), ("place", "jug")]
    with pytest.raises(ValueError):
        st.apply_action(("place", "m1"))
    order = []
    for space in ("jug", "jug", "crr"):  # seat 1 sees seat 0's mice and may join them
        order.append(st.current_player())
        assert count(st, space, order[-1]) == 0
        st.apply_action(("place", space))
        assert count(st, space, order[-1]) == MICE  # all of them, on the one space
    assert order == [0, 1, 2]  # one placement each, in turn
    assert [count(st, s, p) for s in ("crl", "jug", "crr") for p in range(3)] == [
        0, 0, 0, MICE, MICE, 0, 0, 0, MICE,
    ]
    assert st.current_player() == 0 and st.legal_actions()[0][0] == "go"


def test_placement_option_each_mouse_its_own_start_space_round_robin():
    # The option placement "each": a mouse at a time, round after round, each anywhere.
    st = new(players=3, placement="each")
    order = []
    for i in range(3 * MICE):
        order.append(st.current_player())
        st.apply_action(("place", ["crl", "jug", "crr", "jug"][i % 4]))
    assert order == [0, 1, 2] * MICE  # one mouse each, round after round
    assert [count(st, s, 0) for s in ("crl", "jug", "crr")] == [2, 2, 1]  # split over spaces
    assert sum(count(st, s) for s in ("crl", "jug", "crr")) == 3 * MICE
    assert st.current_player() == 0 and st.legal_actions()[0][0] == "go"


def test_youngest_starts_then_clockwise():
    # "The youngest player starts the game. Players then take turns clockwise."
    st = new(players=3)
    setup_all(st)
    turns = []
    for _ in range(4):
        turns.append(st.current_player())
        roll(st, "jug", "yellow", "yellow", "yellow", "yellow", "yellow")
    assert turns == [0, 1, 2, 0]


# -- Course of a turn --------------------------------------------------------------------------


def test_designate_a_space_with_one_of_your_mice():
    # "Designates a space on the board where at least one of their mice is present."
    st = position({"m2": [0, 1], "m3": [1], "m4": [0]}, turn=0)
    assert st.legal_actions() == [("go", "crl"), ("go", "m2"), ("go", "m4")]
    before = st.to_dict()
    with pytest.raises(ValueError):
        st.apply_action(("go", "m3"))  # only an opponent's mouse there
    assert st.to_dict() == before


def test_dice_rolled_are_the_mice_in_the_space_at_most_five():
    # "Rolls as many dice (maximum 5, since there are only 5 dice in the game) as there are mice
    # present in the space they designated (the opponents' mice are also counted)."
    # Dominique (0): 7 mice, 3 hers, 2 and 2 of others -> 5 dice.
    st = position({"m2": [0, 0, 0, 1, 1, 2, 2]}, turn=0, players=3)
    roll(st, "m2", *["yellow"] * 5)
    assert st.current_player() == 1  # 5 dice, all yellow: the turn is over, no sixth die
    assert st.history[-5:] == ["yellow"] * 5
    # Victor (1): 3 mice, 1 his, 1 and 1 of others -> 3 dice.
    st = position({"m3": [1, 0, 2]}, turn=1, players=3)
    roll(st, "m3", "yellow", "yellow", "yellow")
    assert st.current_player() == 2  # nothing to move: the turn is over after 3 dice


def test_green_moves_a_mouse_up_maybe_to_a_lateral_space():
    # "Each green result obliges a mouse (any mouse) to move forward to the first space toward
    # the top. Note that, given the layout of the board, it is sometimes possible to move a
    # mouse forward to a lateral space."
    st = position({"m1": [0, 1]}, turn=0)
    roll(st, "m1", "green", "yellow")
    ups = [("move", p, s) for p in (0, 1) for s in ("m2", "pot", "tin")]
    assert st.legal_actions() == ups
    st.apply_action(("move", 1, "tin"))
    assert count(st, "tin", 1) == 1 and count(st, "m1") == 1


def test_red_moves_a_mouse_down_maybe_to_a_lateral_space():
    # "Each red result obliges a mouse (any mouse) to move back to the first space toward the
    # bottom. It is sometimes possible to move it back to a larger lateral space."
    st = position({"m2": [0]}, turn=0)
    roll(st, "m2", "red")
    assert st.legal_actions() == [("move", 0, "m1"), ("move", 0, "pot"), ("move", 0, "tin")]
    st.apply_action(("move", 0, "pot"))
    assert count(st, "pot", 0) == 1 and count(st, "m2") == 0


def test_red_on_a_start_space_has_no_effect():
    # Interpretation of the red rule: a start space has no space below it.
    st = position({"jug": [0, 1]}, turn=0, rest="crr")
    roll(st, "jug", "red", "red")
    assert st.current_player() == 1  # no move to make: the turn is over
    assert count(st, "jug") == 2


def test_yellow_has_no_effect():
    # "Each yellow result has no effect on the mice in the space."
    st = position({"m3": [0, 1, 1]}, turn=0)
    roll(st, "m3", "yellow", "green", "yellow")
    assert st.legal_actions() == [("move", 0, "m4"), ("move", 1, "m4")]  # the green only
    st.apply_action(("move", 1, "m4"))
    assert st.current_player() == 1  # the yellows moved nobody
    assert (count(st, "m3", 0), count(st, "m3", 1), count(st, "m4", 1)) == (1, 1, 1)


def test_the_roller_moves_any_mouse_of_the_space():
    # "The player may move any mouse present in the space, their own as well as those of their
    # opponents. It is they who choose which mouse must be moved and who actually moves it."
    st = position({"m3": [0, 1, 2]}, turn=0, players=3)
    roll(st, "m3", "green", "yellow", "yellow")
    assert st.current_player() == 0
    assert st.legal_actions() == [("move", 0, "m4"), ("move", 1, "m4"), ("move", 2, "m4")]
    assert st.action_player(("move", 2, "m4")) == 0
    st.apply_action(("move", 2, "m4"))
    assert count(st, "m4", 2) == 1


def test_no_limit_to_the_mice_in_a_space():
    # "There is no limit to the number of mice that may be present in a space."
    st = new(players=6)
    setup_all(st, "jug")
    assert count(st, "jug") == 30
    st = position({"m1": [0], "m2": [p for p in range(6) for _ in range(5)][1:]}, players=6)
    roll(st, "m1", "green")
    st.apply_action(("move", 0, "m2"))
    assert count(st, "m2") == 30


def test_example_dominique_one_green_three_yellows_one_red():
    # "Dominique rolled 5 dice and got 1 green face, 3 yellow faces and 1 red. She decides to move
    # forward, thanks to the green result, one of her 3 yellow mice present in the space, and to
    # move back, thanks to the red result, an opponent's mouse (a red mouse, for example,
    # belonging to Victor)."
    st = position({"m2": [0, 0, 0, 2, 2, 1, 1]}, turn=0, players=3)
    roll(st, "m2", "green", "yellow", "yellow", "yellow", "red")
    st.apply_action(("move", 0, "m3"))
    st.apply_action(("move", 1, "m1"))
    assert (count(st, "m3", 0), count(st, "m1", 1), count(st, "m2")) == (1, 1, 5)
    assert st.current_player() == 1


def test_each_result_moves_a_different_mouse():
    # Interpretation: one result per mouse -- a mouse moved by one die is not moved again.
    st = position({"m2": [0, 1]}, turn=0)
    roll(st, "m2", "green", "green")
    st.apply_action(("move", 0, "m3"))
    assert st.legal_actions() == [("move", 1, "byl"), ("move", 1, "byr"), ("move", 1, "m3")]
    with pytest.raises(ValueError):
        st.apply_action(("move", 0, "m3"))  # her mouse left m2: it cannot take the second green
    st.apply_action(("move", 1, "m3"))
    assert count(st, "m3") == 2 and count(st, "m4") == 0


def test_applying_the_results_is_mandatory():
    # "Applying the results of the dice rolls is mandatory. You cannot decide to "pass"."
    st = position({"m3": [0, 1]}, turn=0, powers=True, hands={1: ["cancel"]})
    roll(st, "m3", "red", "red")
    st.apply_action(PASS)  # the reaction window after the roll, not the moves
    assert st.current_player() == 0
    assert PASS not in st.legal_actions()
    with pytest.raises(ValueError):
        st.apply_action(PASS)
    st.apply_action(("move", 0, "m2"))
    assert st.current_player() == 0  # the second red is still to apply
    st.apply_action(("move", 1, "byl"))
    assert count(st, "m3") == 0


def test_example_victor_alone_rolls_red_and_must_move_back():
    # "Victor designated a space in which one of his red mice is all alone. He rolls 1 die and
    # gets a red result. He must move his mouse back."
    st = position({"m4": [1]}, turn=1)
    roll(st, "m4", "red")
    assert st.legal_actions() == [("move", 1, "m3")]
    st.apply_action(("move", 1, "m3"))
    assert count(st, "m3", 1) == 1 and st.current_player() == 0


# -- End of the game ---------------------------------------------------------------------------


def test_game_ends_as_soon_as_a_mouse_reaches_the_cheese():
    # "The game ends as soon as a mouse reaches the space where the piece of cheese is."
    st = position({"m5": [0, 0]}, turn=0)
    roll(st, "m5", "green", "green")
    assert st.winners() == []
    st.apply_action(("move", 0, "table"))
    assert st.is_terminal() and st.current_player() == TERMINAL
    assert st.legal_actions() == [] and st.winners() == [0]
    assert count(st, "m5", 0) == 1  # the second green is never applied
    assert st.view()["marks"] == []  # the cheese is eaten


def test_the_owner_of_the_mouse_on_the_table_wins():
    # Interpretation: the mouse's owner wins, even when an opponent moved it there.
    st = position({"m5": [0, 1]}, turn=0)
    roll(st, "m5", "green", "yellow")
    st.apply_action(("move", 1, "table"))
    assert st.winners() == [1] and st.ranking()[0] == 1


# -- Optional rule 1: powers -------------------------------------------------------------------


def test_optional_rules_are_off_by_default():
    # "From your second game, start to include the optional rules" (the Warning): a first game.
    st = new()
    assert st.options == {
        "players": 2,
        "placement": "together",
        "powers": False,
        "markers": 3,
        "festival": False,
        "extra_cheese": False,
    }
    assert "markers" not in st.view()["status"] and st.current_player() == 0


def test_markers_are_dealt_three_each_in_turn_face_down():
    # "At the start of the game, the power markers are shuffled and placed in the centre of the
    # table, face down. Each player, starting with the youngest and continuing clockwise, takes 3
    # markers at random, looks at them, and places them face down in front of them."
    st = new(players=3, powers=True)
    drawn = [
        "cancel",
        "cancel",
        "extra",
        "upgrade",
        "reroll",
        "cancel",
        "transfer",
        "extra",
        "downgrade",
    ]
    for i, power in enumerate(drawn):
        assert st.current_player() == CHANCE
        left = 30 - i
        probs = dict(st.chance_outcomes())
        assert probs["cancel"] == pytest.approx((5 - drawn[:i].count("cancel")) / left)
        st.apply_action(power)
    assert st.hand_of(0) == ["cancel", "cancel", "extra"]
    assert st.hand_of(1) == ["cancel", "reroll", "upgrade"]
    assert st.hand_of(2) == ["downgrade", "extra", "transfer"]
    v = json.dumps(st.view())
    assert v.count("cancel") == 0 and json.loads(v)["status"]["markers"] == [3, 3, 3]


def test_undealt_markers_leave_the_game():
    # "The other markers are removed from the game (put in the game box, for example)."
    st = new(players=2, powers=True)
    for _ in range(6):
        st.apply_action(st.chance_outcomes()[0][0])
    assert st.current_player() == 0 and st.legal_actions()[0][0] == "place"
    setup_all(st)
    assert st.view()["status"]["markers"] == [3, 3]  # 24 markers stay out for good
    assert sum(st.to_dict()["hand"]) == 6


def test_a_marker_may_be_played_on_any_turn():
    # "Each marker may be used by a player during their own turn or during another player's
    # turn."
    st = position(
        {"m2": [0, 1]},
        turn=0,
        powers=True,
        players=3,
        hands={0: ["reroll"], 1: ["upgrade"], 2: ["downgrade"]},
    )
    roll(st, "m2", "yellow", "red")
    assert st.current_player() == REACTION
    plays = [PASS, ("play", 0, "reroll"), ("play", 1, "upgrade"), ("play", 2, "downgrade")]
    assert st.legal_actions() == plays
    assert [st.action_player(a) for a in plays] == [REACTION, 0, 1, 2]


def test_a_window_opens_after_a_roll_and_after_each_power():
    # "Other players must get their chance to react": after the roll and after every power.
    st = position({"m2": [0, 1]}, turn=0, powers=True, hands={0: ["upgrade"], 1: ["cancel"]})
    roll(st, "m2", "yellow", "red")
    assert st.current_player() == REACTION
    st.apply_action(("play", 0, "upgrade"))
    st.apply_action(("dice", 0, 1, 0))
    assert st.current_player() == REACTION  # Victor may now react to the upgrade
    assert ("play", 1, "cancel") in st.legal_actions()


def test_a_used_marker_leaves_the_game():
    # "Once used, a marker must be removed from the game (and joins those that were put in the
    # game box)."
    st = position({"m2": [0, 1]}, turn=0, powers=True, hands={0: ["reroll", "upgrade"]})
    roll(st, "m2", "red", "red")
    st.apply_action(("play", 0, "reroll"))
    st.apply_action(("dice", 0, 0, 2))
    st.apply_action("yellow")
    st.apply_action("yellow")
    assert st.hand_of(0) == ["upgrade"] and st.view()["status"]["markers"] == [1, 0]
    assert ("play", 0, "reroll") not in st.legal_actions()


def test_reroll_example():
    # Re-roll: "This power allows the player either, after one of their own dice rolls, to re-roll
    # one or more dice of their choice themselves, or to oblige an opponent to re-roll one or more
    # dice that they designate." Example: Dominique 3 reds, 1 green, 1 yellow; she re-rolls the
    # 3 reds: 2 greens, 1 yellow; Victor makes her re-roll her 3 greens: 2 reds, 1 green.
    st = position(
        {"m2": [0, 0, 0, 1, 1]}, turn=0, powers=True, hands={0: ["reroll"], 1: ["reroll"]}
    )
    roll(st, "m2", "red", "red", "green", "red", "yellow")
    st.apply_action(("play", 0, "reroll"))
    assert st.current_player() == 0
    st.apply_action(("dice", 0, 0, 3))
    for f in ("green", "green", "yellow"):
        st.apply_action(f)
    assert dice(st) == (3, 2, 0)
    st.apply_action(("play", 1, "reroll"))
    assert st.current_player() == 1  # Victor designates the dice
    st.apply_action(("dice", 3, 0, 0))
    for f in ("red", "red", "green"):
        st.apply_action(f)
    assert dice(st) == (1, 2, 2)


def test_extra_turn_for_oneself():
    # Extra Turn: "This power allows the player to immediately play a second turn". Example: she
    # plays it, "designating the space where her 3 mice are alone", and re-rolls 3 dice.
    st = position({"m3": [0, 0, 0]}, turn=0, powers=True, hands={0: ["extra"]})
    roll(st, "m3", "green", "green", "green")
    st.apply_action(PASS)
    for _ in range(3):
        st.apply_action(("move", 0, "m4"))
    assert st.current_player() == REACTION  # after the moves: Extra Turn time
    st.apply_action(("play", 0, "extra"))  # the last marker: no window follows
    assert st.current_player() == 0 and ("go", "m4") in st.legal_actions()
    roll(st, "m4", "yellow", "yellow", "yellow")
    assert st.current_player() == 1  # then the turn passes on


def test_extra_turn_imposed_on_an_opponent_on_a_space_designated_for_them():
    # Extra Turn: "... or to oblige an opponent to immediately play a second turn by designating a
    # space for them."
    st = position({"m4": [0, 1], "m1": [0]}, turn=0, powers=True, hands={1: ["extra"]})
    roll(st, "m4", "yellow", "yellow")
    assert st.legal_actions() == [PASS]  # after the roll an Extra Turn is not yet playable
    st.apply_action(PASS)
    st.apply_action(("play", 1, "extra"))
    assert st.current_player() == 1
    assert st.legal_actions() == [("go", "crl"), ("go", "m1"), ("go", "m4")]  # her spaces
    st.apply_action(("go", "m1"))  # no marker left anywhere: no window, the roll comes at once
    assert st.current_player() == CHANCE and ["m1", "target"] in st.view()["marks"]
    st.apply_action("red")
    assert st.current_player() == 0  # Dominique applies her second roll
    st.apply_action(("move", 0, "crl"))
    assert st.current_player() == 1


def test_transfer_example():
    # Transfer: "The result of a dice roll is transferred to a space different from the one to
    # which it was to apply. The player of the marker designates the new space, which must contain
    # at least as many mice as the space initially chosen." Example: 4 dice for 3 of Dominique's
    # mice and 1 of Victor's: 3 greens 1 red; Victor transfers to 2 of his, 1 of Léon, 1 of hers.
    st = position(
        {"m2": [0, 0, 0, 1], "m3": [1, 1, 2, 0], "m4": [2, 2]},
        turn=0,
        players=3,
        powers=True,
        hands={1: ["transfer"], 2: ["cancel"]},
    )
    roll(st, "m2", "green", "green", "green", "red")
    st.apply_action(("play", 1, "transfer"))
    assert st.legal_actions() == [("space", "crl"), ("space", "m3")]  # 4 mice or more, not m2
    st.apply_action(("space", "m3"))
    st.apply_action(PASS)
    assert st.current_player() == 0  # Dominique applies her 3 greens and 1 red to m3
    assert st.legal_actions() == [("move", p, "m4") for p in (0, 1, 2)]
    for p in (1, 1, 2):
        st.apply_action(("move", p, "m4"))
    st.apply_action(("move", 0, "byr"))
    assert count(st, "m3") == 0 and count(st, "m2") == 4 and count(st, "m4") == 5


def test_upgrade_examples():
    # Upgrade: "The result of a dice roll can be improved. Reds can become yellow and yellows can
    # become green (greens cannot be "upgraded"). The number of dice affected is at the discretion
    # of the marker's player."
    st = position({"m2": [0, 0, 2]}, turn=0, players=3, powers=True, hands={0: ["upgrade"]})
    roll(st, "m2", "green", "yellow", "red")
    st.apply_action(("play", 0, "upgrade"))
    assert ("dice", 1, 0, 0) not in st.legal_actions()  # greens cannot be upgraded
    st.apply_action(("dice", 0, 1, 0))  # only the yellow becomes green
    assert dice(st) == (2, 0, 1)
    # Victor: 1 green and 3 yellows for 2 of his mice and 2 of Dominique's; she upgrades the 3
    # yellows: "The 4 mice must be moved forward by Victor."
    st = position({"m3": [1, 1, 0, 0]}, turn=1, powers=True, hands={0: ["upgrade"]})
    roll(st, "m3", "yellow", "green", "yellow", "yellow")
    st.apply_action(("play", 0, "upgrade"))
    st.apply_action(("dice", 0, 3, 0))  # no marker left: no window, the moves begin
    for p in (0, 0, 1, 1):
        assert st.current_player() == 1
        st.apply_action(("move", p, "m4"))
    assert count(st, "m4") == 4


def test_downgrade():
    # Downgrade: "The result of a dice roll can be worsened. Greens can become yellow and yellows
    # can become red. The number of dice affected is at the discretion of the marker's player."
    st = position({"m2": [0, 0, 1]}, turn=0, powers=True, hands={1: ["downgrade"]})
    roll(st, "m2", "green", "green", "yellow")
    st.apply_action(("play", 1, "downgrade"))
    assert ("dice", 0, 0, 1) not in st.legal_actions()  # reds cannot be downgraded
    assert ("dice", 2, 1, 0) in st.legal_actions() and ("dice", 1, 0, 0) in st.legal_actions()
    st.apply_action(("dice", 1, 1, 0))
    assert dice(st) == (1, 1, 1)


def test_cancel_of_a_roll_is_a_reroll_and_a_cancel_cancels_a_cancel():
    # Cancel: "The result of a roll, or of one or more dice of a roll, is cancelled. One can also
    # cancel the effects of a power marker." Example: 3 greens 1 red; Victor cancels "to oblige
    # Dominique to re-roll the dice"; she cancels his Cancel: "She is therefore not obliged to
    # re-roll the dice."
    st = position({"m2": [0, 0, 0, 1]}, turn=0, powers=True, hands={0: ["cancel"], 1: ["cancel"]})
    roll(st, "m2", "green", "green", "green", "red")
    st.apply_action(("play", 1, "cancel"))
    assert ("undo",) not in st.legal_actions()  # no power to cancel yet: dice only
    st.apply_action(("dice", 3, 0, 1))  # the whole roll
    for f in ("red", "red", "yellow", "red"):
        st.apply_action(f)
    assert dice(st) == (0, 1, 3)
    st.apply_action(("play", 0, "cancel"))
    assert st.legal_actions()[-1] == ("undo",)
    assert st.hint(("undo",))["text"] == "cancel cancel"
    st.apply_action(("undo",))
    assert dice(st) == (3, 0, 1)


def test_cancel_undoes_the_last_power():
    # Cancel: "One can also cancel the effects of a power marker." -- a Transfer, here.
    st = position(
        {"m2": [0, 1], "m3": [1, 1]}, turn=0, powers=True, hands={0: ["cancel"], 1: ["transfer"]}
    )
    roll(st, "m2", "green", "green")
    st.apply_action(("play", 1, "transfer"))
    st.apply_action(("space", "m3"))
    assert ["m3", "target"] in st.view()["marks"]
    st.apply_action(("play", 0, "cancel"))
    st.apply_action(("undo",))
    assert ["m2", "target"] in st.view()["marks"] and dice(st) == (2, 0, 0)
    assert st.legal_actions()[0] == ("move", 0, "byl")  # the roll applies to m2 again


def test_cancel_of_an_extra_turn():
    # Cancel, applied to an Extra Turn: the second turn does not happen.
    st = position({"m2": [0]}, turn=0, powers=True, hands={0: ["extra"], 1: ["cancel"]})
    roll(st, "m2", "yellow")
    st.apply_action(PASS)
    st.apply_action(("play", 0, "extra"))
    st.apply_action(("play", 1, "cancel"))
    assert st.legal_actions() == [("undo",)]
    st.apply_action(("undo",))
    assert st.current_player() == 1  # no second turn for Dominique


# -- Optional rule 2: a cheese festival --------------------------------------------------------


def test_festival_puts_three_cheeses_on_the_table():
    # "At the start of the game, not 1 piece of cheese but 3 are placed on the space at the top of
    # the board."
    v = new(festival=True).view()
    assert v["marks"] == [["table", "cheese"]] * 3 and v["status"]["cheese"] == 3


def test_festival_mouse_eats_a_cheese_and_leaves_the_game():
    # "When a mouse reaches this space, it eats a piece of cheese. Its player therefore takes a
    # cheese pawn from this space and removes their mouse from the game."
    st = position({"m5": [1, 0]}, turn=0, festival=True)
    roll(st, "m5", "green", "yellow")
    st.apply_action(("move", 1, "table"))
    v = st.view()
    assert not st.is_terminal() and v["status"] == {"cheese": 2, "score": [0, 1]}
    assert count(st, "table") == 0 and len(v["pieces"]) == 2 * MICE - 1
    assert st.to_dict()["gone"] == [0, 1]


def test_festival_ends_when_all_cheeses_are_eaten():
    # "The game ends when all the pieces of cheese have been eaten."
    st = position({"m5": [0, 0, 0, 1]}, turn=0, festival=True)
    roll(st, "m5", "green", "green", "green", "green")
    for p in (0, 1, 0):
        assert not st.is_terminal()
        st.apply_action(("move", p, "table"))
    assert st.is_terminal() and count(st, "m5") == 1  # the fourth green is never applied


def test_festival_most_cheese_wins_ties_by_order_of_arrival():
    # "The winner of the game is the player whose mice have eaten the most pieces of cheese. In
    # case of a tie, the players are ranked by order of arrival on the space where the cheese
    # pawns were."
    st = position({"m5": [2, 1, 1, 2], "m4": [0]}, turn=0, players=3, festival=True)
    st.apply_action(("go", "m4"))
    st.apply_action("green")
    st.apply_action(("move", 0, "m5"))
    roll(st, "m5", "green", "green", "yellow", "yellow", "yellow")
    st.apply_action(("move", 2, "table"))
    st.apply_action(("move", 1, "table"))
    assert st.ranking() == []  # not over: one cheese left
    roll(st, "m5", "green", "yellow", "yellow")  # Léon's turn: 3 mice left
    st.apply_action(("move", 0, "table"))
    assert st.is_terminal() and st.scores() == [1, 1, 1]
    assert st.ranking() == [2, 1, 0] and st.winners() == [2]


# -- Remark: other variants --------------------------------------------------------------------


def test_more_markers_or_a_full_series_each():
    # "You can, for example, distribute more than 3 power markers to each player at the start of
    # the game, or even distribute to each a complete series of the 6 powers."
    st = new(players=6, powers=True, markers=5)
    while st.current_player() == CHANCE:
        st.apply_action(st.chance_outcomes()[-1][0])
    assert st.view()["status"]["markers"] == [5] * 6
    st = new(players=6, powers=True, markers="series")
    assert st.current_player() == 0  # nothing to draw
    assert all(st.hand_of(p) == list(gouda.POWERS) for p in range(6))
    with pytest.raises(ValueError):
        new(players=2, powers=True, markers=7)


def test_extra_cheeses_along_the_course():
    # "You can also place pieces of cheese here and there along the course." The designer's
    # scoring: table 4, pile of newspapers 3, each small yellow box 2. A mouse entering such a
    # space takes the cheese for its owner and races on.
    st = position({"m2": [0, 0, 1], "m5": [1]}, turn=0, extra_cheese=True)
    marks = st.view()["marks"]
    assert marks == [["byl", "cheese"], ["byr", "cheese"], ["m4", "cheese"], ["table", "cheese"]]
    roll(st, "m2", "green", "green", "yellow")
    st.apply_action(("move", 0, "byl"))
    st.apply_action(("move", 1, "byr"))
    assert st.view()["status"]["score"] == [2, 2]
    assert count(st, "byl", 0) == 1  # the mouse stays on the board
    assert ["byl", "cheese"] not in st.view()["marks"]
    roll(st, "m5", "red")
    st.apply_action(("move", 1, "m4"))  # Victor takes the newspapers' cheese: 3
    roll(st, "m2", "green")
    st.apply_action(("move", 0, "byl"))  # the box is bare now: nothing more to take
    assert st.scores() == [2, 5]
    st = position({"m3": [0], "m5": [1]}, turn=0, extra_cheese=True)
    roll(st, "m3", "green")
    st.apply_action(("move", 0, "m4"))
    roll(st, "m5", "green")
    st.apply_action(("move", 1, "table"))  # the table ends the game ...
    assert st.scores() == [3, 4] and st.winners() == [1]


def test_extra_cheese_points_can_beat_the_table():
    # Interpretation: with extra cheeses the most points win, whoever reached the table.
    st = position({"m3": [0], "m2": [0], "m5": [1]}, turn=0, extra_cheese=True)
    roll(st, "m3", "green")
    st.apply_action(("move", 0, "m4"))  # 3 points
    roll(st, "m5", "yellow")
    roll(st, "m2", "green")
    st.apply_action(("move", 0, "byl"))  # 5 points
    roll(st, "m5", "green")
    st.apply_action(("move", 1, "table"))  # 4 points, game over
    assert st.scores() == [5, 4] and st.winners() == [0] and st.ranking() == [0, 1]


# -- Note from the game's creator --------------------------------------------------------------


def test_lateral_spaces_are_detours():
    # "It is possible to hinder opponents by making their mice move back or by leading them
    # toward lateral spaces." A green into a lateral space brings a mouse no nearer the table.

    def greens_to_table(sid):
        frontier, steps = {sid}, 0
        while RULES["top"] not in frontier:
            frontier = {u for s in frontier for u in SPACES[s]["up"]}
            steps += 1
        return steps

    for lat in RULES["lat"]:
        below = SPACES[lat]["dn"]
        assert below and all(greens_to_table(lat) == greens_to_table(b) for b in below)
    assert greens_to_table("jug") == 6  # five stations between the start and the table
