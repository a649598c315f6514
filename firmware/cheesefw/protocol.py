"""The serial protocol, board side: line-framed ASCII JSON with a request id and a checksum.

    request:  @<crc32 of the JSON, 8 lowercase hex> {"id": 7, "cmd": "hello", ...}\\n
    reply:    @<crc32 of the JSON> {"id": 7, "ok": true, ...}\\n
    error:    @<crc32 of the JSON> {"id": 7, "ok": false, "error": "..."}\\n

Lines are at most _MAX_LINE (1024) bytes of printable ASCII, so they never hold 0x03 or
0x04 and Ctrl-C from mpremote still stops main.py. A line that is too long, not
ASCII, badly framed, fails its checksum or names an unknown command gets an
error reply and changes nothing. Received text is parsed as JSON, never run.

A board no host talks to keeps neither the line's buffer nor the code that reads a request
(cheesefw.request_line): both come with the first line, and stay.
"""

from cheesefw import const

_MAX_LINE = const(1024)


class Server:
    """Takes console bytes as they come, answers each complete request line.

    handlers maps a command name to a function(request dict) -> reply dict; a handler raises
    ValueError for a request it refuses. Whatever a handler raises is an answer, never a fall
    of the board: a request, whatever its fields hold, cannot end the program.
    """

    def __init__(self, write, handlers):
        self.write = write
        self.handlers = handlers
        # The line is assembled in one buffer, made at the first byte and kept: a long `put`
        # line then needs no block of its size while the board plays (a heap-tight board may
        # have none).
        self._line = None
        self._length = 0
        self._overflow = None  # why the rest of this line is dropped (answered at its end)

    def feed(self, data):
        """Take in console bytes; answer every request they complete."""
        data = bytes(data)  # (the same object when it is bytes already)
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                self._add(data, start, len(data))
                return
            self._add(data, start, end)
            self._end_of_line()
            start = end + 1

    def _add(self, data, start, end):
        if self._overflow or start == end:
            return
        if self._line is None:
            try:
                self._line = bytearray(_MAX_LINE)
            except MemoryError:
                self._overflow = "out of memory on the board: no room for the line, nothing changed"
                return
        length = self._length + end - start
        if length > _MAX_LINE:
            self._overflow = "line too long: at most %d bytes" % _MAX_LINE
            self._length = 0
            return
        self._line[self._length:length] = memoryview(data)[start:end]
        self._length = length

    def _end_of_line(self):
        length, overflow = self._length, self._overflow
        self._length = 0
        self._overflow = None
        if overflow:
            self.error(None, overflow)
            return
        if length and self._line[length - 1] == 13:
            length -= 1
        if not length:
            return  # a bare newline (mpremote sends \r before Ctrl-C): nothing to answer
        try:
            from cheesefw import request_line  # (imported at the first line, and kept)
        except MemoryError:
            return  # no heap for it: the host's request times out, and the board plays on
        request_line.answer(self, memoryview(self._line)[:length])

    def error(self, rid, message):
        """An error reply (cheesefw.request_line.error)."""
        try:
            from cheesefw import request_line
        except MemoryError:
            return
        request_line.error(self.write, rid, message)
