"""The emulated Pico's flash: a 2 MB file, the image a Pico's QSPI flash holds.

A UF2 is laid onto it as a Pico in BOOTSEL mode does when the file is copied onto it: each
block's 256 bytes at its address, the rest of the flash (MicroPython's filesystem) untouched.
"""

import struct
from pathlib import Path

from cheeseboard.uf2 import uf2file

FLASH_SIZE = 2 * 1024 * 1024  # a Pico's W25Q16JV
FLASH_BASE = 0x10000000
RP2040_FAMILY = 0xE48BFF56
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
FLAG_NOT_MAIN_FLASH = 0x1
FLAG_FAMILY = 0x2000


class FlashImageError(Exception):
    """A UF2 or a flash image this emulated Pico cannot take."""


def uf2_blocks(data, name="the UF2"):
    """(flash offset, payload) of each block of a UF2 for the RP2040's flash."""
    if not data or len(data) % 512:
        raise FlashImageError("%s is not a UF2 file (its size is not a multiple of 512 bytes)"
                              % name)
    blocks = []
    numbered = []
    for start in range(0, len(data), 512):
        block = data[start:start + 512]
        magic0, magic1, flags, addr, size, number, count, family = struct.unpack_from("<8I", block)
        numbered.append((number, count))
        magic_end = struct.unpack_from("<I", block, 508)[0]
        if (magic0, magic1, magic_end) != UF2_MAGIC:
            raise FlashImageError("%s is not a UF2 file (block %d has no UF2 magic)"
                                  % (name, start // 512))
        if flags & FLAG_NOT_MAIN_FLASH:
            continue
        if flags & FLAG_FAMILY and family != RP2040_FAMILY:
            raise FlashImageError("%s is for another chip (UF2 family 0x%08x, an RP2040's is "
                                  "0x%08x): build it for a Pico" % (name, family, RP2040_FAMILY))
        offset = addr - FLASH_BASE
        if size > 476 or offset < 0 or offset + size > FLASH_SIZE:
            raise FlashImageError("%s writes outside a Pico's 2 MB flash (block %d at 0x%08x)"
                                  % (name, start // 512, addr))
        blocks.append((offset, block[32:32 + size]))
    gap = uf2file.missing(numbered)
    if gap:
        raise FlashImageError("%s: %s" % (name, gap))
    if not blocks:
        raise FlashImageError("%s holds nothing for the flash" % name)
    return blocks


def prepare(flash_path, uf2=None):
    """The flash image to boot: created erased (all 0xff) when missing, with the UF2's
    blocks laid on when one is given. Returns the path."""
    flash_path = Path(flash_path).resolve()  # (the emulator runs in a folder of its own)
    blocks = None
    if uf2:
        try:
            data = Path(uf2).read_bytes()
        except OSError as e:
            raise FlashImageError("%s: cannot read it (%s)" % (uf2, e.strerror or e)) from None
        blocks = uf2_blocks(data, str(uf2))
    if flash_path.exists():
        if flash_path.stat().st_size != FLASH_SIZE:
            raise FlashImageError("%s is not a Pico flash image (%d bytes, expected %d)"
                                  % (flash_path, flash_path.stat().st_size, FLASH_SIZE))
    elif blocks is None:
        raise FlashImageError("%s does not exist: give --uf2 PATH to start a Pico with that "
                              "firmware" % flash_path)
    else:
        flash_path.write_bytes(b"\xff" * FLASH_SIZE)
    if blocks:
        with open(flash_path, "r+b") as f:
            for offset, payload in blocks:
                f.seek(offset)
                f.write(payload)
    return flash_path
