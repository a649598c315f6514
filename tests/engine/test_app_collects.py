"""The heap is collected in a tick of its own, before it runs out (app.App.tick,
cheesefw/collector.py), on the real MicroPython VM (the unix port) with the board's heap: a
collection of a game's heap is most of a Pico's tick (docs/benchmarks.md), so it must never land
in a tick that also draws or thinks. How near the heap is to running out is read from where a
new object lands, never by asking the heap in a tick: gc.mem_free() walks all of it (8.4 ms on
the emulated Pico)."""

import json
from pathlib import Path

from mpvm import FIRMWARE, run_mp

from cheeseboard.paths import load_profile

HERE = Path(__file__).resolve().parent
TICKS = 1500

# The board plays both seats of a kitchen game for TICKS ticks of 10 ms. The harness notes, in
# arrays made before the game, each tick the App collected in and each tick the scene was
# updated in; and each tick where the heap had more free after than before though the App did
# not collect: the VM's own collection, forced by a full heap.
CODE = """
import gc
from array import array
from quiet_board import QuietBoard
from cheesefw import app, profile_file
from cheesefw.engine import core
TICKS = %(ticks)d
profile = profile_file.load_profile(name="profile.json")
profile_file.pack_maps(profile)
board = QuietBoard(profile)
engine = core.Engine(board)
engine.start_game("kitchen", {}, seats=[[0, "strong"], [1, "strong"]])
a = app.App(board, engine)
collected = bytearray(TICKS)
updated = bytearray(TICKS)
at = array("i", [0])


class Spy:  # the gc module as the App's collector sees it, its calls noted
    asked = 0

    def collect(self):
        collected[at[0]] = 1
        gc.collect()

    def mem_free(self):
        self.asked += 1
        return gc.mem_free()

    def mem_alloc(self):
        self.asked += 1
        return gc.mem_alloc()


import cheesefw.collector
cheesefw.collector.gc = counted = Spy()
update = engine.update


def noted_update(now):
    updated[at[0]] = 1
    return update(now)


engine.update = noted_update
forced = 0
for i in range(TICKS):
    at[0] = i
    free = gc.mem_free()
    a.tick()
    if gc.mem_free() > free and not collected[i]:
        forced += 1
    board.now += 10
times = [i * 10 for i in range(TICKS) if collected[i]]
both = sum(1 for i in range(TICKS) if collected[i] and updated[i])
print(json.dumps({"collections": times, "forced": forced, "asked": counted.asked,
                  "updated_while_collecting": both, "updated": sum(updated)}))
"""


def test_the_heap_is_collected_in_ticks_of_their_own_before_it_runs_out(tmp_path):
    (tmp_path / "profile.json").write_text(json.dumps(load_profile("pico")))
    (tmp_path / "quiet_board.py").write_text((HERE.parent / "bench" / "quiet_board.py").read_text())
    (tmp_path / "rules").symlink_to(FIRMWARE / "rules")
    out = run_mp("import json\n" + CODE % {"ticks": TICKS}, cwd=tmp_path, path=[tmp_path],
                 timeout=600)
    result = json.loads(out.strip().splitlines()[-1])
    times = result["collections"]
    assert len(times) >= 2, result  # the game's garbage fills the heap more than once
    assert result["forced"] == 0, result  # the VM never had to collect in a busy tick
    assert result["updated_while_collecting"] == 0, result  # a collecting tick does nothing else
    assert result["updated"] >= TICKS - len(times), result  # every other tick played on
    assert result["asked"] == 0, result  # the heap never walked to find how full it is
