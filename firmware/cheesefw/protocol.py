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
_MAX_ID = const(0x3FFFFFFF)


def checksum(text):
    """The frame checksum of a JSON text (bytes): CRC-32, 8 lowercase hex digits."""
    return "%08x" % (binascii.crc32(text) & 0xFFFFFFFF)


def frame(obj):
    """One protocol line (str, with newline) carrying obj as JSON."""
    text = json.dumps(obj)
    return "@%s %s\n" % (checksum(text.encode()), text)


class Server:
    """Takes console bytes as they come, answers each complete request line.

    handlers maps a command name to a function(request dict) -> reply dict; a
    handler raises ValueError for a request it refuses.
    """

    def __init__(self, write, handlers):
        self.write = write
        self.handlers = handlers
        self._line = bytearray()
        self._overflow = False

    def feed(self, data):
        """Take in console bytes; answer every request they complete."""
        data = bytes(data)
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
        if len(self._line) + end - start > _MAX_LINE:
            self._overflow = True  # drop the rest of this line, answer at its end
            self._line = bytearray()
            return
        self._line.extend(data[start:end])

    def _end_of_line(self):
        line, overflow = self._line, self._overflow
        self._line = bytearray()
        self._overflow = False
        if overflow:
            self._error(None, "line too long: at most %d bytes" % _MAX_LINE)
            return
        if line and line[-1] == 13:
            line = line[:-1]
        if not line:
            return  # a bare newline (mpremote sends \r before Ctrl-C): nothing to answer
        try:
            request = parse(line)
        except ValueError as e:
            self._error(None, str(e))
            return
        rid = request["id"]
        handler = self.handlers.get(request["cmd"])
        if handler is None:
            self._error(rid, "unknown command: %s" % request["cmd"])
            return
        try:
            reply = handler(request)
        except (ValueError, KeyError, TypeError) as e:
            self._error(rid, "%s: %s" % (request["cmd"], e))
            return
        except MemoryError:
            # No request changes the game (they read it, or the tables on flash, whose
            # changes are atomic): one that finds no heap mid-game is refused, never fatal.
            gc.collect()
            self._error(rid, "%s: out of memory on the board, nothing changed (the game goes "
                        "on; try again between games)" % request["cmd"])
            return
        reply["id"] = rid
        reply["ok"] = True
        self.write(frame(reply))

    def _error(self, rid, message):
        self.write(frame({"id": rid, "ok": False, "error": message}))


def parse(line):
    """A request dict from one line (bytes, no newline); ValueError says what is wrong."""
    for b in line:
        if b < 32 or b > 126:
            raise ValueError("not printable ASCII: byte 0x%02x" % b)
    if len(line) < 11 or line[0] != 64 or line[9] != 32:  # "@" + 8 hex + " "
        raise ValueError("bad frame: expected '@<crc32> <json>'")
    text = bytes(line[10:])
    got = bytes(line[1:9]).decode()
    if checksum(text) != got:
        raise ValueError("bad checksum: expected %s, got %s" % (checksum(text), got))
    try:
        request = json.loads(text)
    except ValueError:
        raise ValueError("bad JSON") from None
    if not isinstance(request, dict):
        raise ValueError("bad request: expected a JSON object")
    rid = request.get("id")
    if not isinstance(rid, int) or isinstance(rid, bool) or not 0 <= rid <= _MAX_ID:
        raise ValueError("bad id: expected an integer 0..%d" % _MAX_ID)
    if not isinstance(request.get("cmd"), str):
        raise ValueError("bad cmd: expected a string")
    return request
