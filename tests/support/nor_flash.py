"""A NOR flash as MicroPython's rp2.Flash shows it to Python, for the journal kept outside the
filesystem (cheesefw/engine/flash_journal.py), on CPython and on MicroPython's unix port alike.

What it keeps of a real one (a Pico's W25Q16JV, behind the boot ROM's flash_range_program):
blocks of 4 KB erased to 0xFF; a program of whole 256 B pages from a page's start, which only
clears bits (a byte programmed again keeps every 0 it had); writeblocks without an offset
erases first, with one it only programs. A power cut can come after any byte programmed:
that byte is left half programmed (its low bits still 1), the rest of the page as it was.
"""

BLOCK = 4096
PAGE = 256


class PowerCut(Exception):
    pass


class NorFlash:
    def __init__(self, blocks):
        self.mem = bytearray(b"\xff" * (blocks * BLOCK))
        self.erases = 0
        self.programmed = 0  # bytes programmed so far, every page's whole
        self.cut_at = -1  # the byte, counted so, at which the power goes (-1: never)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.mem) // BLOCK
        if op == 5:  # block size
            return BLOCK
        if op == 6:  # erase a block
            self.mem[arg * BLOCK:(arg + 1) * BLOCK] = b"\xff" * BLOCK
            self.erases += 1
            return 0
        return None

    def readblocks(self, block, buf, offset=0):
        at = block * BLOCK + offset
        assert 0 <= at and at + len(buf) <= len(self.mem), "a read past the flash's end"
        buf[:] = self.mem[at:at + len(buf)]

    def writeblocks(self, block, buf, offset=None):
        if offset is None:
            for b in range(block, block + (len(buf) + BLOCK - 1) // BLOCK):
                self.ioctl(6, b)
            offset = 0
        at = block * BLOCK + offset
        assert at % PAGE == 0 and len(buf) % PAGE == 0, "a program of whole pages, aligned"
        assert at + len(buf) <= len(self.mem), "a program past the flash's end"
        for i in range(len(buf)):
            if self.programmed == self.cut_at:
                self.mem[at + i] &= buf[i] | 0x0F
                raise PowerCut()
            self.mem[at + i] &= buf[i]
            self.programmed += 1
