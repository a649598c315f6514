"""The virtual board's flash: a folder that stays, as LittleFS does on a real board."""

import json
import shutil
import tempfile
from pathlib import Path

from cheeseboard import build, paths

PROFILE_FILE = "profile.json"


def _ignore(directory, names):
    return [n for n in names if n == "__pycache__" or n.endswith(".pyc")]


def install_firmware(flash_dir, profile, source=False):
    """Put the current firmware/ and the board's profile onto a flash folder.

    As a flashed board has it: modules compiled to .mpy (source=True copies the .py
    files instead, for reading tracebacks with line text or editing on the board).
    """
    flash_dir = Path(flash_dir)
    if source:
        shutil.copytree(paths.firmware_dir(), flash_dir, ignore=_ignore, dirs_exist_ok=True)
    else:
        build.build_tree(paths.firmware_dir(), flash_dir)
    (flash_dir / PROFILE_FILE).write_text(json.dumps(profile, indent=1))


def prepare(profile, flash=None, blank=False, source=False):
    """The flash folder to boot from: an existing one, a blank one, or a fresh copy."""
    if flash is not None:
        flash = Path(flash)
        if flash.exists() and not flash.is_dir():
            raise NotADirectoryError("--flash: %s is not a folder" % flash)
        fresh = not flash.exists()
        if blank and not fresh and any(flash.iterdir()):
            raise FileExistsError("--blank: the flash folder %s is not empty" % flash)
        flash.mkdir(parents=True, exist_ok=True)
        if fresh and not blank:
            install_firmware(flash, profile, source)
        return flash
    flash = Path(tempfile.mkdtemp(prefix="cheeseboard-flash-"))
    if not blank:
        install_firmware(flash, profile, source)
    return flash
