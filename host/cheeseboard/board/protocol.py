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


def _refusal(cmd, reply):
    """The ProtocolError of a reply that refuses cmd, its error said once."""
    error = str(reply.get("error", "refused"))
    return ProtocolError(error if error.startswith(cmd + ":") else "%s: %s" % (cmd, error))


def _no_answer(seconds):
    return NoAnswer("no answer from the board within %.1fs (is main.py running?)" % seconds)


def asking_again(first, most=2.0):
    """How long to wait before asking again, each time: `first` seconds, then twice as long
    each time, up to `most` (a board that boots loses what it is asked; a slow one answers
    every copy, so the copies must not come faster than it answers)."""
    wait = first
    while True:
        yield wait
        wait = min(2 * wait, most)


class Client:
    """Talks the protocol over an open serial port (a pyserial `Serial`)."""

    def __init__(self, serial, timeout=5.0):
        self.serial = serial
        self.timeout = timeout
        self._next_id = 1
        self._buf = b""
        # True: a request the board echoes back means no reply is coming (the friendly REPL
        # echoes what it is sent, as typed; a firmware never does), so it is not waited out.
        self.echo_means_no_reply = False
        self._last_sent = None
        # Ids of a question's copies once one of them was answered: a slow board may still
        # answer the others, and those replies belong to no one.
        self._answered_copies = set()

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
                sent.append((self._send(cmd, args), cmd))
            if sent and (len(sent) >= window or i >= len(requests) - 1):
                rid, cmd = sent.pop(0)
                reply = self.read_reply(rid)
                if not reply.get("ok") and failure is None:
                    failure = _refusal(cmd, reply)
                replies.append(reply)
        if failure:
            raise failure
        return replies

    def ask_until_answered(self, cmd, seconds, again_after=0.25, again_most=2.0):
        """The reply to `cmd`, asked again each time no answer came (a request that reaches
        a board while it boots is lost), waiting twice as long each time up to again_most.
        A reply to any of the copies is the answer, so a slow board's late one still counts.
        NoAnswer after `seconds` without one."""
        deadline = time.monotonic() + seconds
        asked = set()
        waits = asking_again(again_after, again_most)
        while True:
            asked.add(self._send(cmd, {}))
            until = min(deadline, time.monotonic() + next(waits))
            while True:
                line = self._readline(until)
                if line is None:
                    break
                try:
                    reply = decode(line)
                except (ProtocolError, ValueError):  # a line a reset cut short, say: noise
                    continue
                if self._late_copy(reply):
                    continue
                if reply is not None and reply.get("id") in asked:
                    self._answered_copies |= asked - {reply["id"]}
                    if not reply.get("ok"):
                        raise _refusal(cmd, reply)
                    return reply
            if time.monotonic() >= deadline:
                raise _no_answer(seconds)

    def _send(self, cmd, args):
        """Write one request; its id."""
        rid = self._next_id
        self._next_id = self._next_id % 0x3FFFFFFF + 1
        line = encode(dict(args, id=rid, cmd=cmd))
        self.serial.write(line)
        self._last_sent = line.rstrip(b"\n")
        return rid

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
                raise _no_answer(self.timeout if timeout is None else timeout)
            reply = decode(line)
            if self._late_copy(reply):
                continue
            # Errors for lines the board could not read carry no id: when waiting
            # for a given request they belong to something else (noise, a stale line).
            if reply is not None and (rid is None or reply.get("id") == rid):
                return reply

    def _late_copy(self, reply):
        """Whether reply answers a copy of a question already answered (then forgotten: an
        id comes round again)."""
        copy = reply.get("id") if reply is not None else None
        if type(copy) is int and copy in self._answered_copies:
            self._answered_copies.discard(copy)
            return True
        return False

    def _readline(self, deadline):
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.serial.timeout = min(left, 0.1)
            chunk = self.serial.read(self.serial.in_waiting or 1)
            self._buf += chunk
            if self.echo_means_no_reply and self._last_sent in self._buf:
                return None
        line, _, self._buf = self._buf.partition(b"\n")
        return line
