"""A UF2 file read block by block (Microsoft's UF2 format, which a Pico's boot ROM takes in
BOOTSEL mode): 512-byte blocks, each with its magic numbers, its address in flash, 256 bytes
of payload and the family of chip it is for (RP2040: 0xe48bff56).

Used to refuse a UF2 for another board before it is copied or run, and by the tests to look
inside a built one.
"""

import struct

from cheeseboard.uf2.source import UF2Error

BLOCK = 512
MAGIC_START = (0x0A324655, 0x9E5D5157)
MAGIC_END = 0x0AB16F30
FLAG_FAMILY = 0x00002000  # the block names its chip family
FLAG_NOT_MAIN_FLASH = 0x00000001
RP2040 = 0xE48BFF56
FAMILIES = {  # a few others, to say what a refused file is for
    RP2040: "RP2040",
    0xE48BFF59: "RP2350 (ARM, secure)",
    0xE48BFF5A: "RP2350 (RISC-V)",
    0xE48BFF5B: "RP2350 (ARM, non-secure)",
    0xE48BFF57: "an absolute address block (RP2350's)",
    0x1C5F21B0: "ESP32",
    0x68ED2B88: "SAMD21",
    0x55114460: "SAMD51",
    0xADA52840: "nRF52840",
    0x57755A57: "STM32F4",
}
FLASH_START = 0x10000000  # an RP2040's flash, as the CPU sees it (XIP)
_HEADER = struct.Struct("<8I")


class UF2FileError(UF2Error):
    """Not a UF2, or not one for a Pico (RP2040)."""


def blocks(data):
    """[(address, payload bytes, family or None)] of every block, in file order."""
    if not data or len(data) % BLOCK:
        raise UF2FileError("not a UF2 file: %d bytes, not a whole number of %d-byte blocks"
                           % (len(data), BLOCK))
    out = []
    numbered = []
    for i in range(0, len(data), BLOCK):
        m0, m1, flags, address, size, number, count, family = _HEADER.unpack_from(data, i)
        numbered.append((number, count))
        end = struct.unpack_from("<I", data, i + BLOCK - 4)[0]
        if (m0, m1) != MAGIC_START or end != MAGIC_END:
            raise UF2FileError("not a UF2 file: block %d has no UF2 magic numbers" % (i // BLOCK))
        if size > 476:
            raise UF2FileError("not a UF2 file: block %d claims %d bytes of payload"
                               % (i // BLOCK, size))
        if flags & FLAG_NOT_MAIN_FLASH:
            continue
        out.append((address, data[i + 32:i + 32 + size], family if flags & FLAG_FAMILY else None))
    gap = missing(numbered)
    if gap:
        raise UF2FileError(gap)
    return out


def missing(numbered):
    """What is missing from a UF2 whose blocks are [(block number, total blocks)], in one
    line, or None when they are whole: every block says how many the file has, and a file cut
    short (a copy interrupted, a download cut) lacks some of them."""
    counts = {count for _, count in numbered}
    if len(counts) != 1:
        return "not one UF2: its blocks disagree on how many there are (%s)" % ", ".join(
            str(c) for c in sorted(counts)[:4])
    count = counts.pop()
    if sorted(n for n, _ in numbered) != list(range(count)):
        return "a UF2 cut short or mixed: %d blocks, its header says %d" % (len(numbered), count)
    return None


def image(data):
    """The flash contents the UF2 writes, from its first address: (start address, bytes)."""
    parts = sorted((a, p) for a, p, _ in blocks(data))
    start = parts[0][0]
    out = bytearray()
    for address, payload in parts:
        offset = address - start
        if offset > len(out):
            out.extend(b"\xff" * (offset - len(out)))
        out[offset:offset + len(payload)] = payload
    return start, bytes(out)


def check_rp2040(path):
    """Refuse, in one line, a file that is not a UF2 for an RP2040 (a Pico); returns its
    blocks."""
    try:
        data = open(path, "rb").read()
    except OSError as e:
        raise UF2FileError("%s: cannot read it (%s)" % (path, e.strerror)) from None
    try:
        found = blocks(data)
    except UF2FileError as e:
        raise UF2FileError("%s: %s" % (path, e)) from None
    if not found:
        raise UF2FileError("%s: a UF2 with nothing for the chip's flash in it" % path)
    families = {f for _, _, f in found}
    if families != {RP2040}:
        names = ", ".join(sorted(FAMILIES.get(f, "family 0x%08x" % f) if f is not None
                                 else "no family" for f in families))
        raise UF2FileError("%s: a UF2 for %s, not for a Pico (RP2040): build one with "
                           "`cheeseboard uf2`" % (path, names))
    low = min(a for a, _, _ in found)
    if low < FLASH_START:
        raise UF2FileError("%s: writes to 0x%08x, below a Pico's flash (0x%08x)"
                           % (path, low, FLASH_START))
    return found
