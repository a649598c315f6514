"""The game's journal on flash outside the filesystem, where the board keeps a region for it
(the cheeseboard UF2 on a Pico leaves one after LittleFS: host/cheeseboard/uf2/frozen_mount.py).

Why: LittleFS appends to a file by copying its last block to a freshly erased one, and an
erase holds the chip 45 ms with interrupts off (MicroPython writes its flash so). Here the
region is erased when a game starts, a long tick anyway, and each move's line is programmed
after the last: a page program, 0.4 ms. NOR flash's bits only go from 1 to 0, so a page is
programmed again, whole, as lines fill it; the bytes already in it stay as they are.

The region holds what journal.txt would, from its first byte: the header's line, then a line
per move, each with its CRC (engine/journal.py reads them by the same rule); erased bytes
(0xFF) after the last. A byte programmed to 0 (NUL) is no text. What a cut drops (the torn
line of a power cut, a line set aside and those after it) is programmed to NULs, which the
reader steps over, since flash cannot be written back to 1 without an erase; a journal whose
first byte is not text is none (clear() programs a NUL there).

A journal too long for the region goes on as journal.txt, copied there whole first. A
journal.txt with no game in the region (an older firmware's) is played on as a file too.
"""

from cheesefw import const
from cheesefw.engine.journal import Journal, _line, read_header, read_moves

_BLOCK = const(4096)  # the flash's erase unit, and its block device's block
_PAGE = const(256)  # its program unit: whole pages, from a page's start
_ERASED = b"\xff" * _PAGE


class FlashJournal:
    def __init__(self, board, flash, name="journal.txt"):
        self.board = board
        self.name = name
        self.flash = flash  # a block device over the region (rp2.Flash(start=, len=))
        self.size = flash.ioctl(4, 0) * _BLOCK
        self.file = Journal(board, name)  # for a journal longer than the region
        self.page = bytearray(_PAGE)  # the page being filled, as the flash holds it
        self.page_at = -1
        self.end = self._used()  # past the last byte programmed
        # No game in the region: the journal, if there is one, is the file
        self.in_file = not self._begun()

    def start(self, header):
        """Begin a new game's journal: every block the last one used erased, then its header."""
        self.file.clear()
        self._erase()
        self.in_file = False
        self._put(self.end, _line(header).encode())

    def append(self, *moves):
        """Record completed moves, a line each, in one program of a page or two."""
        if self.in_file:
            return self.file.append(*moves)
        data = "".join([_line(move) for move in moves]).encode()
        if self.end + len(data) > self.size:  # the region is full: the game goes on in a file
            self._copy_to(self.name, data)
            self.clear()
            return
        self._put(self.end, data)

    def header(self):
        """The game's header, or None when there is no intact journal."""
        if self.in_file:
            return self.file.header()
        try:
            return read_header(_Reader(self).readline)
        except ValueError:  # bytes that are not text
            return None

    def replay(self, apply):
        """Feed every completed move to apply(move) (as Journal.replay); a torn line and the
        lines after a bad one are blanked, so the next move follows intact lines."""
        if self.in_file:
            return self.file.replay(apply)
        reader = _Reader(self)
        count, _, torn, bad = read_moves(reader.readline, apply)
        if bad:
            self._keep_aside(bad)
        if torn:
            self._put(reader.line_at, bytes(self.end - reader.line_at))
        return count

    def set_aside(self, why=None):
        """Keep the journal aside, whole, as journal.txt.bad (engine/aside.py), and clear it."""
        if self.in_file:
            return self.file.set_aside(why)
        if self._begun():
            self._keep_aside(why)
            self.clear()

    def clear(self):
        if self.in_file:
            return self.file.clear()
        if self._begun():
            self._put(0, b"\0")
        self.in_file = True

    def _keep_aside(self, why):
        from cheesefw.engine import aside
        from cheesefw.modules import forget

        aside.set_aside(self.board, self.name, why, self._copy_to)
        forget("cheesefw.engine.aside")

    def _copy_to(self, name, more=b""):
        """Write the journal's lines, then more, to the file name (whole, then renamed)."""
        reader = _Reader(self)
        tmp = name + ".tmp"
        with self.board.open(tmp, "wb") as f:
            while True:
                line = reader.read_bytes(_PAGE)
                if not line:
                    break
                f.write(line)
            f.write(more)
        self.board.rename(tmp, name)

    # -- the flash ------------------------------------------------------------------

    def _begun(self):
        first = bytearray(1)
        self.flash.readblocks(0, first, 0)
        return first[0] not in (0xFF, 0)  # erased, or blanked: no journal begins there

    def _used(self):
        """Past the last byte that is not erased: pages are read until a blank one."""
        at = 0
        while at < self.size and not self._blank(at):
            at += _PAGE
        if at == 0:
            return 0
        self._read_page(at - _PAGE)
        return at - _PAGE + len(bytes(self.page).rstrip(b"\xff"))

    def _erase(self):
        """Erase every block not blank: the last journal's, and whatever a power cut in an
        erase may have left half done beyond it."""
        for block in range(self.size // _BLOCK):
            for at in range(block * _BLOCK, (block + 1) * _BLOCK, _PAGE):
                if not self._blank(at):
                    self.flash.ioctl(6, block)
                    break
        self.end = 0
        self.page_at = -1  # (the page read last may have been erased since)

    def _blank(self, at):
        """Whether the page at at is erased (read into self.page)."""
        self._read_page(at)
        return self.page == _ERASED

    def _read_page(self, at):
        self.flash.readblocks(at // _BLOCK, self.page, at % _BLOCK)
        self.page_at = at

    def _put(self, at, data):
        """Program data at at, a page at a time (each page whole, its other bytes as they
        were); the end moves past it."""
        done = 0
        while done < len(data):
            page_at = (at + done) - (at + done) % _PAGE
            if page_at != self.page_at:
                self._read_page(page_at)
            into = at + done - page_at
            n = min(_PAGE - into, len(data) - done)
            self.page[into:into + n] = data[done:done + n]
            self.flash.writeblocks(page_at // _BLOCK, self.page, page_at % _BLOCK)
            done += n
        self.end = max(self.end, at + done)


class _Reader:
    """The region's text as a file's readline gives it: the NULs before a line stepped over,
    up to the journal's end."""

    def __init__(self, journal):
        self.journal = journal
        self.page = bytearray(_PAGE)
        self.page_at = -1
        self.at = 0  # the next byte to read
        self.line_at = 0  # where the last line read began

    def readline(self, limit):
        """The next line, at most limit characters (ValueError: bytes that are not text)."""
        return str(self.read_bytes(limit), "utf-8")

    def read_bytes(self, limit):
        journal = self.journal
        line = b""
        while self.at < journal.end and len(line) < limit:
            page_at = self.at - self.at % _PAGE
            if page_at != self.page_at:
                journal.flash.readblocks(page_at // _BLOCK, self.page, page_at % _BLOCK)
                self.page_at = page_at
            chunk = bytes(self.page[self.at - page_at:min(_PAGE, journal.end - page_at)])
            if not line:  # a line's start: past what a cut blanked
                text = chunk.lstrip(b"\0")
                self.at += len(chunk) - len(text)
                if not text:
                    continue
                chunk = text
                self.line_at = self.at
            end = chunk.find(b"\n") + 1 or len(chunk)
            end = min(end, limit - len(line))
            line += chunk[:end]
            self.at += end
            if line.endswith(b"\n"):
                break
        return line
