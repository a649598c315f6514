"""Kalle Kanalratte, rule by rule: one test per sentence of the rulebook (shared/seeds/003_...),
and one per decision docs/rules.md takes where the rulebook is silent."""

import copy
import json
from pathlib import Path

import pytest

from cheesefw.games import CHANCE, TERMINAL, kalle

RULES = json.loads((Path(__file__).resolve().parents[2] / "firmware/rules/kalle.json").read_text())


def table(**house):
    rules = copy.deepcopy(RULES)
    rules["house"].update(house)
    return rules


def dealt(players=3, rules=None, **house):
    """A new game, its animals dealt in the table's order (a1 frog, a2 toad, ...)."""
    s = kalle.State(rules or table(**house), {"players": players})
    deal(s)
    return s


def deal(s):
    while s.current_player() == CHANCE:
        s.apply_action(s.chance_outcomes()[0][0])


def hidden(rat="b2", guard="c3", **kw):
    """A round under way: the rat under `rat`, the guard placed on `guard`."""
    s = dealt(**kw)
    s.apply_action(rat)
    s.apply_action(guard)
    return s


def refused(s, action):
    before = s.to_dict()
    with pytest.raises(ValueError, match="expected"):
        s.apply_action(action)
    assert s.to_dict() == before


def face_up(s):
    return [s.grid.ids[sq] for sq in range(16) if s.up[sq]]


def walk(s, cards):
    """Searches onto `cards` in turn, the starter keeping between them."""
    for card in cards:
        s.apply_action(card)
        if s.phase == kalle.SWAP:
            s.apply_action(kalle.KEEP)


# -- Game idea, preparation --------------------------------------------------------------------

def test_each_round_a_different_player_is_the_rat_the_next_one_on_the_left():
    # "Each round a different player takes on the role of Ragged Rat Rascal."
    # "A new round starts with the player on the left of the starting player."
    s = dealt(players=3)
    starters = []
    while not s.is_terminal():
        if s.phase == kalle.HIDE:
            starters.append(s.starter)
            assert s.current_player() == s.starter
        if s.current_player() == CHANCE:
            deal(s)
        else:
            s.apply_action(s.legal_actions()[0])
    assert starters == [0, 1, 2, 0, 1, 2]


def test_the_first_rat_is_seat_0():
    # "The player with the sharpest teeth is Raggedy Rat first." The board cannot see teeth:
    # the players sit so that this player is seat 0.
    assert kalle.State(RULES, {"players": 4}).starter == 0


def test_17_cards_16_animals_face_down_on_the_grid_the_rat_in_the_starters_hand():
    # "There are 17 different gully cards ... One of these 17 cards has a picture of Raggedy
    # Rat. The starting player takes the card showing Raggedy Rat. The remaining 16 cards are
    # arranged in the center of the table into a square of 4 x 4 cards."
    s = kalle.State(RULES, {"players": 2})
    assert s.current_player() == CHANCE and not s.chance_is_roll()  # a deal, never shown
    assert [o for o, _ in s.chance_outcomes()] == list(range(1, 17))  # the 16 animals
    deal(s)
    assert s.hand == kalle.RAT and sorted(s.cards) == list(range(1, 17)) and not any(s.up)
    assert len(set(RULES["cards"]["animals"] + [RULES["cards"]["rat"]])) == 17
    assert s.grid.n == 16 and s.grid.ids[-1] == "d4"
    assert [k for _, k in s.view()["marks"]] == []  # the board is dark while the rat hides


def test_the_deal_is_shuffled_and_never_named():
    s = kalle.State(RULES, {"players": 2})
    first = s.chance_outcomes()
    assert {p for _, p in first} == {1 / 16}
    s.apply_action(5)
    assert 5 not in [o for o, _ in s.chance_outcomes()] and len(s.chance_outcomes()) == 15
    assert s.hint(6) == {"spaces": ["a2"], "text": "deal"}  # the card, never the animal


# -- How to play: the hiding ----------------------------------------------------------------

def test_the_starter_swaps_any_card_with_the_rat_in_secret():
    # "The starting player asks the other players to close their eyes. He then swaps any of
    # the 16 gully cards on the table with the Raggedy Rat gully card."
    s = dealt()
    assert s.phase == kalle.HIDE and s.current_player() == 0 and s.is_secret()
    assert s.legal_actions() == s.grid.ids  # any of the 16
    v = s.view()
    assert v["marks"] == [] and v["pieces"] == [] and v["dice"] == []  # dark but the cursor
    assert s.hint("c2") == {"spaces": ["c2"], "text": "hide"}
    animal = s.cards[s.grid.square("c2")]
    s.apply_action("c2")
    assert s.rat() == s.grid.square("c2") and s.hand == animal  # the animal goes to the hand
    assert not s.is_secret()
    assert "rat" not in json.dumps(s.view())


