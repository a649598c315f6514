# Run on the emulated Pico by bench_pico.py (mpremote run, in the active slot's folder): where a
# redraw's time goes, per game, with the board playing every seat, in the chip's time.
#   argv: PROFILE_FILE [GAME ...]  (a profile on the flash, the 16x16 one say, or - for the
#   board's own; no game: every game the profile maps)
# Each game runs TICKS ticks of the main loop on a clock of its own that moves 10 ms a tick (or
# the tick's own time, when longer), as the loop does, without sleeping out the rest of each
# tick. The frames go out through the rp2 backend's chain (the real PIO and DMA), and each
# redraw's parts are timed where the tick calls them: the game's view (made anew after a move;
# a cached one costs a call),
# the marks drawn on the bare board, the rest of the painting, the power limit, the write.
# The tick that draws or writes a frame is a redraw tick; a redraw spread over ticks counts
# each. The rest of each tick goes to App.idle, as the main loop's does (a collection in a
# quiet tick), outside the tick's time.
# A redraw tick with a collection in it (the heap ran out) is counted, not timed.
# Prints one JSON line: {game: {"redraws", "move_redraws", "collections", "worst": {...},
# "worst_move": {...}, "worst_write": {...}, "mean_move": {...}, "pixels"}}, each {...} the
# tick's us and its parts' ("worst_write": of the ticks that wrote a frame).
import gc
import json
import sys
import time

from quiet_board import QuietBoard

from cheesefw import app, profile_file
from cheesefw.engine import core
from cheesefw.games import load
from cheesefw.hal import rp2 as hal
from cheesefw.hal.wire_order import wire_order

try:
    from cheesefw.hal import frame_loops
except ImportError:  # (an older tree: the limiter's loops in the VM only)
    frame_loops = None

TICKS = 400
PARTS = ("view", "marks", "paint", "limit", "write")
NAME = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "-" else None


def us_since(t0):
    return time.ticks_diff(time.ticks_us(), t0)


class ChipBoard(QuietBoard):
    """A board whose clock is the tick's start plus the chip's time since (the engine slices
    its thinking and defers a move's redraw by it), and whose frames go out on the pin."""

    def __init__(self, profile):
        QuietBoard.__init__(self, profile)
        led = profile["led"]
        self.chain = hal.Ws2812Chain(led["pin"], led["count"], wire_order(led))
        # the limiter's loops as the rp2 backend gives them to the App
        self.frame_loops = frame_loops.compiled() if frame_loops else None
        self.began = time.ticks_ms()

    def begin(self, tick_ms):
        self.now += max(10, tick_ms)
        self.began = time.ticks_ms()

    def ticks_ms(self):
        return self.now + time.ticks_diff(time.ticks_ms(), self.began)

    def show(self, frame):
        t0 = time.ticks_us()
        self.chain.write(frame)
        spent["write"] += us_since(t0)
        self.frames += 1


spent = {}
drawing = [False]  # in the scene's draw: a view made here is the redraw's


def timed(part, fn):
    """fn, its time added to spent[part] (a view's only when the draw makes it)."""
    def call(*args):
        if part == "paint":
            drawing[0] = True
        t0 = time.ticks_us()
        result = fn(*args)
        if part != "view" or drawing[0]:
            spent[part] += us_since(t0)
        if part == "paint":
            drawing[0] = False
        return result
    return call


def plays(game):
    profile = profile_file.load_profile(name=NAME)
    profile_file.pack_maps(profile)
    board = ChipBoard(profile)
    engine = core.Engine(board)
    opts = {}
    for key, choices in load(game).OPTIONS:
        opts[key] = choices[-1] if key == "players" else choices[0]
    engine.start_game(game, opts, seats=[[s, "strong"] for s in range(opts.get("players", 2))])
    a = app.App(board, engine)
    scene = engine.scene
    painter = scene.painter
    # The parts, timed where the tick calls them (an instance's attribute before its class's).
    scene._game_view = timed("view", scene._game_view)
    painter._marks = timed("marks", painter._marks)
    scene.draw = timed("paint", scene.draw)
    a.limiter.limit = timed("limit", a.limiter.limit)
    redraws = moves = collections = 0
    worst = worst_move = worst_write = None
    total = dict((p, 0) for p in PARTS + ("tick",))
    drawn_at = -1  # the moves of the history when a redraw was last begun
    tick_ms = 10
    for _ in range(TICKS):
        for p in PARTS:
            spent[p] = 0
        frames = board.frames
        free = gc.mem_free()  # (it walks the whole heap: 8.4 ms of a Pico, before the tick)
        board.begin(tick_ms)
        t0 = time.ticks_us()
        a.tick()
        us = us_since(t0)
        collected = gc.mem_free() > free  # the heap ran out in the tick: a collection's in it
        # the rest of the tick, as the main loop spends it: a collection in a quiet one
        t1 = time.ticks_us()
        a.idle(max(0, 10 - us // 1000))
        tick_ms = (us + us_since(t1)) // 1000
        if not (board.frames != frames or spent["paint"]):
            continue  # no redraw, nor a part of one
        # (the paint's time holds the view's and the marks': each part on its own)
        row = dict(spent, tick=us)
        row["paint"] -= row["view"] + row["marks"]
        redraws += 1
        if collected:  # the collector's time, not the redraw's (the loop's idle is its place)
            collections += 1
            continue
        if worst is None or us > worst["tick"]:
            worst = row
        if board.frames != frames and (worst_write is None or us > worst_write["tick"]):
            worst_write = row
        history = len(scene.state.history)
        if history != drawn_at:  # the redraw after a move (or the first part of it)
            drawn_at = history
            moves += 1
            for p in total:
                total[p] += row[p]
            if worst_move is None or us > worst_move["tick"]:
                worst_move = row
    mean = dict((p, total[p] // max(1, moves)) for p in total)
    return {"redraws": redraws, "move_redraws": moves, "collections": collections, "worst": worst,
            "worst_move": worst_move, "worst_write": worst_write, "mean_move": mean,
            "pixels": board.pixel_count}


games = sys.argv[2:] if len(sys.argv) > 2 else list(profile_file.load_profile(name=NAME)["maps"])
result = {}
for game in sorted(games):
    print("redraw_on_chip: %s" % game)
    result[game] = plays(game)
    gc.collect()
print(json.dumps(result))
