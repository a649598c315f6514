# Run on MicroPython by bench_render.py (the unix port) and bench_pico.py (the emulated Pico),
# in a firmware image with its profile: render plus power limit per tick, against a loop that
# only copies the frame, measured in the same run. Prints one JSON line.
#   argv: N GAME OPTIONS   (N ticks a figure; OPTIONS as JSON)
import json
import sys
import time

from quiet_board import QuietBoard

from cheesefw import app, profile_file, render
from cheesefw.engine import core

N = int(sys.argv[1])
GAME = sys.argv[2]
OPTIONS = json.loads(sys.argv[3])


def per_tick(fn, n=N):
    # The best of five rounds: a garbage collection or the host's other work lands in one
    # round, not in all; the baseline is measured the same way.
    best = None
    for _ in range(5):
        t0 = time.ticks_us()
        for _ in range(n // 5):
            fn()
        us = time.ticks_diff(time.ticks_us(), t0) / (n // 5)
        best = us if best is None else min(best, us)
    return best


profile = profile_file.load_profile()
count = profile["led"]["count"]
out = render.new_frame(count)


def copy_loop():
    f, o = frame, out
    for i in range(len(f)):
        o[i] = f[i]


limiter = render.PowerLimiter(profile["led"])
white = bytearray(b"\xff" * (3 * count))
board = QuietBoard(profile)
engine = core.Engine(board)
engine.start_game(GAME, OPTIONS)
a = app.App(board, engine)
a.tick()
frame = bytearray(a._work)  # the game's own first frame: within budget


def game_tick():
    board.now += 10
    a.tick()


def redraw_tick():
    board.now += 10
    a.dirty = True
    a.tick()


ma_full_white = profile["led"].get("ma_full_white", 60)  # the current, as the limiter reckons it
assert sum(frame) * ma_full_white // 765 <= profile["led"]["budget_ma"]
r = {"count": count, "copy_us": per_tick(copy_loop),
     "limit_white_us": per_tick(lambda: limiter.limit(white, out)),
     "limit_frame_us": per_tick(lambda: limiter.limit(frame, out))}
limiter.limit(white, out)
r["white_ma"] = sum(out) * ma_full_white // 765
f0 = board.frames
r["tick_us"] = per_tick(game_tick)
r["game_frames"] = board.frames - f0
r["redraw_us"] = per_tick(redraw_tick)
# Render plus limit alone: the painter drawing the game's view into a frame, then the limiter
# (the game's own view() and hint() are the game's cost, measured with the whole tick above).
scene = engine.scene
view = scene.state.view()
offer = scene.state.hint(scene.choices[0]) if scene.choices else None
canvas = render.new_frame(count)


def render_limit():
    scene.painter._marked = None  # drawn whole: not from the marks the painter kept
    scene.painter.paint(canvas, view, board.now, scene.players, offer)
    limiter.limit(canvas, out)


r["render_us"] = per_tick(render_limit)
# Nothing changes: the menu, no button, no blink.
board2 = QuietBoard(profile)
idle = app.App(board2, core.Engine(board2))
idle.tick()
f0 = board2.frames


def idle_tick():
    board2.now += 10
    idle.tick()


r["idle_us"] = per_tick(idle_tick, 100)
r["idle_frames"] = board2.frames - f0
print(json.dumps(r))