# -- Moving the mouse guard --------------------------------------------------------------------

def test_a_searcher_places_the_guard_the_one_on_the_starters_right():
    # "Now any one of the other players takes the guard and places it on one of the 16 gully
    # cards." Decision: the searcher on the starter's right (with two players, the only one).
    for players, placer in ((2, 1), (3, 2), (5, 4)):
        s = dealt(players=players)
        s.apply_action("a1")
        assert s.phase == kalle.PLACE and s.current_player() == placer
        assert s.legal_actions() == s.grid.ids
        s.apply_action("d4")
        assert s.guard == s.grid.square("d4") and not any(s.up)  # placing turns nothing


def test_the_first_searcher_is_on_the_starters_left():
    # "Then the player on the left of the starting player starts searching"
    s = hidden(players=4)
    assert s.phase == kalle.SEARCH and s.current_player() == 1


def test_the_guard_moves_one_card_in_any_of_the_8_directions_never_jumping():
    # "by moving the guard one card in any direction; horizontally, vertically or diagonally.
    # The guard can only be moved to an adjacent card; it may never jump over a gully card."
    s = hidden(guard="b2")
    assert s.legal_actions() == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    corner = hidden(guard="a1")
    assert corner.legal_actions() == ["a2", "b1", "b2"]
    for wrong in ("b2", "d4", "a4", "c4", ("a1", "a2"), 3, None):
        refused(s, wrong)


def test_the_searcher_turns_the_card_under_the_guard_an_animal_stays_face_up():
    # "The player who moved the guard card, then flips over the card on which the guard is
    # standing and looks at it." "Another sewer dweller? ... The gully card remains face up
    # and the mouse guard is once again placed on top."
    s = hidden(rat="a1", guard="c3")
    s.apply_action("d4")
    assert face_up(s) == ["d4"] and s.guard == s.grid.square("d4")
    v = s.view()
    assert ["d4", "newt"] in v["marks"] and v["pieces"] == [["d4", "guard"]]
    assert v["reveal"] == ["d4", "newt"] and v["blink"] == ["d4"]  # the guard blinks
    assert s.uncovered == 1 and v["status"]["meter"] == [1, 8]


def test_the_rat_found_the_finder_takes_a_cheese_and_the_round_ends():
    # "Ragged Rat Rascal? Gotcha! ... the finder takes a piece of cheese and the round is
    # finished."
    s = hidden(rat="b2", guard="c3", players=3)
    s.apply_action("b2")
    assert s.cheese == [0, 1, 0] and s.phase == kalle.SHOW and s.result == "found"
    assert s.view()["reveal"] == ["b2", "rat"]
    s.apply_action(kalle.NEXT)
    assert s.round == 1 and s.starter == 1 and s.current_player() == CHANCE


def test_after_a_search_it_is_the_starters_turn_to_swap():
    # "Now it's the turn of the starting player again."
    s = hidden(players=3)
    s.apply_action("c4")
    assert s.phase == kalle.SWAP and s.current_player() == 0


def test_the_starter_swaps_two_adjacent_cards_never_the_guards():
    # "The starting player can swap any two gully cards which are horizontally, vertically or
    # diagonally adjacent, except for the card with the guard."
    s = hidden(rat="a1", guard="c3")
    s.apply_action("b2")  # the guard is on b2: of the 42 adjacent pairs, 8 take b2
    swaps = [a for a in s.legal_actions() if a != kalle.KEEP]
    assert len(swaps) == 42 - 8 and ("a1", "b1") in swaps and ("a1", "c1") not in swaps
    assert not [a for a in swaps if "b2" in a]
    for wrong in (("a1", "c1"), ("b2", "b3"), ("a2", "a1"), ("a1",), "a1"):
        refused(s, wrong)
    s.apply_action(("a1", "a2"))
    assert s.rat() == s.grid.square("a2")


def test_the_starter_may_keep_instead_of_swapping():
    # "The starting player can swap" and "Raggedy Rat does not necessarily have to be
    # swapped": a swap is allowed, not required (KEEP); the house rule must_swap requires one.
    s = hidden(rat="a1")
    s.apply_action("b2")
    assert s.legal_actions()[0] == kalle.KEEP
    assert s.hint(kalle.KEEP) == {"spaces": [], "text": "no swap", "mark": "keep"}
    s.apply_action(kalle.KEEP)
    assert s.phase == kalle.SEARCH
    strict = hidden(rat="a1", must_swap=True)
    strict.apply_action("b2")
    assert kalle.KEEP not in strict.legal_actions()
    refused(strict, kalle.KEEP)


def test_other_cards_may_be_swapped_to_confuse():
    # "It might even be helpful to swap other cards in order to confuse the other players."
    s = hidden(rat="a1", guard="c3")
    s.apply_action("d4")
    s.apply_action(("b1", "b2"))
    assert s.rat() == s.grid.square("a1")


