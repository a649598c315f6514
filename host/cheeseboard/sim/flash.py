"""The virtual board's flash: a folder that stays, as LittleFS does on a real board."""

import json
import shutil
import tempfile
from pathlib import Path

from cheeseboard import paths

PROFILE_FILE = "profile.json"


def _ignore(directory, names):
    return [n for n in names if n == "__pycache__" or n.endswith(".pyc")]


def install_firmware(flash_dir, profile):
    """Copy the current firmware/ and the board's profile onto a flash folder."""
    flash_dir = Path(flash_dir)
    shutil.copytree(paths.firmware_dir(), flash_dir, ignore=_ignore, dirs_exist_ok=True)
    (flash_dir / PROFILE_FILE).write_text(json.dumps(profile, indent=1))


def prepare(profile, flash=None, blank=False):
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
            install_firmware(flash, profile)
        return flash
    flash = Path(tempfile.mkdtemp(prefix="cheeseboard-flash-"))
    if not blank:
        install_firmware(flash, profile)
    return flash
