"""The game's journal on flash: one line per completed move, so a power cut loses nothing done.

The first line names the game, its options and the seed; each move appends one
line. Every line carries its own CRC-32, so a line torn by a power cut in the
middle of a write is recognised and dropped on resume: the game comes back at
its last completed move. Starting a new game replaces the file atomically
(write a temporary file, then rename it over the old one).
"""

import binascii
import json


def _line(obj):
    text = json.dumps(obj)
    return "%08x %s\n" % (binascii.crc32(text.encode()) & 0xFFFFFFFF, text)


def _parse(line):
    """The object in one journal line, or None when the line is torn or corrupt."""
    line = line.rstrip("\n")
    if len(line) < 10 or line[8] != " ":
        return None
    text = line[9:]
    if "%08x" % (binascii.crc32(text.encode()) & 0xFFFFFFFF) != line[:8]:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


class Journal:
    def __init__(self, board, name="journal.txt"):
        self.board = board
        self.name = name

    def start(self, header):
        """Begin a new game's journal: header is {"game": ..., "options": ..., "seed": ...}."""
        self.board.write_file(self.name, _line(header).encode())

    def append(self, move):
        """Record one completed move (an action, JSON-able)."""
        self.board.append_file(self.name, _line(move))

    def header(self):
        """The game's header, or None when there is no intact journal."""
        try:
            with self.board.open(self.name, "r") as f:
                header = _parse(f.readline())
        except (OSError, ValueError):  # no file, or bytes that are not even text
            return None
        return header if isinstance(header, dict) else None

    def replay(self, apply):
        """Feed every completed move to apply(move), one line at a time; return how many.

        Lines are read one by one, so a long game's journal never sits in the heap
        whole. Reading stops at the first torn line (anything after it was never
        completed), and the file is cut there, so the next move follows intact lines.
        """
        count = 0
        intact = 0
        torn = False
        with self.board.open(self.name, "r") as f:
            intact = len(f.readline())  # the header
            while True:
                try:
                    line = f.readline()
                except ValueError:  # bytes that are not text: torn mid-character
                    line = "?"
                if not line:
                    break
                move = _parse(line) if line.endswith("\n") else None
                if move is None:
                    torn = True
                    break
                apply(move)
                count += 1
                intact += len(line)
        if torn:
            self._cut(intact)
        return count

    def _cut(self, size):
        """Keep the first size characters of the journal (atomically, chunk by chunk)."""
        tmp = self.name + ".tmp"
        with self.board.open(self.name, "r") as src, self.board.open(tmp, "w") as dst:
            while size > 0:
                chunk = src.read(min(size, 512))
                if not chunk:
                    break
                dst.write(chunk)
                size -= len(chunk)
        self.board.rename(tmp, self.name)

    def clear(self):
        self.board.remove_file(self.name)
