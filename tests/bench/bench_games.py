"""Benchmarks of the games and the engine on MicroPython, against baselines from the same run.

    make bench        (or: python tests/bench/bench_games.py)

- heap: a full 6-player Gouda game with powers (and a kitchen, a 5-player Kalle game),
  firmware loaded (.mpy, as flashed), in the smallest heap that plays it; the game's working
  set is the heap's growth from its start to its peak; the game modules each game imports;
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
sys.path.insert(0, str(HERE))

from table import print_table  # noqa: E402

from cheeseboard import paths  # noqa: E402
from cheeseboard.flash import build  # noqa: E402
from cheeseboard.flash import image as images  # noqa: E402
from cheeseboard.sim.vmfiles import micropython_binary  # noqa: E402

SCRIPT = HERE / "games_on_vm.py"


def firmware_image(folder, profile="pico"):
    """The firmware as flashed: compiled modules, rule tables, a profile (Gatenkaas needs the
    16x16 one: no 8x8 profile maps it)."""
    build.build_tree(paths.FIRMWARE, folder)
    (Path(folder) / "profile.json").write_text(json.dumps(paths.load_profile(profile)))
    for rel, data in images._schemas().items():  # as a flashed slot has them
        (Path(folder) / rel).parent.mkdir(exist_ok=True)
        (Path(folder) / rel).write_bytes(data)
    build.compile_module(SCRIPT, Path(folder) / "games_on_vm.mpy", "games_on_vm.py")
    build.compile_module(HERE / "quiet_board.py", Path(folder) / "quiet_board.mpy",
                         "quiet_board.py")
    build.compile_module(HERE / "kalle_on_vm.py", Path(folder) / "kalle_on_vm.mpy",
                         "kalle_on_vm.py")
    return folder


def on_mp(image, heap, *args, script="games_on_vm"):
    env = dict(os.environ, MICROPYPATH=str(image))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=%d" % heap, "-m", script, *args],
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


def smallest_heap(image, *game):
    """The smallest heap, in 4 KB steps, in which the firmware plays the game to its end."""
    low, high = 32, 256  # fails at low, completes at high (KB)
    while high - low > 4:
        mid = (low + high) // 2 // 4 * 4
        try:
            on_mp(image, mid * 1024, "heap", *game)
            high = mid
        except RuntimeError:
            low = mid
    return high


def gatenkaas_rows(many):
    """Gatenkaas on the 16x16 profile: heap, consecutive games, legal placements per tick."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        image = firmware_image(tmp, "pico16")
        smallest = smallest_heap(image, "gatenkaas", "4", "0")
        rows.append(("smallest heap (4 KB steps): firmware + 4-player Gatenkaas (pico16)",
                     "%d KB" % smallest, "%.2f of the Pico's 200 KB" % (smallest / 200)))
        h = on_mp(image, smallest * 1024, "heap", "gatenkaas", "4", "0")
        rows.append(("  Gatenkaas: working set (peak - start)", "%d B" % (h["peak"] - h["before"]),
                     "%.2f of 8 KB" % ((h["peak"] - h["before"]) / 8192)))
        m = on_mp(image, 200 * 1024, "many", "gatenkaas", str(many))  # the Pico's heap
        third = max(1, len(m["heaps"]) // 3)
        first, last = min(m["heaps"][:third]), min(m["heaps"][-third:])
        rows.append(("%d consecutive 4-player Gatenkaas games: heap growth" % many,
                     "%+d B" % (last - first),
                     "lowest in the first third %d B, in the last %d B" % (first, last)))
        c = on_cpython("many", "gatenkaas", "20")
        mp_rate = m["games"] * 1000 / m["ms"]
        cp_rate = c["games"] * 1000 / c["ms"]
        rows.append(("  full random games per second, MicroPython", "%.1f/s" % mp_rate,
                     "%.2f of CPython's %.1f/s" % (mp_rate / cp_rate, cp_rate)))
        g = on_mp(image, 200 * 1024, "gatenkaas")
        rows.append(("Gatenkaas: legal placements of a full hand, worst (%d positions)"
                     % g["positions"], "%.0f us" % g["worst_us"],
                     "%.2f of a 10 ms tick; %.1fx an empty loop over 20 x 192 cells (%.0f us)"
                     % (g["worst_us"] / 10000, g["worst_us"] / g["loop_us"], g["loop_us"])))
        rows.append(("  mean; most placements in one hand", "%.0f us" % g["mean_us"],
                     "%.2f of a tick; %d placements" % (g["mean_us"] / 10000, g["most"])))
        rows.append(("  the board's choice (strong), worst", "%.0f us" % g["bot_us"],
                     "%.2f of a 10 ms tick" % (g["bot_us"] / 10000)))
        rows.append(("  bytes its choice allocates, mean (its placements known)",
                     "%d B" % g["choice_bytes"],
                     "%.2fx its placements' own, made afresh (%d B); worst %d B"
                     % (g["choice_bytes"] / g["legal_bytes"], g["legal_bytes"],
                        g["choice_worst"])))
    return rows


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        image = firmware_image(tmp)
        smallest = smallest_heap(image, "gouda", "6", "1")
        rows.append(("smallest heap (4 KB steps): firmware + 6-player Gouda, powers",
                     "%d KB" % smallest, "%.2f of the 64 KB target" % (smallest / 64)))
        kitchen_heap = smallest_heap(image, "kitchen", "2", "0")
        rows.append(("smallest heap (4 KB steps): firmware + kitchen game",
                     "%d KB" % kitchen_heap, "%.2f of the 64 KB target" % (kitchen_heap / 64)))
        kalle_heap = smallest_heap(image, "kalle", "5", "0")
        rows.append(("smallest heap (4 KB steps): firmware + 5-player Kalle Kanalratte",
                     "%d KB" % kalle_heap, "%.2f of the 64 KB target" % (kalle_heap / 64)))
        katz_heap = smallest_heap(image, "katz", "6", "0")
        rows.append(("smallest heap (4 KB steps): firmware + 6-player Katz game",
                     "%d KB" % katz_heap, "%.2f of the 64 KB target" % (katz_heap / 64)))
        h = on_mp(image, smallest * 1024, "heap", "gouda", "6", "1")
        rows.append(("  of which the firmware and the game's state at its start",
                     "%d B" % h["before"], "%d moves played" % h["moves"]))
        rows.append(("  the game's working set (peak - start)", "%d B" % (h["peak"] - h["before"]),
                     "%.2f of the 8 KB target" % ((h["peak"] - h["before"]) / 8192)))
        k = on_mp(image, kitchen_heap * 1024, "heap", "kitchen", "2", "0")
        rows.append(("kitchen game: working set", "%d B" % (k["peak"] - k["before"]),
                     "%.2f of 8 KB" % ((k["peak"] - k["before"]) / 8192)))
        ka = on_mp(image, kalle_heap * 1024, "heap", "kalle", "5", "0")
        rows.append(("Kalle game: working set", "%d B" % (ka["peak"] - ka["before"]),
                     "%.2f of 8 KB; firmware and state at the start %d B"
                     % ((ka["peak"] - ka["before"]) / 8192, ka["before"])))
        z = on_mp(image, katz_heap * 1024, "heap", "katz", "6", "0")
        rows.append(("6-player Katz game: working set", "%d B" % (z["peak"] - z["before"]),
                     "%.2f of 8 KB" % ((z["peak"] - z["before"]) / 8192)))
        for name, run in (("gouda", h), ("kitchen", k), ("kalle", ka), ("katz", z)):
            rows.append(("  game modules imported while playing %s" % name,
                         "%d" % len(run["games"]), " ".join(m[15:] for m in run["games"])))
        many = int(os.environ.get("BENCH_GAMES", "200"))
        for game, label in (("gouda", "6-player Gouda games with powers"),
                            ("kitchen", "kitchen games"),
                            ("kalle", "5-player Kalle games"),
                            ("katz", "6-player Katz games")):
            m = on_mp(image, 128 * 1024, "many", game, str(many))
            # The heap after every tenth game; the GC is conservative, so a dead game the
            # stack still points at can show for one sample: compare the lows of each third.
            third = max(1, len(m["heaps"]) // 3)
            first, last = min(m["heaps"][:third]), min(m["heaps"][-third:])
            rows.append(("%d consecutive %s: heap growth" % (many, label),
                         "%+d B" % (last - first),
                         "lowest in the first third %d B, in the last %d B" % (first, last)))
            c = on_cpython("many", game, "50")
            mp_rate = m["games"] * 1000 / m["ms"]
            cp_rate = c["games"] * 1000 / c["ms"]
            rows.append(("  full random games per second, MicroPython", "%.1f/s" % mp_rate,
                         "%.2f of CPython's %.1f/s" % (mp_rate / cp_rate, cp_rate)))
        rows += gatenkaas_rows(many)
        t = on_mp(image, 200 * 1024, "tick")
        rows.append(("engine per tick in a game (average), MicroPython", "%.0f us" % t["tick_us"],
                     "%.1fx a loop that only writes the frame (%.0f us)"
                     % (t["tick_us"] / t["copy_us"], t["copy_us"])))
        rows.append(("  a tick that redraws (update+draw+limit+write)", "%.0f us" % t["draw_us"],
                     "%.1fx that loop; %.3f of a 10 ms tick"
                     % (t["draw_us"] / t["copy_us"], t["draw_us"] / 10000)))
        rows.append(("frames written in %d game ticks / 100 idle menu ticks" % t["ticks"],
                     "%d / %d" % (t["frames"], t["idle_frames"]),
                     "blinks only; idle writes none"))
        rows.append(("frames written in the tick a press arrives", "%d" % t["press_frames"],
                     "answered within the same tick"))
        kb = on_mp(image, 200 * 1024, "kitchen")
        rows.append(("kitchen: reachable squares for a 4 then +2, MicroPython",
                     "%.0f us" % kb["reach_us"], "%.2f of a 10 ms tick" % (kb["reach_us"] / 10000)))
        rows.append(("kitchen: the board cat's choice, MicroPython", "%.0f us" % kb["bot_us"],
                     "%.2f of a 10 ms tick" % (kb["bot_us"] / 10000)))
        kk = on_mp(image, 200 * 1024, script="kalle_on_vm")
        for key, label in (("search_us", "the board searcher's move"),
                           ("swap_us", "the board starter's swap")):
            rows.append(("Kalle: %s, MicroPython" % label, "%.0f us" % kk[key],
                         "%.2f of a 10 ms tick" % (kk[key] / 10000)))
        kz = on_mp(image, 200 * 1024, "katz")
        rows.append(("Katz: the board player's choice, clover rolled, 6 players, MicroPython",
                     "%.0f us" % kz["bot_us"], "%.2f of a 10 ms tick; %.1f moves scored"
                     % (kz["bot_us"] / 10000, kz["moves"])))
        rows.append(("Katz: its legal moves, same positions", "%.0f us" % kz["legal_us"],
                     "%.3f of a 10 ms tick" % (kz["legal_us"] / 10000)))
    print_table("games and engine (python tests/bench/bench_games.py)", rows)


if __name__ == "__main__":
    main()
