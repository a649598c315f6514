"""A board player's thinking is cut into bounded steps: the engine steps it for a slice of each
tick (play.THINK_MS), so a step that holds a long piece of work makes a slow board's tick late.

The work of a step is counted, not timed: the Python lines it runs (sys.settrace, on CPython), the
same on any machine however busy. Every game's board player, at both levels, thinks at each
decision of a seeded game; its longest step must stay within the game's bound, and for the games
whose decisions are long, the longest decision must be several bounds' work: thought in one go,
it would fail. (The ticks' lengths on the emulated Pico are bench_ticks.py's.)
"""

import copy
import json
import sys
from pathlib import Path

import pytest

from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, TERMINAL, load

ROOT = Path(__file__).resolve().parents[2]
DECISIONS = 60  # decisions of each game thought through, at each level

# game: (options, the most lines a step may run, whether its decisions are long). A step judges
# one square, mouse, face of the die, move, placement or power's use, or lists a part of a
# Gatenkaas hand's placements or a kitchen piece's paths (a way of their first two steps: the
# paths of a 6 in one step ran 1,734 lines), or a Gouda roll's colour counts one at a time (a
# power's weighing, a reroll's 21 counts and a window's actions with the model in one step,
# ran 2,000 lines: 8 ms of a Pico).
GAMES = {
    "gouda": ({"players": 6, "powers": True}, 800, True),
    "kitchen": ({}, 800, True),
    "kalle": ({"players": 5}, 1000, False),
    "katz": ({"players": 6}, 1000, True),
    "gatenkaas": ({"players": 4}, 800, True),
}


def table(game):
    return json.loads((ROOT / "firmware" / "rules" / (game + ".json")).read_text())


def step_lines(thinking):
    """The lines each step of a thinking generator runs, its last step (the return) included."""
    count = [0]

    def tracer(frame, event, arg):
        if event == "line":
            count[0] += 1
        return tracer

    steps = []
    while True:
        count[0] = 0
        sys.settrace(tracer)
        try:
            next(thinking)
        except StopIteration:
            return steps + [count[0]]
        finally:
            sys.settrace(None)
        steps.append(count[0])


def decisions(game, options):
    """The states of a seeded game at its first DECISIONS decisions, each before its legal
    actions are listed (as the board's player meets it: a game may keep them once listed)."""
    state = load(game).State(table(game), options)
    rng = Rng(7)
    seen = 0
    while state.current_player() != TERMINAL and seen < DECISIONS:
        if state.current_player() == CHANCE:
            state.apply_action(rng.choose(state.chance_outcomes()))
            continue
        seen += 1
        yield state, rng
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_step_of_a_board_players_thinking_is_bounded(game):
    options, bound, long_decisions = GAMES[game]
    bot = __import__("cheesefw.games.%s_bot" % game, None, None, ["think"])
    longest_step = longest_decision = 0
    for state, rng in decisions(game, options):
        for level in ("strong", "beginner"):
            steps = step_lines(bot.think(state, copy.deepcopy(rng), level))
            longest_step = max(longest_step, max(steps))
            longest_decision = max(longest_decision, sum(steps))
    assert longest_step <= bound, "%s: a step ran %d lines" % (game, longest_step)
    if long_decisions:  # the bound means something: in one go, the decision would break it
        assert longest_decision > 3 * bound
