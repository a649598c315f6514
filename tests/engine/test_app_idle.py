"""The collector runs in the idle rest of a quiet tick, at most once a second of the board's
clock, and never in a busy one (app.App.idle), on the real MicroPython VM (the unix port) with
the board's heap: a collection takes a Pico's tick or more (docs/benchmarks.md), so where it
runs is what counts. The heap is never asked how full it is: gc.mem_alloc() walks all of it
(8.4 ms on the emulated Pico), and asked in every quiet tick it spaced a waiting board's ticks
too far apart for a short press to count."""

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


class Collector:  # the gc module as the App sees it, its calls counted
    collections = asked = 0

    def collect(self):
        self.collections += 1
        gc.collect()

    def mem_alloc(self):
        self.asked += 1
        return gc.mem_alloc()

    def mem_free(self):
        self.asked += 1
        return gc.mem_free()


app.gc = counted = Collector()
a.tick()
print("first", a.idle(10) == 10, counted.collections)  # quiet, but it has only just started
board.now = 1500
a.idle(5)  # a busy tick: 5 ms of it are left
print("busy", counted.collections)
print("quiet", a.idle(9) <= 9, counted.collections)
board.now = 2400
a.idle(9)  # quiet, less than a second after the last collection
print("again", counted.collections)
board.now = 2500
a.idle(8)  # a second after it: the quietest tick that still counts as quiet
print("later", counted.collections, "asked", counted.asked)
"""


def test_the_collector_runs_in_quiet_ticks_once_a_second_and_never_asks_the_heap(tmp_path):
    (tmp_path / "profile.json").write_text(json.dumps(load_profile("pico")))
    (tmp_path / "quiet_board.py").write_text((HERE.parent / "bench" / "quiet_board.py").read_text())
    (tmp_path / "rules").symlink_to(FIRMWARE / "rules")
    out = run_mp(CODE, cwd=tmp_path, path=[tmp_path]).split("\n")
    assert "first True 0" in out
    assert "busy 0" in out
    assert "quiet True 1" in out
    assert "again 1" in out
    assert "later 2 asked 0" in out
