"""A frame write on the emulated Pico (MicroPython's own UF2 on rp2040js, chip time): the
rp2 backend's PIO and DMA driver against the neopixel driver (machine.bitstream, interrupts
off for the whole wire time), at 64 and 256 pixels, against the WS2812 wire time.

    python tests/bench/bench_pico_leds.py

A real Pico's CPU time is the emulated one times cheeseboard/pico/calibration.py's factor for
ordinary Python; the wire time is the PIO's own, on the chip's clock, and does not err.
"""

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))

from vboard import VBoard  # noqa: E402

from cheeseboard.pico import calibration  # noqa: E402
from cheeseboard.uf2 import build_uf2  # noqa: E402

CALIBRATION = calibration.factor("ordinary Python")  # real Pico / emulated (docs/pico.md)
CPU_TARGET = 0.1  # a write's CPU time against its wire time, on a real Pico
IRQ_OFF_TARGET_US = 100  # the longest interrupts may stay masked
HAL_FILES = ("__init__.py", "hal/__init__.py", "hal/base.py", "hal/rp2.py", "hal/micropython.py",
             "hal/wire_order.py", "hal/frame_loops.py")

# On the chip: a backend's frame write (its show()) at n pixels, its least CPU time of three
# (each after the previous frame has left the wire), then the chip's clock (ms) when it was done.
ON_CHIP = """
import time
from cheesefw.hal import rp2, micropython
def make(driver, n):  # the backend's show(), as the App calls it
    board = rp2.Board if driver == "rp2" else micropython.Board
    return board({"led": {"pin": 2, "count": n, "order": "GRB"}, "buttons": {}, "die": [],
                  "seats": [], "status": 0}).show
frame = bytearray(3 * %(n)d)
write = make(%(driver)r, %(n)d)
best = None
for _ in range(3):
    time.sleep_ms(12)
    t0 = time.ticks_us()
    write(frame)
    us = time.ticks_diff(time.ticks_us(), t0)
    best = us if best is None else min(best, us)
time.sleep_ms(12)
print(best, time.ticks_ms())
"""


def measure(board, driver, n):
    """(the write's CPU us, the longest stretch of interrupts masked during it, us)."""
    since = len(board.link.events)
    run = board.mpremote("exec", ON_CHIP % {"driver": driver, "n": n})
    assert run.returncode == 0, run.stdout + run.stderr
    cost, done_ms = map(int, run.stdout.split())
    # the side channel's clock past the run: every masked stretch in it has been seen
    board.link.wait_for(lambda s: s.status()["board_ms"] >= done_ms, 60, "the chip's clock")
    masked = [e["ns"] for e in board.link.events[since:] if e.get("ev") == "irq_off"]
    return cost, max(masked, default=0) // 1000


def main():
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "cheesefw"
        for name in HAL_FILES:
            (package / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / "firmware" / "cheesefw" / name, package / name)
        board = VBoard(Path(tmp) / "pico.bin", target="pico", uf2=build_uf2("pico", frozen=False))
        try:
            board.release_console()
            copy = board.mpremote("fs", "cp", "-r", str(package), ":")
            assert copy.returncode == 0, copy.stderr
            rows = [(n, measure(board, "rp2", n), measure(board, "neopixel", n))
                    for n in (64, 256)]
        finally:
            board.stop()
    print("frame write, emulated Pico (chip time; a real Pico about x%.2f for the CPU's part)"
          % CALIBRATION)
    print("%6s %8s  %-34s %-29s %s" % ("pixels", "wire us", "PIO+DMA: CPU us, irq off us",
                                        "neopixel: CPU us, irq off us", "targets"))
    for n, (pio, pio_off), (old, old_off) in rows:
        wire = 30 * n
        real = pio * CALIBRATION / wire
        print("%6d %8d  %6d (%.3fx, real %.3fx) %6d   %6d (%.2fx) %12d   %s, %s" % (
            n, wire, pio, pio / wire, real, pio_off, old, old / wire, old_off,
            verdict("CPU %.1fx the wire" % CPU_TARGET, real / CPU_TARGET),
            verdict("irq off %d us" % IRQ_OFF_TARGET_US, pio_off / IRQ_OFF_TARGET_US)))


def verdict(target, ratio):
    return "%s: %s" % (target, "met" if ratio <= 1 else "missed, %.2fx" % ratio)


if __name__ == "__main__":
    main()
