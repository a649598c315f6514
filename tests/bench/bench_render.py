"""Benchmark: render plus power limit per tick on MicroPython, for the largest profile.

    make bench        (or: python tests/bench/bench_render.py)

Figures are ratios to a loop measured in the same run that only copies the frame,
byte by byte in Python, as a backend does to put it in wire order: the least any
tick that shows a frame costs. Target: render plus limit within 3x that loop, and a
tick with nothing changed writes no frame.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(HERE))

from table import print_table  # noqa: E402

from cheeseboard import paths  # noqa: E402
from cheeseboard.flash import build  # noqa: E402
from cheeseboard.flash import image as images  # noqa: E402
from cheeseboard.sim.vmfiles import micropython_binary  # noqa: E402

N = 500
TARGET = 3.0
# The busiest game the largest profile carries: the most spaces lit, a hint on offer.
GAMES = (
    ("gouda", {"players": 6, "powers": True, "markers": 3, "festival": False,
               "extra_cheese": False}),
    ("gatenkaas", {"players": 4, "hands": "open"}),  # open: its ghost is drawn
)

# Runs on the VM, in a firmware image (.mpy, as flashed) with the largest profile.
VM = """
import json, time
from cheesefw import app, profile_file, render
from cheesefw.engine import core
from quiet_board import QuietBoard

def per_tick(fn, n=%(n)d):
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
white = bytearray(b"\\xff" * (3 * count))
board = QuietBoard(profile)
engine = core.Engine(board)
engine.start_game(%(game)r, %(options)r)
a = app.App(board, engine)
a.tick()
frame = bytearray(a._work)  # the game's own first frame: within budget

def game_tick():
    board.now += 10
    a.tick()

def redraw_tick():
    board.now += 10
    a._dirty = True
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
"""


def largest_profile():
    profiles = [paths.load_profile(n) for n in paths.profile_names()]
    return max(profiles, key=lambda p: p["led"]["count"])


def run(n=N):
    """The figures from one VM run (a dict), for the largest profile."""
    profile = largest_profile()
    game, options = [g for g in GAMES if g[0] in profile["maps"]][-1]
    with tempfile.TemporaryDirectory() as image:
        build.build_tree(paths.FIRMWARE, image)
        build.compile_module(HERE / "quiet_board.py", Path(image) / "quiet_board.mpy",
                             "quiet_board.py")
        (Path(image) / "profile.json").write_text(json.dumps(profile))
        for rel, data in images._schemas().items():  # as a flashed slot has them
            (Path(image) / rel).parent.mkdir(exist_ok=True)
            (Path(image) / rel).write_bytes(data)
        env = dict(os.environ, MICROPYPATH=image)
        code = VM % {"n": n, "game": game, "options": options}
        r = subprocess.run([micropython_binary(), "-X", "heapsize=%d" % profile["heap"],
                            "-c", code], cwd=image, env=env, capture_output=True,
                           text=True, timeout=600)
    if r.returncode:
        raise RuntimeError("micropython: %s%s" % (r.stdout, r.stderr))
    result = json.loads(r.stdout.strip().splitlines()[-1])
    result["profile"] = profile["name"]
    result["game"] = game
    result["budget_ma"] = profile["led"]["budget_ma"]
    return result


def main():
    r = run()
    base = r["copy_us"]

    def ratio(key):
        return "%.1fx the copy loop%s" % (r[key] / base, "" if r[key] / base <= TARGET
                                          else " (over the %gx target)" % TARGET)

    rows = [
        ("a loop that copies the frame byte by byte (%d px, %s, %s)"
         % (r["count"], r["profile"], r["game"]),
         "%.0f us" % base, "the baseline, this run"),
        ("power limit, a game frame within budget", "%.0f us" % r["limit_frame_us"],
         ratio("limit_frame_us")),
        ("power limit, all white (scaled down)", "%.0f us" % r["limit_white_us"],
         ratio("limit_white_us")),
        ("  all white after the limit", "%d mA" % r["white_ma"],
         "budget %d mA" % r["budget_ma"]),
        ("render + power limit of one frame (the painter, the limiter)",
         "%.0f us" % r["render_us"], ratio("render_us")),
        ("a main-loop tick in a game (average: most ticks draw nothing)",
         "%.0f us" % r["tick_us"], ratio("tick_us")),
        ("  a tick that redraws (game view + hint, render, compare, limit, show)",
         "%.0f us" % r["redraw_us"], ratio("redraw_us")),
        ("frames written in %d game ticks" % N, "%d" % r["game_frames"], "blinks only"),
        ("frames written in 100 ticks with nothing changed", "%d" % r["idle_frames"],
         "target 0; %.0f us per idle tick" % r["idle_us"]),
    ]
    print_table("render and power limit (python tests/bench/bench_render.py)", rows)


if __name__ == "__main__":
    main()
