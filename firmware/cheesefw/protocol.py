"""The serial protocol, board side: line-framed ASCII JSON with a request id and a checksum.

    request:  @<crc32 of the JSON, 8 lowercase hex> {"id": 7, "cmd": "hello", ...}\\n
    reply:    @<crc32 of the JSON> {"id": 7, "ok": true, ...}\\n
    error:    @<crc32 of the JSON> {"id": 7, "ok": false, "error": "..."}\\n

Lines are at most _MAX_LINE (1024) bytes of printable ASCII, so they never hold 0x03 or
0x04 and Ctrl-C from mpremote still stops main.py. A line that is too long, not
ASCII, badly framed, fails its checksum or names an unknown command gets an
error reply and changes nothing. Received text is parsed as JSON, never run.
"""

import binascii
import gc
import json

from cheesefw import const

_MAX_LINE = const(1024)
MAX_ID = 0x3FFFFFFF  # a request id, and a count a request may name (a small int at 32 bits)


def checksum(text):
    """The frame checksum of a JSON text (bytes): CRC-32, 8 lowercase hex digits."""
    return "%08x" % (binascii.crc32(text) & 0xFFFFFFFF)


def frame(obj):
    """One protocol line (str, with newline) carrying obj as JSON."""
    text = json.dumps(obj)
    return "@%s %s\n" % (checksum(text.encode()), text)


class Server:
    """Takes console bytes as they come, answers each complete request line.

    handlers maps a command name to a function(request dict) -> reply dict; a handler raises
    ValueError for a request it refuses. Whatever a handler raises is an answer, never a fall
    of the board: a request, whatever its fields hold, cannot end the program.
    """

    def __init__(self, write, handlers):
        self.write = write
        self.handlers = handlers
        # The line is assembled in one buffer made at power-on: a long `put` line then needs
        # no block of its size while the board plays (a heap-tight board may have none).
        self._line = bytearray(_MAX_LINE)
        self._length = 0
        self._overflow = False

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
        length = self._length + end - start
        if length > _MAX_LINE:
            self._overflow = True  # drop the rest of this line, answer at its end
            self._length = 0
            return
        self._line[self._length:length] = memoryview(data)[start:end]
        self._length = length

    def _end_of_line(self):
        length, overflow = self._length, self._overflow
        self._length = 0
        self._overflow = False
        if overflow:
            self._error(None, "line too long: at most %d bytes" % _MAX_LINE)
            return
        if length and self._line[length - 1] == 13:
            length -= 1
        if not length:
            return  # a bare newline (mpremote sends \r before Ctrl-C): nothing to answer
        rid = cmd = request = reply = None
        try:
            request = parse(memoryview(self._line)[:length])
            rid, cmd = request["id"], request["cmd"]
            handler = self.handlers.get(cmd)
            if handler is None:
                self._error(rid, "unknown command: %s" % cmd)
                return
            reply = handler(request)
            request = None
            reply["id"] = rid
            reply["ok"] = True
            self.write(frame(reply))
        except MemoryError:
            # No request changes the game (they read it, or the tables on flash, whose
            # changes are atomic): one that finds no heap is refused, never fatal.
            request = reply = None
            gc.collect()
            self._error(rid, _NO_HEAP if cmd is None else "%s: %s" % (cmd, _NO_HEAP))
        except Exception as e:  # noqa: BLE001 (whatever a request trips is its answer)
            text = str(e)
            if cmd is not None and not isinstance(e, (ValueError, KeyError, TypeError)):
                kind = type(e).__name__  # not a handler's refusal: say what it tripped on
                text = "%s: %s" % (kind, text) if text else kind
            self._error(rid, text if cmd is None else "%s: %s" % (cmd, text))

    def _error(self, rid, message):
        for _ in range(2):  # (a second time after a collection: an error reply is small)
            try:
                self.write(frame({"id": rid, "ok": False, "error": message}))
                return
            except MemoryError:
                gc.collect()
        # No heap even for that: the host's request times out, and the board plays on.


_NO_HEAP = "out of memory on the board, nothing changed (the game goes on; try again between games)"


def number(request, field, lo, hi, default=None):
    """request[field] as an int within lo..hi (default when absent and a default is given);
    ValueError otherwise. Every numeric field of a request is read through this: a value past
    what the board can index (an offset of 2**63) is refused here, never tripped over later."""
    value = request.get(field, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError("%s: expected an integer %d..%d, got %s"
                         % (field, lo, hi, repr(value)[:24]))
    return value


def parse(line):
    """A request dict from one line (bytes, no newline); ValueError says what is wrong."""
    for b in line:
        if b < 32 or b > 126:
            raise ValueError("not printable ASCII: byte 0x%02x" % b)
    if len(line) < 11 or line[0] != 64 or line[9] != 32:  # "@" + 8 hex + " "
        raise ValueError("bad frame: expected '@<crc32> <json>'")
    text = line[10:]
    got = bytes(line[1:9]).decode()
    if checksum(text) != got:
        raise ValueError("bad checksum: expected %s, got %s" % (checksum(text), got))
    try:
        request = json.loads(text)
    except ValueError:
        raise ValueError("bad JSON") from None
    if not isinstance(request, dict):
        raise ValueError("bad request: expected a JSON object")
    try:
        number(request, "id", 0, MAX_ID)
    except ValueError:
        raise ValueError("bad id: expected an integer 0..%d" % MAX_ID) from None
    if not isinstance(request.get("cmd"), str):
        raise ValueError("bad cmd: expected a string")
    return request
