"""The board's Gatenkaas player: only legal moves, and more points than a random player."""

import json
from pathlib import Path

import pytest

from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, gatenkaas

RULES = json.loads((Path(__file__).resolve().parents[2] / "firmware/rules/gatenkaas.json")
                   .read_text())


def play(seed, players, level):
    """Seat 0 plays the board's `level`; the others play at random. Seat 0's points - the
    others' average."""
    s = gatenkaas.State(RULES, {"players": players})
    rng = Rng(seed)
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply_action(rng.choose(s.chance_outcomes()))
            continue
        legal = s.legal_actions()
        if s.player == 0 and level:
            a = gatenkaas.bot_move(s, rng, level)
            assert a in legal
        else:
            a = legal[rng.below(len(legal))]
        s.apply_action(a)
    points = s.points()
    return points[0] - sum(points[1:]) / (players - 1)


def test_the_strong_player_scores_better_than_a_random_one():
    seeds = range(1, 41)
    strong = sum(play(seed, 3, "strong") for seed in seeds)
    beginner = sum(play(seed, 3, "beginner") for seed in seeds)
    random = sum(play(seed, 3, None) for seed in seeds)
    assert strong > random + 40  # a point a game ahead at least, over 40 seeded games
    assert beginner > random


def test_the_board_s_seats_are_the_menu_s_not_an_option():
    assert not hasattr(gatenkaas, "bot_players")  # the menu's seat step asks, seat by seat
    assert "board" not in dict(gatenkaas.OPTIONS)
    with pytest.raises(ValueError):
        gatenkaas.State(RULES, {"players": 3, "board": 2})
