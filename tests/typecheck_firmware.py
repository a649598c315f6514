"""Type-check the firmware against MicroPython's own stubs for the Raspberry Pi Pico.

mypy gets MicroPython's reduced standard library (`micropython-stdlib-stubs`) in
place of CPython's, and the Pico's modules (`machine`, `neopixel`, `rp2`, ...)
from `micropython-rp2-rpi-pico-stubs`, so `time.ticks_ms` is known and a call
that the Pico does not have is an error.

    python tests/typecheck_firmware.py     (make lint runs it)
"""

import shutil
import subprocess
import sys
import sysconfig
import tempfile
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOARD_STUBS = "micropython-rp2-rpi_pico-stubs"
STDLIB_STUBS = "micropython-stdlib-stubs"


def board_stub_dir(into):
    """Copy the Pico's stub modules (and the shared _mpy_shed) into one folder, for MYPYPATH.

    Returns the top-level module names, whose own errors are the stub authors' to fix.
    """
    tops = set()
    for name in (BOARD_STUBS, STDLIB_STUBS):
        for f in metadata.distribution(name).files or []:
            if f.suffix == ".pyi" and (name == BOARD_STUBS or f.parts[0] == "_mpy_shed"):
                target = Path(into) / f
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(f.locate(), target)
                tops.add(f.parts[0].removesuffix(".pyi"))
    return sorted(tops)


def main():
    site = sysconfig.get_paths()["purelib"]
    with tempfile.TemporaryDirectory() as stubs:
        tops = board_stub_dir(stubs)
        config = Path(stubs) / "mypy.ini"
        config.write_text("[mypy]\n[mypy-%s]\nignore_errors = True\n"
                          % ",".join(t + "," + t + ".*" for t in tops))
        cmd = [sys.executable, "-m", "mypy", "--custom-typeshed-dir", site,
               "--python-version", "3.11", "--no-site-packages", "--explicit-package-bases",
               "--config-file", str(config),
               "--cache-dir", str(ROOT / ".mypy_cache" / "firmware"),
               "cheesefw", "main.py", "recover.py"]
        env = {"MYPYPATH": stubs, "PATH": "/usr/bin:/bin"}
        return subprocess.call(cmd, cwd=str(ROOT / "firmware"), env=env)


if __name__ == "__main__":
    sys.exit(main())
