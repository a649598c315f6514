"""Gatenkaas over many random games, on CPython and on the MicroPython VM: at every step the
rulebook's invariants, checked against an independent model of the table (gatenkaas_model.py):
cards conserved, never a card on a cat card, every mouse card blocking 1 or 2 mice, cheese for
the mice seen through holes, scores equal to a recount of the final table, every game ending."""

import json
from pathlib import Path

import pytest
from gatenkaas_model import play_checked
from mpvm import run_mp

from cheesefw.games import gatenkaas

ROOT = Path(__file__).resolve().parents[2]
RULES = json.loads((ROOT / "firmware/rules/gatenkaas.json").read_text())
MODEL = (ROOT / "tests/games/gatenkaas_model.py").read_text()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_rules(players):
    for seed in range(25):
        play_checked(gatenkaas, RULES, seed * 7919 + players, players)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousands_of_random_games_keep_the_rules(players):
    for seed in range(1000):
        play_checked(gatenkaas, RULES, seed * 104729 + players, players)


def test_a_power_cut_state_round_trips_at_every_step():
    s = gatenkaas.State(RULES, {"players": 3})
    x = 5
    while not s.is_terminal():
        again = gatenkaas.State.from_dict(RULES, json.loads(json.dumps(s.to_dict())))
        assert again == s and again.legal_actions() == s.legal_actions()
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        choices = [o for o, _ in s.chance_outcomes()] or s.legal_actions()
        s.apply_action(choices[(x >> 10) % len(choices)])


MP_GAMES = MODEL + """
import json
from cheesefw.games import gatenkaas
with open("rules/gatenkaas.json") as f:
    rules = json.load(f)

def run(games):
    for seed in range(games):
        players = 2 + seed % 3
        print(players, play_checked(gatenkaas, rules, seed * 7919 + players, players))
"""


def _games_on_mp(games):
    # The model's dicts are the test's heap, not the board's: a roomier VM than the Pico's.
    return run_mp(MP_GAMES + "run(%d)\n" % games, heap=2 << 20, timeout=900).split("\n")[:-1]


def test_the_same_seeded_games_on_micropython_and_cpython():
    lines = _games_on_mp(6)  # the invariants are checked on the VM too
    assert len(lines) == 6
    for seed, line in enumerate(lines):
        players = 2 + seed % 3
        cpython = play_checked(gatenkaas, RULES, seed * 7919 + players, players)
        assert line == "%d %r" % (players, cpython)


@pytest.mark.slow
def test_thousands_of_random_games_on_micropython():
    assert len(_games_on_mp(1500)) == 1500
