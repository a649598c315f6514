"""The virtual board's flash: a folder that stays, as LittleFS does on a real board."""

import tempfile
from pathlib import Path

from cheeseboard import image

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
