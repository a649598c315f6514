"""The emulated Pico against a real one: the operations of a published benchmark of
MicroPython on real boards, run on the emulated Pico with its XIP cache model and without.

    python tests/bench/bench_calibration.py        (part of `make bench`; about 2 minutes)

The published figures are a real Raspberry Pi Pico's (RP2040 at 125 MHz, MicroPython 1.23.0)
in shaoziyang/micropython_benchmarks (its README's table, its benchmark.py's code);
calibration_on_chip.py does the same operations in code of its own, on MicroPython 1.28's own
UF2 (`cheeseboard uf2 --stock`, or CHEESEBOARD_PICO_UF2). Each row: the real Pico's time over
the emulated one's, with the cache model and without. The factors by kind of code are the
geometric means of those rows; cheeseboard/pico/calibration.py keeps the ones the benchmarks
use, and this bench says whether this run still agrees with them.

Compare like with like: MicroPython 1.23's UF2 ran its interpreter, collector and parser from
SRAM (its linker script's patterns named the object files as its SDK's build did), 1.28's own
runs them from flash (the patterns match nothing), and misses the cache more. The stored
factors come from a UF2 with them in SRAM (CHEESEBOARD_PICO_UF2 names one).
"""

import json
import math
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE))

from vboard import VBoard  # noqa: E402

from cheeseboard.pico import calibration  # noqa: E402

SOURCE = "shaoziyang/micropython_benchmarks (RP2040, 125 MHz, MicroPython 1.23.0)"
# name: (a real Pico's ms, the published column, the kind of code)
PUBLISHED = {
    "int add x100000": (799, "Integer addition 100000 times", "tight loop"),
    "int mul x10000": (276, "Integer multiplication 10000 times", "tight loop"),
    "float add x100000": (1343, "Float addition 100000 times", "tight loop"),
    "float pow x10000": (993, "Power calculation 10000 times", "tight loop"),
    "Mandelbrot 100 steps": (5212, "Mandelbrot iterating 100 times", "ordinary Python"),
    "pi 1000 digits": (868, "Pi Calculation 1000 bits", "big ints"),
}
RUN_TIMEOUT = 900  # wall seconds for the whole script (about 14 s of chip time)
AGREES = 0.05  # a run within 5 % of a stored factor agrees with it


def stock_uf2():
    named = os.environ.get("CHEESEBOARD_PICO_UF2")
    if named:
        return named
    from cheeseboard.uf2 import build_uf2
    from cheeseboard.uf2.source import UF2Error

    try:
        return build_uf2("pico", frozen=False)
    except UF2Error as e:
        print("bench_calibration: skipped (%s)" % e)
        return None


def host_cpu_s():
    """The CPU seconds of this process's finished children (the emulators among them)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_on_pico(uf2, flash_image, xip_cache):
    """calibration_on_chip.py's {name: ms} on a fresh emulated Pico, and the host's CPU
    seconds for the whole (boot, run, stop)."""
    cpu = host_cpu_s()
    saved = os.environ.get("CHEESEBOARD_PICO_XIP_CACHE")
    os.environ["CHEESEBOARD_PICO_XIP_CACHE"] = "on" if xip_cache else "off"
    try:
        board = VBoard(flash_image, target="pico", uf2=uf2)
    finally:
        if saved is None:
            del os.environ["CHEESEBOARD_PICO_XIP_CACHE"]
        else:
            os.environ["CHEESEBOARD_PICO_XIP_CACHE"] = saved
    try:
        board.release_console()
        try:
            run = board.mpremote("run", str(HERE / "calibration_on_chip.py"),
                                 timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            cache = "on" if xip_cache else "off"
            raise SystemExit("bench_calibration: calibration_on_chip.py did not finish in %d s "
                             "(XIP cache %s)" % (RUN_TIMEOUT, cache)) from None
        if run.returncode != 0:
            raise SystemExit("bench_calibration: calibration_on_chip.py failed: %s"
                             % run.stderr.strip()[-300:])
        figures = json.loads(run.stdout.strip().splitlines()[-1])
    finally:
        board.stop()
    return figures, host_cpu_s() - cpu


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    uf2 = stock_uf2()
    if not uf2:
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-calibration-") as tmp:
        cached, cached_cpu = run_on_pico(uf2, Path(tmp) / "on.bin", xip_cache=True)
        plain, plain_cpu = run_on_pico(uf2, Path(tmp) / "off.bin", xip_cache=False)
    print("a real Pico's ms (%s) against the emulated Pico's" % SOURCE)
    header = ("benchmark", "real", "emulated", "real/emu", "no cache", "real/emu")
    print("%-22s %7s %9s %9s %9s %9s" % header)
    by_kind = {}
    for name, (real, column, kind) in PUBLISHED.items():
        on, off = cached[name], plain[name]
        by_kind.setdefault(kind, []).append((real / on, real / off))
        print("%-22s %7d %9d %8.2fx %9d %8.2fx   (%s; %s)"
              % (name, real, on, real / on, off, real / off, column, kind))
    print("\nfactors by kind of code (geometric means; cheeseboard/pico/calibration.py's)")
    for kind, ratios in by_kind.items():
        on = geometric_mean([r[0] for r in ratios])
        off = geometric_mean([r[1] for r in ratios])
        stored = calibration.factor(kind)
        verdict = "agrees" if abs(on / stored - 1) <= AGREES else "DIFFERS by %.0f%%" % (
            100 * (on / stored - 1))
        print("%-16s real/emulated %.2fx (no cache %.2fx); stored %.2fx: %s"
              % (kind, on, off, stored, verdict))
    print("(a UF2 with its interpreter in flash, as 1.28's own, differs: docs/pico.md)")
    print("\nthe model's cost on the host: %.0f CPU s with it, %.0f without (%.2fx), the same "
          "run (boot, benchmarks, stop)" % (cached_cpu, plain_cpu, cached_cpu / plain_cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
