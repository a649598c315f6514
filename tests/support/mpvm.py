"""Run code on the real MicroPython VM (the unix port), as the firmware runs on a board."""

import os
import subprocess
from pathlib import Path

from cheeseboard.sim.vmfiles import micropython_binary

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"

# The Raspberry Pi Pico's free heap, as the hardware profile states it.
PICO_HEAP = 200 * 1024


def run_mp(code, heap=PICO_HEAP, cwd=FIRMWARE, timeout=120, check=True, path=()):
    """Run `code` on MicroPython with the firmware importable; return its stdout as text.

    `path` puts more folders first on the import path (e.g. fakes of `machine`).
    The heap is capped with `-X heapsize` like the target board's. A non-zero exit
    raises AssertionError with stdout and stderr, unless check is False.
    """
    folders = [str(p) for p in path] + [str(FIRMWARE), ".frozen"]
    env = dict(os.environ, MICROPYPATH=":".join(folders))
    proc = subprocess.run(
        [micropython_binary(), "-X", "heapsize=%d" % heap, "-c", code],
        cwd=str(cwd),
        env=env,
        capture_output=True,
        timeout=timeout,
    )
    out = proc.stdout.decode("utf-8", "replace")
    if check and proc.returncode != 0:
        raise AssertionError(
            "micropython exited %d\n--- stdout\n%s\n--- stderr\n%s"
            % (proc.returncode, out, proc.stderr.decode("utf-8", "replace"))
        )
    return out
