"""One request line of the serial protocol read and answered (cheesefw.protocol's framing): its
frame, checksum and JSON checked, its handler run, whatever that raises turned into the answer.
Imported at the first line a host sends (protocol.Server), so that a board no host talks to
keeps this code's heap and names for play."""

import binascii
import gc
import json

MAX_ID = 0x3FFFFFFF  # a request id, and a count a request may name (a small int at 32 bits)


NO_HEAP = "out of memory on the board, nothing changed (the game goes on; try again between games)"


def checksum(text):
    """The frame checksum of a JSON text (bytes): CRC-32, 8 lowercase hex digits."""
    return "%08x" % (binascii.crc32(text) & 0xFFFFFFFF)


def frame(obj):
    """One protocol line (str, with newline) carrying obj as JSON."""
    text = json.dumps(obj)
    return "@%s %s\n" % (checksum(text.encode()), text)


def error(write, rid, message):
    """Write an error reply (tried a second time after a collection: it is small)."""
    for _ in range(2):
        try:
            write(frame({"id": rid, "ok": False, "error": message}))
            return
        except MemoryError:
            gc.collect()
    # No heap even for that: the host's request times out, and the board plays on.


def answer(server, line):
    """Answer one line (bytes, no newline) through server's handlers and write."""
    rid = cmd = request = reply = None
    try:
        request = parse(line)
        rid, cmd = request["id"], request["cmd"]
        handler = server.handlers.get(cmd)
        if handler is None:
            error(server.write, rid, "unknown command: %s" % cmd)
            return
        reply = handler(request)
        request = None
        reply["id"] = rid
        reply["ok"] = True
        server.write(frame(reply))
    except MemoryError:
        # No request changes the game (they read it, or the tables on flash, whose
        # changes are atomic): one that finds no heap is refused, never fatal.
        request = reply = None
        gc.collect()
        error(server.write, rid, NO_HEAP if cmd is None else "%s: %s" % (cmd, NO_HEAP))
    except Exception as e:  # noqa: BLE001 (whatever a request trips is its answer)
        text = str(e)
        if cmd is not None and not isinstance(e, (ValueError, KeyError, TypeError)):
            kind = type(e).__name__  # not a handler's refusal: say what it tripped on
            text = "%s: %s" % (kind, text) if text else kind
        error(server.write, rid, text if cmd is None else "%s: %s" % (cmd, text))


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
