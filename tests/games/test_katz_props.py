"""Alles für die Katz over many random games, on CPython and on the MicroPython VM: the mice
are conserved, a caught mouse never moves, only tower tops move, every game ends. The same
seeded games give the same actions on both VMs.

The games and their checks are one program (GAMES below) that runs unchanged on both VMs.
"""

import subprocess
import sys

import pytest
from mpvm import FIRMWARE, run_mp

GAMES = """
import json
from cheesefw.games import katz, CHANCE, TERMINAL

RULES = json.load(open("rules/katz.json"))
HOLE = len(RULES["spaces"]) - 1


class Lcg:
    # A 30-bit chooser: the same picks on every VM (random differs between them).
    def __init__(self, seed):
        self.x = seed & 0x3FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 10) % n


def check_move(s, player, before, action):
    # What one move may change: one mouse, the top of its tower, forward, never a caught one.
    place, level, trapped = before
    moved = [i for i in range(len(place)) if s.place[i] != place[i]]
    assert len(moved) == 1, "not exactly one mouse moved"
    i = moved[0]
    assert i // s.m == player, "a mouse of another player moved"
    assert not trapped[i], "a caught mouse moved"
    p = place[i]
    assert p == 0 or level[i] == max(level[j] for j in range(len(place)) if place[j] == p), \\
        "a mouse under the top moved"
    assert s.place[i] > p, "a mouse went backwards or stayed"
    for j in range(len(place)):
        if trapped[j]:
            assert s.trapped[j] and s.place[j] == place[j], "a caught mouse was freed or moved"


def check_state(s):
    n = s.n * s.m
    assert len(s.place) == n and sum(s.home_count(p) for p in range(s.n)) + \\
        sum(1 for i in range(n) if s.place[i] < HOLE) == n, "mice lost or made"
    for p in range(1, HOLE):
        tower = s.tower(p)
        assert [s.level[i] for i in tower] == list(range(len(tower))), "a tower with a gap"
        caught = [i for i in tower if s.trapped[i]]
        assert len(caught) <= 1, "two mice caught in one place"
        if caught:
            assert RULES["spaces"][p][1] == "trap" and tower[0] == caught[0], \\
                "a caught mouse off a can, or above another mouse"
    if s.current_player() >= 0:
        for sid, steps in s.legal_actions():
            assert steps == s.roll or s.roll == "clover"


def game(seed, players, limit):
    rng = Lcg(seed)
    s = katz.State(RULES, {"players": players})
    while not s.is_terminal():
        assert len(s.history) < limit, "the game did not end"
        if s.current_player() == CHANCE:
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rng.below(len(outcomes))][0])
            continue
        legal = s.legal_actions()
        assert legal, "a player to move with nothing to move"
        action = legal[rng.below(len(legal))]
        before = (bytes(s.place), bytes(s.level), bytes(s.trapped))
        player = s.turn
        s.apply_action(action)
        check_move(s, player, before, action)
        check_state(s)
    assert not [p for p in range(s.n) if s.free_mice(p)], "over with a free mouse"
    assert s.winners() == [] or s.home_count(s.winners()[0]) == max(
        s.home_count(p) for p in range(s.n))
    return s


def run(first, count):
    for seed in range(first, first + count):
        s = game(seed, 2 + seed % 5, 4000)
        print(seed, s.winners(), len(s.history), bytes(s._log).hex())
"""


def run_cpython(code):
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(FIRMWARE),
                          env={"PYTHONPATH": str(FIRMWARE), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def both(first, count):
    code = GAMES + "\nrun(%d, %d)\n" % (first, count)
    on_mp = run_mp(code, timeout=600)
    on_cpython = run_cpython(code)
    return on_mp.splitlines(), on_cpython.splitlines()


def test_random_games_keep_the_rules_and_are_the_same_on_both_vms():
    on_mp, on_cpython = both(0, 40)
    assert len(on_mp) == 40
    assert on_mp == on_cpython  # the same seeded games: the same actions, the same winners


@pytest.mark.slow
def test_thousands_of_random_games_on_both_vms():
    on_mp, on_cpython = both(1000, 2000)
    assert len(on_mp) == 2000 and on_mp == on_cpython
