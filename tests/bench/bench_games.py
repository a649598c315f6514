"""Benchmarks of the games and the engine on MicroPython, against baselines from the same run.

    make bench        (or: python tests/bench/bench_games.py)

- heap: a full 6-player Gouda game with powers, firmware loaded (.mpy, as flashed), heap
  capped at 64 KB; the game's working set is the heap's growth from its start to its peak;
- consecutive games: no heap growth over many games (the heap after every tenth game);
- speed: full random games per second on MicroPython and on CPython;
- tick: the engine's cost per main-loop tick against a loop that only copies the frame;
  ticks with nothing changed write no frame; a press is answered in the tick it arrives.
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

from cheeseboard import build, paths  # noqa: E402
from cheeseboard.sim.vmfiles import micropython_binary  # noqa: E402

SCRIPT = HERE / "games_on_vm.py"


def firmware_image(folder):
    """The firmware as flashed: compiled modules, rule tables, the pico profile."""
    build.build_tree(paths.FIRMWARE, folder)
    (Path(folder) / "profile.json").write_text(json.dumps(paths.load_profile("pico")))
    build.compile_module(SCRIPT, Path(folder) / "games_on_vm.mpy", "games_on_vm.py")
    return folder


def on_mp(image, heap, *args):
    env = dict(os.environ, MICROPYPATH=str(image))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=%d" % heap, "-m", "games_on_vm",
                        *args],
                       cwd=image, env=env, capture_output=True, text=True, timeout=600)
    if r.returncode:
        raise RuntimeError("micropython %s: %s%s" % (" ".join(args), r.stdout, r.stderr))
    return json.loads(r.stdout.strip().splitlines()[-1])


def on_cpython(*args):
    env = dict(os.environ, PYTHONPATH=str(paths.FIRMWARE))
    r = subprocess.run([sys.executable, str(SCRIPT), *args], cwd=paths.FIRMWARE, env=env,
                       capture_output=True, text=True, timeout=600)
    if r.returncode:
        raise RuntimeError("python %s: %s" % (" ".join(args), r.stderr))
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        image = firmware_image(tmp)
        h = on_mp(image, 64 * 1024, "heap", "gouda", "6", "1")
        rows.append(("6-player Gouda with powers, 64 KB heap: completes", "%d moves" % h["steps"],
                     "firmware loaded: %d B of the 65536 B cap" % h["before"]))
        rows.append(("  the game's working set (peak - start)", "%d B" % (h["peak"] - h["before"]),
                     "%.2f of the 8 KB target" % ((h["peak"] - h["before"]) / 8192)))
        k = on_mp(image, 64 * 1024, "heap", "kitchen", "2", "0")
        rows.append(("kitchen game, 64 KB heap: working set", "%d B" % (k["peak"] - k["before"]),
                     "%.2f of 8 KB" % ((k["peak"] - k["before"]) / 8192)))
        many = int(os.environ.get("BENCH_GAMES", "200"))
        m = on_mp(image, 64 * 1024, "many", "gouda", str(many))
        growth = m["heaps"][-1] - m["heaps"][0]
        rows.append(("%d consecutive 6-player games: heap growth" % many, "%+d B" % growth,
                     "first %d B, last %d B" % (m["heaps"][0], m["heaps"][-1])))
        c = on_cpython("many", "gouda", "50")
        mp_rate = m["games"] * 1000 / m["ms"]
        cp_rate = c["games"] * 1000 / c["ms"]
        rows.append(("full random 6-player games per second, MicroPython", "%.1f/s" % mp_rate,
                     "%.2f of CPython's %.1f/s" % (mp_rate / cp_rate, cp_rate)))
        t = on_mp(image, 200 * 1024, "tick")
        rows.append(("engine per tick (update+draw+limit), MicroPython", "%.0f us" % t["engine_us"],
                     "%.1fx a loop that only copies the frame (%.0f us)"
                     % (t["engine_us"] / t["copy_us"], t["copy_us"])))
        rows.append(("frames written in %d game ticks / 100 idle menu ticks" % t["ticks"],
                     "%d / %d" % (t["frames"], t["idle_frames"]),
                     "blinks only; idle writes none"))
        rows.append(("frames written in the tick a press arrives", "%d" % t["press_frames"],
                     "answered within the same tick"))
    width = max(len(r[0]) for r in rows)
    print("%-*s  %14s  %s" % (width, "games and engine (python tests/bench/bench_games.py)",
                              "figure", "against"))
    for name, fig, against in rows:
        print("%-*s  %14s  %s" % (width, name, fig, against))


if __name__ == "__main__":
    main()
