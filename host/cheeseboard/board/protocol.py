"""The serial protocol, host side: requests out, replies back, over any serial port.

The framing is the firmware's (firmware/cheesefw/protocol.py): one line each,
`@<crc32 of the JSON> <JSON>`. Lines that are not replies (a traceback, a
print) are skipped; a reply with a bad checksum is an error.
"""

import binascii
import json
import time

from cheeseboard import CheeseboardError


class ProtocolError(CheeseboardError):
    """The board refused a request, or did not answer it properly."""


class NoAnswer(ProtocolError):
    """The board said nothing in time (a firmware stopped at the REPL, or not running)."""


def checksum(text):
    return "%08x" % (binascii.crc32(text) & 0xFFFFFFFF)


def encode(obj):
    text = json.dumps(obj, separators=(",", ":")).encode("ascii")
    return b"@" + checksum(text).encode() + b" " + text + b"\n"


def decode(line):
    """The reply object in one line (bytes), None when the line is not a protocol line."""
    line = line.strip()
    if not line.startswith(b"@") or len(line) < 11 or line[9:10] != b" ":
        return None
    text = line[10:]
    if checksum(text).encode() != line[1:9]:
        raise ProtocolError("reply with a bad checksum: %r" % line[:80])
    return json.loads(text)


class Client:
    """Talks the protocol over an open serial port (a pyserial `Serial`)."""

    def __init__(self, serial, timeout=5.0):
        self.serial = serial
        self.timeout = timeout
        self._next_id = 1
        self._buf = b""

    def request(self, cmd, **args):
        """Send a request; return the board's reply, or raise ProtocolError."""
        return self.pipeline([(cmd, args)])[0]

    def pipeline(self, requests, window=4):
        """Send requests [(cmd, args)], up to `window` ahead of their replies; the replies.

        Keeping a few requests in flight keeps the wire busy while the board answers, which
        matters on a slow UART. The first refusal raises ProtocolError (later requests that
        were already sent are still answered and read).
        """
        sent = []  # (id, cmd) in flight
        replies = []
        failure = None
        for i in range(len(requests) + window):
            if i < len(requests):
                cmd, args = requests[i]
                rid = self._next_id
                self._next_id = self._next_id % 0x3FFFFFFF + 1
                self.serial.write(encode(dict(args, id=rid, cmd=cmd)))
                sent.append((rid, cmd))
            if sent and (len(sent) >= window or i >= len(requests) - 1):
                rid, cmd = sent.pop(0)
                reply = self.read_reply(rid)
                if not reply.get("ok") and failure is None:
                    error = str(reply.get("error", "refused"))
                    said = error if error.startswith(cmd + ":") else "%s: %s" % (cmd, error)
                    failure = ProtocolError(said)
                replies.append(reply)
        if failure:
            raise failure
        return replies

    def discard(self):
        """Forget what the board sent so far (what a REPL echoed, say): replies start afresh."""
        self._buf = b""
        self.serial.reset_input_buffer()

    def read_reply(self, rid=None, timeout=None):
        """The next reply (with id rid, if given)."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            line = self._readline(deadline)
            if line is None:
                raise NoAnswer(
                    "no answer from the board within %.1fs (is main.py running?)"
                    % (self.timeout if timeout is None else timeout)
                )
            reply = decode(line)
            # Errors for lines the board could not read carry no id: when waiting
            # for a given request they belong to something else (noise, a stale line).
            if reply is not None and (rid is None or reply.get("id") == rid):
                return reply

    def _readline(self, deadline):
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.serial.timeout = min(left, 0.1)
            chunk = self.serial.read(self.serial.in_waiting or 1)
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line
