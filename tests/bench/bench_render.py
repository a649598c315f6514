"""Benchmark: render plus power limit per tick on MicroPython, for the largest profile.

    make bench        (or: python tests/bench/bench_render.py)

Figures are ratios to a loop measured in the same run that only copies the frame,
byte by byte in Python, as a backend does to put it in wire order: the least any
tick that shows a frame costs. Target: render plus limit within 3x that loop, and a
tick with nothing changed writes no frame.
"""

import json
import os
import shutil
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
        # Run from the image's folder, as the board runs it (its own folder first on the path).
        shutil.copy(HERE / "render_on_vm.py", image)
        r = subprocess.run([micropython_binary(), "-X", "heapsize=%d" % profile["heap"],
                            "render_on_vm.py", str(n), game, json.dumps(options)],
                           cwd=image, env=env, capture_output=True, text=True, timeout=600)
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
