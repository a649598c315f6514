"""A move that turns something over (the kitchen's tiles, Kalle's cards) is shown turning on the
LEDs: the engine asks the game's revealed() after a move its reveals() says turned something
over, and never builds the game's view in a move's tick (a view is a slow board's largest piece
of work; the redraw's tick builds it). Every seat the board's, thinking at once."""

import json
from pathlib import Path

import pytest
from takeback_games import Flash

from cheeseboard.paths import load_profile
from cheesefw.engine.draw import Painter
from cheesefw.engine.journal import Journal
from cheesefw.engine.play import Play
from cheesefw.games import load

ROOT = Path(__file__).resolve().parents[2]


def board_plays(name, options, seats, profile, flash):
    """A Play of game name with the board on every seat, its journal in flash."""
    rules = json.loads((ROOT / "firmware" / "rules" / (name + ".json")).read_text())
    module = load(name)
    for key, choices in module.OPTIONS:
        options.setdefault(key, choices[0])
    journal = Journal(flash)
    journal.start({"game": name})
    painter = Painter(load_profile(profile), name, rules.get("palette", {}), rules.get("signs"))
    return Play(module, rules, options, 7, journal, painter,
                seats=[[s, "beginner"] for s in range(seats)])


@pytest.mark.parametrize("name,options,seats,profile", [
    ("kitchen", {}, 2, "pico"), ("kalle", {"players": 4}, 4, "pico"),
    # every card laid comes out of a hidden hand (reveals()), and nothing flips: the redraw
    # shows it laid
    ("gatenkaas", {"players": 2, "hands": "hidden"}, 2, "pico16")])
def test_a_move_that_turns_something_over_shows_it_and_no_move_builds_the_view(
        name, options, seats, profile):
    play = board_plays(name, options, seats, profile, Flash())
    views = [0]
    view = play.state.view

    def counted():
        views[0] += 1
        return view()

    play.state.view = counted
    now, turned, plain, barriers = 0, 0, 0, 0
    while play.wait != "over" and now < 2_000_000:
        now += 100
        moves, views[0], play.reveal = len(play.state.history), 0, None
        play.update(now)
        if len(play.state.history) == moves:
            continue
        assert views[0] == 0, "a move's tick built the view"
        barriers += bool(play.state.reveals())
        if play.reveal:  # what the view says was turned, shown
            turned += 1
            assert play.reveal == view()["reveal"]
        else:
            plain += 1
    assert plain and barriers  # (the seed's game turns something over, and moves without)
    if name == "gatenkaas":
        assert not turned
    else:
        assert turned


class CountedFlash(Flash):
    def __init__(self):
        super().__init__()
        self.appends = 0

    def append_file(self, name, text):
        self.appends += 1
        super().append_file(name, text)


@pytest.mark.parametrize("name,options,seats,profile", [
    ("gatenkaas", {"players": 2}, 2, "pico16"),  # a card laid, then one drawn
    ("gouda", {"players": 3}, 3, "pico")])  # a roll of several dice
def test_a_tick_s_moves_and_the_deal_after_them_are_one_journal_write(name, options, seats,
                                                                     profile):
    flash = CountedFlash()
    play = board_plays(name, options, seats, profile, flash)
    now, several = 0, 0
    while play.wait != "over" and now < 300_000:
        now += 100
        moves, flash.appends = len(play.state.history), 0
        play.update(now)
        made = len(play.state.history) - moves
        assert flash.appends == (1 if made else 0), (now, made)
        several += made > 1
    assert several  # (moves with a card drawn, or rolls with the moves after them, were made)
    assert len(flash.files["journal.txt"]) == len(play.state.history) + 1  # a line each
