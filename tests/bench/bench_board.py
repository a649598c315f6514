"""Benchmarks of the virtual board: free heap after boot, protocol round trip, press to frame.

    make bench        (or: python tests/bench/bench_board.py)

Every figure is printed with its baseline from the same run: the heap cap the VM
runs under, and the main loop's tick (TICK_MS), so that the ratios stay
comparable across machines.
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE.parents[1] / "firmware"))

from table import print_table  # noqa: E402
from vboard import VBoard  # noqa: E402

from cheeseboard.paths import load_profile  # noqa: E402
from cheesefw.app import TICK_MS  # noqa: E402
from cheesefw.buttons import DEBOUNCE_MS  # noqa: E402

ROUNDS = 50


def measure(board):
    hello = board.wait_protocol()
    heap_free = hello["heap_free"]
    board.link.wait_frame(0)

    trips = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        board.request("state")
        trips.append((time.perf_counter() - t) * 1000)

    latencies = []
    for i in range(ROUNDS // 2):
        seq = board.link.frame_seq
        t = time.monotonic()
        board.link.press("next" if i % 2 == 0 else "prev", hold_ms=40)
        board.link.wait_frame(seq)
        latencies.append((board.link.frame_time - t) * 1000)
        time.sleep(0.06)  # let the release settle before the next press
    return heap_free, trips, latencies


def main():
    with tempfile.TemporaryDirectory() as tmp:
        board = VBoard(Path(tmp) / "flash", clock="real")  # figures of the wall
        try:
            profile = load_profile(board.profile)
            heap_cap = profile["heap"]
            heap_free, trips, latencies = measure(board)
        finally:
            board.stop()
    rt = statistics.median(trips)
    lat = statistics.median(latencies)
    rows = [
        ("free heap after boot (pico cap)", "%d B" % heap_free,
         "%.2f of the %d B cap" % (heap_free / heap_cap, heap_cap)),
        ("protocol round trip (`state`), median of %d" % ROUNDS, "%.1f ms" % rt,
         "%.2f ticks of %d ms" % (rt / TICK_MS, TICK_MS)),
        ("button press -> answering LED frame, median of %d" % len(latencies), "%.1f ms" % lat,
         "%.2f ticks; debounce %d ms included" % (lat / TICK_MS, DEBOUNCE_MS)),
    ]
    print_table("virtual board (python tests/bench/bench_board.py)", rows)


if __name__ == "__main__":
    main()
