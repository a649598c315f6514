"""Benchmarks of `cheeseboard uf2` on this machine (2 cores, shared): building a Pico's UF2.

    make bench-uf2    (or: python tests/bench/bench_uf2.py); not in `make bench`: the cold
                      build takes several minutes

In a cache of its own (a temporary folder, removed after), so the first build is cold:

- cold: the third_party archives unpacked, picotool, mpy-cross and the firmware built;
- nothing changed: the same command again (the UF2 comes from the cache);
- one module changed: a comment added to cheesefw/render.py in a copy of firmware/ (picotool
  and mpy-cross come from the cache, the port's build folder recompiles that module);
- the UF2's size, frozen and stock (MicroPython's own firmware built from the same tree, its
  picotool and mpy-cross shared), and the flash left for the board's filesystem.

Figures are wall time here, with the other processes of a busy machine; the ratios against the
cold build are what carries over.
"""

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from table import print_table  # noqa: E402

from cheeseboard import paths  # noqa: E402
from cheeseboard.uf2 import build_uf2, source  # noqa: E402

FLASH = 2 * 1024 * 1024  # a Pico's QSPI flash
FILESYSTEM = 1408 * 1024  # MicroPython's LittleFS on RPI_PICO (the rest is the firmware's)


def timed(**kwargs):
    start = time.monotonic()
    path = build_uf2("pico", **kwargs)
    return time.monotonic() - start, path


def main():
    if not (source.THIRD_PARTY / source.MICROPYTHON_ARCHIVE).exists():
        print("bench_uf2: needs ../shared/third_party (MicroPython's source); skipped")
        return 0
    with tempfile.TemporaryDirectory(prefix="cheeseboard-bench-uf2-") as tmp:
        os.environ["CHEESEBOARD_CACHE"] = str(Path(tmp) / "cache")
        firmware = Path(tmp) / "firmware"
        shutil.copytree(paths.FIRMWARE, firmware, ignore=shutil.ignore_patterns("__pycache__"))
        paths.FIRMWARE = firmware
        cold, frozen = timed()
        again, same = timed()
        assert same == frozen
        render = firmware / "cheesefw" / "render.py"
        render.write_text(render.read_text() + "\n# a change\n")
        changed, other = timed()
        assert other != frozen
        stock_time, stock = timed(frozen=False)
        frozen_size, stock_size = frozen.stat().st_size, stock.stat().st_size
    print_table("cheeseboard uf2 (this machine, wall time)", [
        ("cold build (unpack, picotool, mpy-cross, firmware)", "%.0f s" % cold, "1.00x"),
        ("nothing changed", "%.2f s" % again, "%.4fx of cold" % (again / cold)),
        ("one module changed", "%.1f s" % changed, "%.3fx of cold" % (changed / cold)),
        ("stock firmware (picotool, mpy-cross cached)", "%.0f s" % stock_time,
         "%.2fx of cold" % (stock_time / cold)),
        ("UF2 size, frozen", "%d KB" % (frozen_size // 1024),
         "%.2fx stock (%d KB)" % (frozen_size / stock_size, stock_size // 1024)),
    ], figure_width=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
