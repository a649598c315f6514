"""The board's players on the real MicroPython VM (tests/support/mpvm.py), as a board runs them.

The same seeded games, every seat played by the board (at both levels) or by a random
player drawn from the engine's Rng, give the identical sequence of actions on MicroPython
and on CPython, and every choice is checked against the legal actions on both VMs. Generic
over the games that have board players, so that each new game joins by having `bot_move`.
"""

import json
import os
import subprocess
import sys

import pytest
from mpvm import FIRMWARE, run_mp

# Runs unchanged on both VMs: seeded games with the board's players; a line per game.
GAMES = """
import json
from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, PASS, REACTION, load
game = load(%(game)r)
rules = json.load(open("rules/%(game)s.json"))
for seed in %(seeds)r:
    kinds = %(kinds)r
    st = game.State(rules, %(options)r)
    n = st.num_players()
    kinds = [kinds[(seed + i) %% len(kinds)] for i in range(n)]
    rng = Rng(seed)
    moves = 0
    while not st.is_terminal():
        p = st.current_player()
        if p == CHANCE:
            st.apply_action(rng.choose(st.chance_outcomes()))
            continue
        legal = st.legal_actions()
        if p == REACTION:
            bots = [q for q in range(n) if kinds[q] != "random"]
            a = game.bot_move(st, rng, "strong", bots) if bots else PASS
        elif kinds[p] == "random":
            a = legal[rng.below(len(legal))]
        else:
            a = game.bot_move(st, rng, kinds[p])
            moves += 1
        if a not in legal:
            raise SystemExit("illegal: %%r not in %%r" %% (a, legal))
        st.apply_action(a)
    print(json.dumps([seed, kinds, st.winners(), moves, len(st.history), st.history[-40:]]))
"""


def bot_games():
    """The games whose modules have board players."""
    sys.path.insert(0, str(FIRMWARE))
    from cheesefw.games import GAMES as NAMES
    from cheesefw.games import load

    return [g for g in NAMES if hasattr(load(g), "bot_move")]


def options_of(game):
    return {"gouda": {"players": 3, "powers": True}}.get(game, {})


def run_cpython(code, timeout):
    env = dict(os.environ, PYTHONPATH=str(FIRMWARE))
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(FIRMWARE), env=env,
                          capture_output=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


def games_on_both(game, seeds, kinds, options, timeout=600):
    code = GAMES % {"game": game, "seeds": list(seeds), "kinds": kinds, "options": options}
    mp = [json.loads(x) for x in run_mp(code, timeout=timeout).splitlines()]
    cp = [json.loads(x) for x in run_cpython(code, timeout).splitlines()]
    return mp, cp


@pytest.mark.board
@pytest.mark.parametrize("game", bot_games())
def test_the_board_s_players_play_the_same_legal_games_on_both_vms(game):
    mp, cp = games_on_both(game, range(6), ["strong", "beginner", "random"], options_of(game))
    assert mp == cp
    assert len(mp) == 6 and all(g[2] for g in mp)  # every game ended with a winner
    assert sum(g[3] for g in mp) > 60  # the board made many decisions


@pytest.mark.board
@pytest.mark.slow
@pytest.mark.parametrize("game", bot_games())
def test_hundreds_of_board_games_stay_legal_on_micropython(game):
    mp, cp = games_on_both(game, range(1000), ["strong", "beginner", "random"],
                           options_of(game), timeout=3600)
    assert mp == cp and len(mp) == 1000