def test_a_swap_may_save_the_rat_from_the_guard_or_put_it_next_to_it():
    # "Swapping cards is a good opportunity to escape from the guard". Decision: any legal
    # swap may move the rat, also onto a card next to the guard (the offer never depends on
    # where the rat is).
    s = hidden(rat="b1", guard="c3")
    s.apply_action("c2")  # the guard is now next to the rat
    s.apply_action(("a1", "b1"))  # the rat escapes to a1
    assert s.rat() == s.grid.square("a1")
    t = hidden(rat="a1", guard="c3")
    t.apply_action("d4")
    t.apply_action(("a1", "b2"))  # the rat goes next to the guard
    assert t.rat() == t.grid.square("b2")


def test_a_face_up_card_swapped_with_a_face_down_one_each_keeps_its_side():
    # "You can also swap a gully card that is face up with one that is face down."
    s = hidden(rat="a1", guard="b3")
    s.apply_action("c4")
    s.apply_action(kalle.KEEP)
    s.apply_action("d4")  # c4 and d4 face up; the guard on d4
    s.apply_action(("c3", "c4"))
    assert face_up(s) == ["c3", "d4"] and ["c3", "shrimp"] in s.view()["marks"]


def test_the_swaps_show_as_the_cards_they_move_never_what_they_hide():
    # "When swapping, the starting player has to take care that the other players don't see
    # what is shown on the gully cards."
    s = hidden(rat="a1", guard="c3")
    s.apply_action("d4")
    assert s.hint(("a1", "a2")) == {"spaces": ["a1", "a2"], "text": "swap"}
    before = [k for _, k in s.view()["marks"]]
    s.apply_action(("a1", "a2"))
    assert [k for _, k in s.view()["marks"]] == before  # two lids are still two lids


def test_the_next_searcher_follows_the_one_who_just_moved():
    # "Then it's the turn of the next player, following on from the one who just moved the
    # guard and changed its position." The starter never searches.
    s = hidden(rat="a1", guard="c3", players=4)
    movers = []
    for card in ("d4", "c4", "d3", "c3", "b4"):
        movers.append(s.current_player())
        s.apply_action(card)
        s.apply_action(kalle.KEEP)
    assert movers == [1, 2, 3, 1, 2]


# -- End of a round -----------------------------------------------------------------------------

def test_the_eighth_card_turned_without_the_rat_the_starter_turns_one():
    # "the eighth gully card has been uncovered without Raggedy Rat appearing. Now the
    # starting player ... turning over the card where he thinks that Raggedy Rat is hiding."
    s = hidden(rat="a1", guard="d1")
    walk(s, ["d2", "d3", "d4", "c4", "c3", "c2", "c1"])
    assert s.uncovered == 7 and s.phase == kalle.SEARCH
    s.apply_action("b1")  # the eighth
    assert s.phase == kalle.GUESS and s.current_player() == 0 and s.uncovered == 8
    assert s.legal_actions() == ["a1", "a2", "a3", "a4", "b2", "b3", "b4", "d1"]


def test_the_starter_who_remembers_takes_the_cheese():
    # "If it is the right card the starting player may take a piece of cheese."
    s = _at_the_guess()
    s.apply_action("a1")
    assert s.cheese == [1, 0, 0] and s.result == "kept" and s.view()["reveal"] == ["a1", "rat"]


def test_a_wrong_guess_gives_no_cheese():
    # "If the guess was wrong, there is no reward."
    s = _at_the_guess()
    s.apply_action("a2")
    assert s.cheese == [0, 0, 0] and s.result == "lost" and s.phase == kalle.SHOW
    # Decision: the round's end shows where the rat was, as turning the cards over would.
    assert ["a1", "rat"] in s.view()["marks"]


def _at_the_guess(**house):
    s = hidden(rat="a1", guard="d1", **house)
    walk(s, ["d2", "d3", "d4", "c4", "c3", "c2", "c1", "b1"])
    return s


def test_the_guard_on_a_face_up_card_turns_nothing_and_does_not_count():
    # Decision: the guard may step onto a card already face up (it is adjacent); nothing is
    # turned, the count of uncovered cards stays, and the starter swaps as after any search.
    s = hidden(rat="a1", guard="c3")
    s.apply_action("d4")
    s.apply_action(kalle.KEEP)
    s.apply_action("c3")
    s.apply_action(kalle.KEEP)
    s.apply_action("d4")
    assert s.uncovered == 2 and face_up(s) == ["c3", "d4"] and s.phase == kalle.SWAP
    assert "reveal" not in s.view()


