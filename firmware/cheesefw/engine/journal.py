"""The game's journal on flash: one line per completed move, so a power cut loses nothing done.

The first line names the game, its options and the seed; each move appends one
line. Every line carries its own CRC-32, so a line torn by a power cut in the
middle of a write is recognised and dropped on resume: the game comes back at
its last completed move. Starting a new game replaces the file atomically
(write a temporary file, then rename it over the old one).

A line whose CRC holds but which is no move (too long, nested too deep, not JSON: written
by something else than this firmware) is corruption, not a power cut: the file is kept
whole beside the journal (engine/aside.py), and the game resumes at the whole lines before
it. Every line is read within a bound, so no journal can take more heap than a move does.
"""

import binascii
import json

from cheesefw import const

_MAX_LINE = const(1024)  # characters of one line (a header with every option: under 300)
_MAX_BRACKETS = const(32)  # [ and { in one line (a move nests 3 deep at most)


def _line(obj):
    text = json.dumps(obj)
    return "%08x %s\n" % (binascii.crc32(text.encode()) & 0xFFFFFFFF, text)


def _parse(line):
    """The object in one journal line; None when the line is torn (a power cut cut it off: no
    end, or its CRC does not match); ValueError when it is whole but no move."""
    if not line.endswith("\n"):
        if len(line) > _MAX_LINE:
            raise ValueError
        return None
    line = line[:-1]
    if len(line) < 10 or line[8] != " ":
        return None
    text = line[9:]
    if "%08x" % (binascii.crc32(text.encode()) & 0xFFFFFFFF) != line[:8]:
        return None
    if text.count("[") + text.count("{") > _MAX_BRACKETS:  # json.loads would need its heap
        raise ValueError
    return json.loads(text)


def read_header(readline):
    """The header on a journal's first line ({"game": ..., ...}), or None when it has none."""
    try:
        header = _parse(readline(_MAX_LINE + 1))
    except ValueError:  # whole, but no header
        return None
    return header if isinstance(header, dict) else None


def read_moves(readline, apply):
    """The rule for reading a journal, the board's and `cheeseboard replay`'s both: feed every
    completed move after the header to apply(move), one line at a time (readline(n): the next
    line, at most n characters). Reading stops at the first torn line (a power cut: anything
    after it was never completed) and at the first whole line that is no move (corruption).
    Returns (moves fed, characters of the lines before the stop, header included, whether a
    line stopped it, the number of the line that is no move or 0)."""
    count = 0
    intact = len(readline(_MAX_LINE + 1))  # the header
    while True:
        try:
            line = readline(_MAX_LINE + 1)
        except ValueError:  # bytes that are not text: torn mid-character
            line = "?"
        if not line:
            return count, intact, False, 0
        try:
            move = _parse(line)
        except ValueError:
            return count, intact, True, count + 2
        if move is None:
            return count, intact, True, 0
        apply(move)
        count += 1
        intact += len(line)


class Journal:
    def __init__(self, board, name="journal.txt"):
        self.board = board
        self.name = name

    def start(self, header):
        """Begin a new game's journal: header is {"game": ..., "options": ..., "seed": ...}."""
        self.board.write_file(self.name, _line(header).encode())

    def append(self, *moves):
        """Record completed moves (actions, JSON-able), a line each, in one write: a deal's
        cards cost one append, not one each (an append opens the file: on LittleFS a walk of
        its metadata). A power cut in the write keeps the whole lines before it."""
        self.board.append_file(self.name, "".join([_line(move) for move in moves]))

    def header(self):
        """The game's header, or None when there is no intact journal."""
        try:
            with self.board.open(self.name, "r") as f:
                return read_header(f.readline)
        except (OSError, ValueError):  # no file, bytes that are not even text
            return None

    def replay(self, apply):
        """Feed every completed move to apply(move), one line at a time; return how many.

        Lines are read one by one, so a long game's journal never sits in the heap
        whole. Reading stops at the first torn line (anything after it was never
        completed), and the file is cut there, so the next move follows intact lines.
        A line that is no move stops it too, the file kept first (set_aside).
        """
        with self.board.open(self.name, "r") as f:
            count, intact, torn, bad = read_moves(f.readline, apply)
        if bad:  # the whole file kept aside, the lines before the bad one played on
            self.set_aside(bad)
            self._cut(intact, self.name + ".bad")
        elif torn:
            self._cut(intact)
        return count

    def set_aside(self, why=None):
        """Keep the journal aside, whole (engine/aside.py: why is the number of its bad line,
        the error its replay raised, or None: its first line names no game)."""
        try:
            self.board.open(self.name, "r").close()
        except OSError:  # no journal: nothing to keep (every boot without a game)
            return
        from cheesefw.engine import aside
        from cheesefw.modules import forget

        aside.set_aside(self.board, self.name, why)
        forget("cheesefw.engine.aside")  # (rare: its code goes once it has run)

    def _cut(self, size, source=None):
        """Keep the first size characters of the journal (or of source: a journal set aside),
        atomically, chunk by chunk."""
        tmp = self.name + ".tmp"
        with self.board.open(source or self.name, "r") as src, self.board.open(tmp, "w") as dst:
            while size > 0:
                chunk = src.read(min(size, 512))
                if not chunk:
                    break
                dst.write(chunk)
                size -= len(chunk)
        self.board.rename(tmp, self.name)

    def clear(self):
        self.board.remove_file(self.name)
