# Run on the emulated Pico by bench_pico.py (mpremote run, in the active slot's folder):
# the firmware's own costs in the chip's time (time.ticks_us), printed as one JSON line.
#   - a main-loop tick in a 6-player Gouda game with powers, with nothing pressed;
#   - each game with the board playing every seat: its longest tick, and the ticks late;
#   - a frame write through the rp2 HAL (the wire order filled in, the frame handed to the
#     PIO's DMA) at 64 and 256 pixels;
#   - a journal line appended on LittleFS, as the engine appends one per move.
# Each phase prints its name first, so that a run stopped by its deadline says where it was.
import gc
import json
import os
import time

from quiet_board import QuietBoard

from cheesefw import app, profile_file
from cheesefw.engine import core
from cheesefw.games import load
from cheesefw.hal import rp2 as hal

profile = profile_file.load_profile()
profile_file.pack_maps(profile)


def us_since(t0):
    return time.ticks_diff(time.ticks_us(), t0)


print("pico_on_chip: a 6-player Gouda tick")
# A tick: the engine's work, its frame counted rather than sent (the write is timed below).
board = QuietBoard(profile)
engine = core.Engine(board)
engine.start_game("gouda", {"players": 6, "powers": True, "markers": 3, "festival": False,
                            "extra_cheese": False})
a = app.App(board, engine)
ticks = []
for _ in range(200):
    board.now += 10
    t0 = time.ticks_us()
    a.tick()
    ticks.append(us_since(t0))
del a, engine, board
gc.collect()

class ClockedBoard(QuietBoard):
    """A QuietBoard on the chip's own clock: the engine slices its board's thinking by it."""

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)


# The board's player: every seat played by the board, a tick every 10 ms as the main loop
# runs them; its thinking is sliced (4 ms a tick), so no tick should take longer than one.
def board_plays(game, players, ticks=300):
    fresh = profile_file.load_profile()
    profile_file.pack_maps(fresh)  # a board of its own: a game lets go of the others' maps
    board = ClockedBoard(fresh)
    engine = core.Engine(board)
    opts = {"players": players} if players else {}
    for key, choices in load(game).OPTIONS:
        opts.setdefault(key, choices[0])
    seats = [[s, "strong"] for s in range(players or 2)]
    engine.start_game(game, opts, seats=seats)
    a = app.App(board, engine)
    worst = late = 0
    for _ in range(ticks):
        t0 = time.ticks_us()
        a.tick()
        us = us_since(t0)
        worst = max(worst, us)
        late += us > 10000
        time.sleep_ms(max(0, 10 - us // 1000))
    moves = len(engine.scene.state.history)
    return {"worst_us": worst, "late": late, "ticks": ticks, "moves": moves}


thinking = {}
for game, players in (("gouda", 6), ("kitchen", 0), ("kalle", 5), ("katz", 4)):
    print("pico_on_chip: %s, the board playing every seat" % game)
    thinking[game] = board_plays(game, players)
    gc.collect()

print("pico_on_chip: frame writes")
# A frame write: the HAL's show(), the wire order filled in and the DMA started.
writes = {}
for count in (64, 256):
    led = dict(profile["led"], count=count)
    strip = hal.Board(dict(profile, led=led))
    frame = bytearray(3 * count)
    for i in range(len(frame)):
        frame[i] = i & 0x3F
    t0 = time.ticks_us()
    strip.show(frame)
    writes[count] = us_since(t0)
    del strip
    gc.collect()

print("pico_on_chip: journal appends")
# A journal append: one move's line, at the end of a file on LittleFS.
line = '{"a": [3, 1, 4], "s": 12}\n'
appends = []
for _ in range(20):
    t0 = time.ticks_us()
    with open("bench-journal.txt", "a") as f:
        f.write(line)
    appends.append(us_since(t0))
os.remove("bench-journal.txt")

print(json.dumps({"tick_mean_us": sum(ticks) / len(ticks), "tick_worst_us": max(ticks),
                  "write_us": writes, "append_mean_us": sum(appends) / len(appends),
                  "append_worst_us": max(appends), "thinking": thinking,
                  "free": gc.mem_free()}))
