"""The collector runs in the idle rest of a quiet tick, once the heap has grown enough, and never
in a busy one (app.App.idle), on the real MicroPython VM (the unix port) with the board's heap:
a collection takes a Pico's tick or more (docs/benchmarks.md), so where it runs is what counts."""

import json
from pathlib import Path

from mpvm import FIRMWARE, run_mp

from cheeseboard.paths import load_profile

HERE = Path(__file__).resolve().parent

CODE = """
import gc
from quiet_board import QuietBoard
from cheesefw import app, profile_file
from cheesefw.engine import core
profile = profile_file.load_profile(name="profile.json")
profile_file.pack_maps(profile)
board = QuietBoard(profile)
a = app.App(board, core.Engine(board))
a.tick()
print("first", a.idle(10) <= 10, a._collect_at > gc.mem_alloc())
def litter(n):
    for i in range(n):
        [i, i, i]
litter(20000)  # garbage, well past a quarter of the free heap
grown = gc.mem_alloc()
a.idle(5)  # a busy tick: 5 ms of it are left
print("busy", gc.mem_alloc() >= grown)
a.idle(9)  # a quiet one
print("quiet", gc.mem_alloc() < grown)
grown = gc.mem_alloc()
a.idle(9)  # quiet, but the heap has not grown since
print("again", gc.mem_alloc() >= grown)
"""


def test_the_collector_runs_in_quiet_ticks_once_the_heap_has_grown(tmp_path):
    (tmp_path / "profile.json").write_text(json.dumps(load_profile("pico")))
    (tmp_path / "quiet_board.py").write_text((HERE.parent / "bench" / "quiet_board.py").read_text())
    (tmp_path / "rules").symlink_to(FIRMWARE / "rules")
    out = run_mp(CODE, cwd=tmp_path, path=[tmp_path]).split("\n")
    assert "first True True" in out
    assert "busy True" in out
    assert "quiet True" in out
    assert "again True" in out
