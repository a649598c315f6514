"""The virtual board's flash: a folder that stays, as LittleFS does on a real board."""

import fcntl
import json
import os
import shutil
from pathlib import Path

import platformdirs

from cheeseboard import CheeseboardError
from cheeseboard.flash import image

# The filesystem MicroPython makes on each platform's reference board (RPI_PICO: 1408 KB of
# its 2 MB flash; ESP32_GENERIC: the 2 MB "vfs" partition of 4 MB; CircuitPython on a Pico:
# about 1 MB of CIRCUITPY).
FILESYSTEM = {"rp2": 1408 * 1024, "esp32": 2048 * 1024, "circuitpython": 1024 * 1024}


def install_firmware(flash_dir, profile, source=False):
    """Lay the current firmware/ and the board's profile onto a flash folder, as
    `cheeseboard flash` leaves a board: the loader at the root, the firmware in slot_a/
    with its modules compiled to .mpy (source=True keeps the .py files, for reading
    tracebacks with line text or editing on the board)."""
    arch = None  # the virtual board runs on this machine's CPU: .mpy bytecode for any
    image.write_to_folder(image.make(profile, arch, source=source), flash_dir)


def default_folder(profile):
    """The flash of the board `cheeseboard sim` (and `make play`) starts when given no --flash:
    one per profile in the user's data folder, so a game in progress resumes next time."""
    return Path(platformdirs.user_data_dir("cheeseboard")) / "boards" / profile["name"]


def refresh_firmware(flash_dir, profile, source=False):
    """Put the current firmware/ into a board's flash, keeping its synced tables and its game
    (as a flash does). Returns True when the firmware changed."""
    built = image.make(profile, None, source=source)
    try:
        state = json.loads((Path(flash_dir) / image.STATE).read_text())
    except (OSError, ValueError):
        state = {}
    if state.get("build") == built.build_id:
        return False
    image.write_to_folder(built, flash_dir)
    return True


class FlashInUse(CheeseboardError):
    """Another virtual board runs from this flash folder."""


def lock(flash_dir):
    """Hold the flash folder for this process (released when it exits): two VMs writing one
    flash would corrupt it, and the second would remove the first one's side channel."""
    path = Path(str(flash_dir).rstrip("/") + ".lock")
    handle = open(path, "a+")  # held open for the life of the process
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        owner = handle.read().strip() or "?"
        handle.close()
        raise FlashInUse("the flash folder %s is in use by another virtual board (pid %s): "
                         "stop that one, or give another --flash" % (flash_dir, owner)) from None
    handle.truncate(0)
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


def forget(flash_dir):
    """Empty a board's flash (its game, its synced tables, its firmware)."""
    shutil.rmtree(flash_dir, ignore_errors=True)


def prepare(profile, flash, blank=False, source=False):
    """The flash folder to boot from: an existing one, or a new one with the firmware (or
    empty, with blank)."""
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
