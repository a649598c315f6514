"""The words a player reads (cheesefw.words, the terminal view's and the web page's): the menu
as players name things, every offer a sentence, whose turn by the side's name. Played on the
engine on CPython with its buttons."""

import pytest
from engine_driver import CpuTable, MemoryBoard, load_profile

from cheesefw import words


def table(game, profile="pico"):
    t = CpuTable(MemoryBoard(profile=load_profile(profile)))
    while t.state()["value"] != game:
        t.press("next")
    return t


def said(t):
    return "\n".join(words.lines(t.state()))


def through_menu(t, seen=None):
    """ok on every step (the first value of each option, every seat a person's)."""
    t.press("ok")
    while t.state()["mode"] == "menu":
        if seen is not None:
            seen.append(said(t))
        t.press("ok")


def to_decide(t):
    """Roll and wait until a person has a choice."""
    for _ in range(50):
        s = t.state()
        if s["wait"] == "decide":
            return s
        if s["wait"] == "roll":
            t.press("roll")
        t.wait(500)
    raise AssertionError("no choice came: %s" % s)


def test_the_menu_names_seats_options_and_values_as_players_do():
    t = table("kitchen")
    steps = []
    t.press("ok")
    while t.state()["mode"] == "menu":
        steps.append(said(t))
        t.press("ok")
    assert steps[0] == "menu: short game = no   (the choices: no, yes)"
    assert steps[1].startswith("menu: seat 1 (the mice) = a person   (the choices: a person, "
                               "the board, the board (beginner))")
    assert steps[2].startswith("menu: seat 2 (the cat) = a person")
    gouda = []
    through_menu(table("gouda"), gouda)
    assert "menu: extra cheese = no   (the choices: no, yes)" in gouda
    assert "menu: seat 1 = a person   (the choices: a person, the board, the board (beginner))" \
        in gouda
    assert not any("seat0" in s or "False" in s or "_" in s for s in gouda + steps)
    # The numbers offered in order, whichever the game offers first (Gatenkaas's is 3)
    gatenkaas = table("gatenkaas", "pico16")
    gatenkaas.press("ok")
    assert said(gatenkaas) == "menu: players = 3   (the choices: 2, 3, 4)"


def test_the_kitchen_says_which_mouse_then_where_and_names_the_sides():
    t = table("kitchen")
    through_menu(t)
    s = to_decide(t)
    assert said(t) == "kitchen, move %d: the cat to choose: put the cat on %s (one of %d)" % (
        s["moves"], s["offer"], s["choices"])
    t.press("ok")
    s = to_decide(t)
    picked = s["offer"]
    assert said(t).endswith("the mice to choose: move your mouse from %s (one of %d)"
                            % (picked, s["choices"]))
    t.press("ok")
    s = to_decide(t)
    assert said(t).endswith("the mice to choose: to %s (one of %d)" % (s["offer"],
                                                                      s["choices"]))


@pytest.mark.parametrize("game, first", [
    ("gouda", r"player 1 to choose: put your mice on (jug|crl|crr) \(one of 3\)"),
    ("kalle", r"player 1 to choose: hide the rat under [a-d][1-4] \(one of 16\)"),
    ("katz", r"player 1 to choose: move your mouse from pantry, \d spaces?, to f0\d"),
])
def test_every_first_offer_is_a_sentence(game, first):
    import re

    t = table(game)
    through_menu(t)
    to_decide(t)
    assert re.search(first, said(t)), said(t)


def test_gouda_says_which_space_to_roll_for_then_the_roll_then_a_look_and_how_to_leave_it():
    t = table("gouda")
    through_menu(t)
    t.press("ok")
    t.press("ok")  # both players' mice on the same start space
    s = t.state()
    assert said(t).endswith("player 1 to choose: roll for the mice on %s (one of 1)"
                            % s["offer"][1])
    t.press("roll")  # roll at a decision: a look at the pieces, not the dice
    assert t.state()["wait"] == "look"
    assert "looking at the pieces on %s" % s["offer"][1] in said(t)
    assert "Space, Enter or Backspace goes back to player 1's move" in said(t)
    t.press("ok")
    t.press("ok")
    assert said(t).endswith("player 1 to roll (Space)")


def test_kalle_s_starter_is_offered_a_swap_or_to_keep():
    t = table("kalle")
    through_menu(t)
    for _ in range(3):  # hide the rat, place the guard, turn a card
        to_decide(t)
        t.press("ok")
    s = to_decide(t)
    if s["offer"] != "keep":  # the rat turned up at once: the next round's
        pytest.skip("this seed's first card was the rat")
    assert said(t).endswith("to choose: keep the cards as they lie (one of %d)" % s["choices"])
    t.press("next")
    assert "to choose: swap the cards at " in said(t)


def test_a_state_given_as_json_gives_the_same_lines():
    import json

    t = table("kitchen")
    through_menu(t)
    to_decide(t)
    assert words.text(json.dumps(t.state())) == said(t)


def test_a_refused_takeback_says_why_and_leaves_the_offer_as_it_was():
    t = table("gouda")
    through_menu(t)
    t.press("ok")
    t.press("ok")  # both players' mice on one start space
    t.press("ok")  # the first player rolls for them
    t.press("roll")
    s = to_decide(t)  # whose mouse moves up: the dice were rolled since the last move
    assert s["offer"][0] == "move" and s["choices"] > 1, s
    before = said(t)
    refused = s["refused"]
    t.press("prev")  # held: the press walks back one choice, then the long press comes
    t.board.now += 800
    t.engine.on_button("prev", "long", t.board.now)
    after = t.state()
    assert after["refused"] == refused + 1
    assert after["offer"] == s["offer"] and after["moves"] == s["moves"]
    assert said(t) == before.split("\n")[0] + (
        "\n  not taken back: a roll or a card shown since the last move, or no move yet")
    t.release("prev")
    t.press("next")  # the next press: the reason is said no more
    assert "not taken back" not in said(t)


def test_the_colour_vision_palette_switched_in_the_menu_is_said():
    t = table("gouda")
    assert "colour-vision" not in said(t)
    t.press("roll")
    assert said(t).endswith("\n  the colour-vision palette is on (Space turns it off)")
    t.press("roll")
    assert "colour-vision" not in said(t)


def test_a_game_abandoned_leaves_the_menu_on_that_game():
    t = table("katz")
    through_menu(t)
    assert t.state()["mode"] == "play"
    t.engine.on_button("back", "long", t.board.now)  # abandoned
    assert said(t).startswith("menu: game = katz ")


def test_numbers_stay_numbers_and_yes_no_is_for_true_and_false():
    assert [words.value(v) for v in (0, 1, True, False, "extra_cheese")] == [
        "0", "1", "yes", "no", "extra cheese"]
    assert words.flat(["move", 0, "m1"]) == "move 0 m1"
