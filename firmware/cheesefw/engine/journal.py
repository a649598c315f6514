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

    def load(self):
        """(header, [moves]) of the journal's intact part, or None when there is no game.

        Reading stops at the first torn line: anything after it was never completed.
        """
        data = self.board.read_file(self.name)
        if not data:
            return None
        lines = data.decode("utf-8", "replace").split("\n")
        header = _parse(lines[0])
        if not isinstance(header, dict):
            return None
        moves = []
        torn = False
        for line in lines[1:-1]:  # the text after the last newline is never complete
            obj = _parse(line)
            if obj is None:
                torn = True
                break
            moves.append(obj)
        if torn or lines[-1]:
            self._rewrite(header, moves)  # so that the next move appends after intact lines
        return header, moves

    def _rewrite(self, header, moves):
        text = _line(header) + "".join(_line(m) for m in moves)
        self.board.write_file(self.name, text.encode())

    def clear(self):
        self.board.remove_file(self.name)