def test_a_round_that_drags_on_ends_at_the_search_limit():
    # Decision (table: search_limit): guards walking on face-up cards could go on forever;
    # after search_limit moves the round ends as after the eighth card.
    rules = table()
    rules["search_limit"] = 10
    s = hidden(rat="a1", guard="c3", rules=rules)
    s.apply_action("d4")
    for _ in range(4):
        s.apply_action(kalle.KEEP)
        s.apply_action("c3")
        s.apply_action(kalle.KEEP)
        s.apply_action("d4")
    assert s.searches == 9 and s.phase == kalle.SWAP
    s.apply_action(kalle.KEEP)
    s.apply_action("c3")
    assert s.phase == kalle.GUESS and s.uncovered == 2


# -- End of the game ----------------------------------------------------------------------------

@pytest.mark.parametrize("players,rounds", [(2, 4), (3, 6), (4, 4), (5, 5)])
def test_the_game_ends_when_each_has_been_the_starter_twice_or_once(players, rounds):
    # "In the case of two or three players, the game ends as soon as each one has been the
    # starting player twice; in the case of four or five players, ... once."
    s = dealt(players=players)
    played = 0
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            deal(s)
        else:
            if s.phase == kalle.SHOW:
                played += 1
            s.apply_action(s.legal_actions()[0])
    assert played == rounds == s.rounds and s.current_player() == TERMINAL


def test_most_cheese_wins_and_a_draw_has_several_winners():
    # "The player who has the most, wins the game. In the event of a draw there are several
    # winners." Decision: nobody's cheese at all is a draw of everyone.
    s = dealt(players=3)
    assert s.winners() == []
    s.phase = kalle.OVER
    s.cheese = [2, 1, 2]
    assert s.winners() == [0, 2]
    s.cheese = [0, 0, 0]
    assert s.winners() == [0, 1, 2]


# -- Variation: the last chance ---------------------------------------------------------------

def test_last_chance_the_searchers_name_different_cards_in_turn_from_the_starters_left():
    # "Starting with the player on the left of the starting player the players indicate one
    # by one the gully card where they guess Raggedy Rat is hiding." "A gully card can be
    # chosen only once"
    s = _at_the_guess(last_chance=True)
    assert s.phase == kalle.LAST and s.current_player() == 1
    s.apply_action("a3")
    assert s.current_player() == 2 and "a3" not in s.legal_actions()
    refused(s, "a3")


def test_last_chance_the_rat_found_among_the_named_cards_gives_that_searcher_the_cheese():
    # "Once each player has made their guess, then each of these cards is flipped over. If
    # Raggedy Rat is found, the player who selected that gully cards wins a piece of cheese."
    s = _at_the_guess(last_chance=True)
    s.apply_action("a3")
    assert not s.up[s.grid.square("a3")]  # flipped only once everyone has named a card
    s.apply_action("a1")
    assert s.cheese == [0, 0, 1] and s.result == "found" and face_up(s)[:2] == ["a1", "a3"]


def test_last_chance_nobody_right_the_starter_turns_a_card():
    # "If no player was correct, the starting player may turn over a card. If the starter is
    # correct, the piece of cheese is their reward."
    s = _at_the_guess(last_chance=True)
    s.apply_action("a3")
    s.apply_action("a2")
    assert s.phase == kalle.GUESS and s.current_player() == 0
    assert "a2" not in s.legal_actions() and "a3" not in s.legal_actions()
    s.apply_action("a1")
    assert s.cheese == [1, 0, 0]


# -- Options ---------------------------------------------------------------------------------

def test_options_are_the_players_only_the_board_s_seats_are_the_menu_s():
    assert [k for k, _ in kalle.OPTIONS] == ["players"]
    assert not hasattr(kalle, "bot_players")  # the menu's seat step asks every seat
    assert kalle.State(RULES, {"players": 3}).num_players() == 3
    with pytest.raises(ValueError, match="board_seats"):  # the old option is gone
        kalle.State(RULES, {"players": 2, "board_seats": 1})
    with pytest.raises(ValueError, match="players"):
        kalle.State(RULES, {"players": 6})


def test_the_rules_document_names_every_rule_test_and_only_tests_that_exist():
    import re

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs/rules.md").read_text()
    section = doc[doc.index("## Kalle Kanalratte"):]
    files = {"R": "test_kalle_rules.py", "B": "test_kalle_board.py",
             "V": "test_kalle_vboard.py", "P": "test_kalle_props.py"}
    named = set(re.findall(r"`([RBVP])::(test_\w+)`", section))
    for short, name in named:
        source = next((root / "tests").rglob(files[short])).read_text()
        assert "def %s(" % name in source or "%s = " % name in source, name
    here = set(re.findall(r"^def (test_\w+)\(", Path(__file__).read_text(), re.M))
    here.discard("test_the_rules_document_names_every_rule_test_and_only_tests_that_exist")
    assert here <= {name for short, name in named if short == "R"}
