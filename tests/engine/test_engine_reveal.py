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


@pytest.mark.parametrize("name,options,seats,profile", [
    ("kitchen", {}, 2, "pico"), ("kalle", {"players": 4}, 4, "pico"),
    # every card laid comes out of a hidden hand (reveals()), and nothing flips: the redraw
    # shows it laid
    ("gatenkaas", {"players": 2, "hands": "hidden"}, 2, "pico16")])
def test_a_move_that_turns_something_over_shows_it_and_no_move_builds_the_view(
        name, options, seats, profile):
    rules = json.loads((ROOT / "firmware" / "rules" / (name + ".json")).read_text())
    module = load(name)
    for key, choices in module.OPTIONS:
        options.setdefault(key, choices[0])
    journal = Journal(Flash())
    journal.start({"game": name})
    painter = Painter(load_profile(profile), name, rules.get("palette", {}), rules.get("signs"))
    play = Play(module, rules, options, 7, journal, painter, seats=[[s, "beginner"]
                                                                    for s in range(seats)])
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
