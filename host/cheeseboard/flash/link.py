"""A board's raw REPL, through mpremote's serial transport, with the flash agent loaded.

mpremote opens the port, stops the running program and enters the raw REPL (as users
know it to do); the agent (agent.py, sent once) then does the board's half of
flashing, called by name, and answers one JSON line per call. File data goes around
mpremote's repr-based writes: compressed, streamed to the agent in blocks, each block
acknowledged, which keeps a UART board's small input buffer from overflowing.
"""

import ast
import base64
import hashlib
import json
import time
import zlib
from pathlib import Path

from cheeseboard import CheeseboardError
from cheeseboard.board import ports
from cheeseboard.flash import SILENCE


def _compact(source):
    """Python source without its comments and docstrings: fewer bytes to send each time."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    lines = ast.unparse(tree).split("\n")  # and one space a level (it has no multi-line strings)
    return (
        "\n".join(" " * ((len(x) - len(x.lstrip(" "))) // 4) + x.lstrip(" ") for x in lines) + "\n"
    )


AGENT = _compact((Path(__file__).parent / "agent.py").read_text())
# Bytes per acknowledged block: a whole block fits the smallest console input buffer
# (an ESP32's UART: 260 bytes), so none is lost while the board writes to its flash.
WIRE_BLOCK = 256
# Blocks sent ahead of the board's acknowledgements, by its sys.platform (else 1: each block
# waits for the last one's). A Pico's console is USB CDC: while MicroPython's input buffer is
# full, TinyUSB takes no more packets from the host, which waits (flow control), so nothing
# is lost however far ahead it sends, and no block waits for a round trip. A board behind a
# UART bridge (most ESP32s) has no such brake: one block at a time.
WINDOW = {"rp2": 16}
WBITS = 10  # deflate window: 1 KB of the board's heap while a file is unpacked
ACK_TIMEOUT = 10.0


class LinkError(CheeseboardError):
    """The board cannot be reached, is not running MicroPython, or failed a step."""


class Silent(LinkError):
    """The board sent nothing for SILENCE seconds while an answer was due: it lost its
    power, was reset, or the cable is out (a USB-UART bridge keeps its port open)."""




class Wire:
    """A serial port that counts the bytes each way (for the benchmarks and tests), and on
    which no read waits for ever: mpremote reads with no timeout (its port's), and a board
    that loses its power behind a port that stays open would never answer. With no timeout
    set, a read that gets no byte for `silence` seconds raises Silent."""

    def __init__(self, serial):
        self._serial = serial
        self._timeout = serial.timeout
        self.silence = SILENCE
        self.sent = 0
        self.received = 0
        self.tail = b""  # the last bytes received, for what a board printed last

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, value):
        self._timeout = value

    def write(self, data):
        import serial

        self.sent += len(data)
        if self._serial.write_timeout != self.silence:  # (each change reconfigures the port)
            self._serial.write_timeout = self.silence
        try:
            return self._serial.write(data)
        except serial.SerialTimeoutException:  # the board takes nothing in (its input full)
            raise Silent("the board takes no input (no byte for %g s)" % self.silence) from None

    def read(self, size=1):
        if self._timeout is not None:
            self._set_timeout(self._timeout)
            data = self._serial.read(size)
        else:
            data = b""
            last = time.monotonic()
            while len(data) < size:
                self._set_timeout(0.2)
                got = self._serial.read(size - len(data))
                now = time.monotonic()
                if got:
                    data += got
                    last = now
                elif now - last >= self.silence:
                    self._count(data)
                    raise Silent("no answer from the board for %g s" % self.silence)
        self._count(data)
        return data

    def _set_timeout(self, seconds):
        if self._serial.timeout != seconds:  # (each change reconfigures the port)
            self._serial.timeout = seconds

    def _count(self, data):
        self.received += len(data)
        self.tail = (self.tail + data)[-4096:]

    def __getattr__(self, name):
        return getattr(self._serial, name)

    def __setattr__(self, name, value):
        if name in ("_serial", "_timeout", "silence", "sent", "received", "tail", "timeout"):
            object.__setattr__(self, name, value)
        else:  # the port's own settings
            setattr(self._serial, name, value)


class Link:
    """The raw REPL of the board on port; `with Link(port) as link:` closes it."""

    def __init__(self, port, baud=115200, silence=SILENCE):
        self.port = port
        self.baud = baud
        self.silence = silence  # seconds without a byte, while one is owed, that mean gone
        self.file_bytes = 0  # file data sent (before compression and framing)
        self.wire = None
        self._open()

    def _open(self):
        from mpremote.transport_serial import SerialTransport

        try:
            self.transport = SerialTransport(self.port, baudrate=self.baud, exclusive=True)
        except Exception as e:  # mpremote's TransportError ("failed to access"), or pyserial's
            why = ports.why_not(self.port, self.baud) or e
            raise LinkError(ports.port_problem(self.port, why)) from None
        sent = self.wire.sent if self.wire else 0
        self.wire = Wire(self.transport.serial)
        self.wire.sent = sent
        self.wire.silence = self.silence
        self.transport.serial = self.wire

    def reopen(self, seconds):
        """Open the port again once it is back (a USB board resets: its port goes and comes
        back); False if it is not back within seconds."""
        self.close()
        deadline = time.monotonic() + seconds
        while True:
            try:
                self._open()
                return True
            except LinkError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.2)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.transport.close()
        except Exception:  # the port may be gone already: nothing left to close
            pass

    def enter(self, soft_reset=True, timeout=10):
        """Stop the running program and enter the raw REPL, then load the agent.

        soft_reset gives a fresh heap with only boot.py run (no game, no firmware).
        """
        from mpremote.transport import TransportError

        try:
            if not self._answers_raw_repl(timeout):
                raise TransportError("no raw REPL within %g s" % timeout)
            self.wire.timeout = None
            with _quiet():
                self.transport.enter_raw_repl(soft_reset=soft_reset, timeout_overall=timeout)
        except Silent as e:
            raise LinkError("%s stopped answering on its way to the raw REPL (%s)%s"
                            % (self.port, e, self._printed_last())) from None
        except OSError as e:
            why = "%s went away (%s): is the board plugged in?" % (self.port, e)
            raise LinkError(why) from None
        except TransportError as e:
            raise LinkError(
                "%s answers, but not as MicroPython (%s).\n%s"
                % (self.port, str(e) or "no raw REPL", ports.install_hint(_port_info(self.port)))
            ) from None
        self._load_agent()

    def _printed_last(self):
        """What the board printed last, for an error: its last line, if any."""
        text = self.wire.tail.decode(errors="replace").replace("\r", "")
        lines = [line.strip() for line in text.split("\n") if line.strip()]
        return "; it printed last: %r" % lines[-1][-80:] if lines else ""

    def _load_agent(self):
        """Send the agent: compressed (0.6 of its bytes) when the board can unpack it."""
        packed = base64.b64encode(_deflate(AGENT.encode())).decode()
        out = self.exec(
            "try:\n import deflate, io, binascii\nexcept ImportError:\n print('plain')\n"
            "else:\n exec(deflate.DeflateIO(io.BytesIO(binascii.a2b_base64('%s')), "
            "deflate.RAW, %d).read().decode())\n" % (packed, WBITS)
        )
        if out.strip() == b"plain":
            self.exec(AGENT)

    def _answers_raw_repl(self, timeout):
        """Whether the device enters the raw REPL when asked, within timeout seconds.

        Only a probe with a deadline: mpremote's enter_raw_repl, which follows and asks
        again, waits without end when a device keeps talking about something else (a GPS
        module's sentences), or on a silent pseudo-terminal.
        """
        serial = self.transport.serial
        before = serial.timeout
        serial.timeout = 0.1
        try:
            seen = b""
            now = time.monotonic()
            deadline, ask = now + timeout, now
            while now < deadline:
                if now >= ask:  # again each second: a board rebooting may miss a request
                    serial.write(b"\r\x03\r\x01")  # Ctrl-C: stop the program; Ctrl-A: raw REPL
                    ask = now + 1.0
                seen = (seen + serial.read(serial.in_waiting or 1))[-256:]
                if b"raw REPL; CTRL-B to exit" in seen:
                    return True
                now = time.monotonic()
            return False
        finally:
            serial.timeout = before

    def exec(self, code, timeout=30):
        """Run code on the board; its output (bytes). A board error raises LinkError."""
        from mpremote.transport import TransportError

        self.wire.timeout = None  # mpremote reads as from a blocking port (a Client's may be set)
        try:
            with _quiet():
                self.transport.exec_raw_no_follow(code)
                out, err = self.transport.follow(timeout)
        except (TransportError, OSError, Silent) as e:
            raise LinkError("the board stopped answering (%s)" % e) from None
        if err:
            raise LinkError("the board: %s" % err.decode(errors="replace").strip())
        return out

    def call(self, name, *args, timeout=30):
        """Call an agent function; its JSON answer."""
        return _answer(name, self.exec(_py_call(name, args), timeout))

    def send_file(self, dest, data, packed=False, progress=None):
        """Write data to dest on the board; whether it was written whole (see send_files)."""
        return bool(self.send_files([(dest, data)], packed,
                                    progress=progress and (lambda i, n: progress(n))))

    def send_files(self, files, packed=False, window=1, progress=None):
        """Write each (dest, data) of files on the board, in one call of the agent (each file
        in place: agent.receive); the dests the board wrote whole, by the hash of what it
        wrote (a file left out was not: a slot's check reads it back). window: blocks sent
        ahead of the board's acknowledgements (1: each waits for the last one's; see
        WINDOW). progress(i, n): n bytes of files[i] sent."""
        from mpremote.transport import TransportError

        encoded = [escape(_deflate(data) if packed else data) for _, data in files]
        serial = self.transport.serial
        serial.timeout = None
        receiving = "files"  # for the error: the file on the wire when the board went
        try:
            with _quiet():
                self.transport.exec_raw_no_follow(_py_call("receive", (
                    [[f[0], len(wire)] for f, wire in zip(files, encoded, strict=True)],
                    packed, WBITS, WIRE_BLOCK)))
            self._ack()  # ready
            owed = 0  # blocks sent, not yet acknowledged
            for i, wire in enumerate(encoded):
                receiving, size = files[i][0], len(files[i][1])
                for at in range(0, len(wire), WIRE_BLOCK):
                    if owed >= window:
                        self._ack()
                        owed -= 1
                    serial.write(wire[at : at + WIRE_BLOCK])
                    owed += 1
                    if progress:
                        progress(i, min(size, (at + WIRE_BLOCK) * size // len(wire)))
            for _ in range(owed):
                self._ack()
            out, err = self.transport.follow(ACK_TIMEOUT)
        except (TransportError, OSError, Silent) as e:
            raise LinkError(
                "the board stopped answering while receiving %s (%s)" % (receiving, e)
            ) from None
        if err:
            raise LinkError("the board: %s" % err.decode(errors="replace").strip())
        self.file_bytes += sum(len(data) for _, data in files)
        digests = _answer("receive", out)
        return [dest for (dest, data), digest in zip(files, digests, strict=False)
                if hashlib.sha256(data).hexdigest()[:16] == digest]

    def _ack(self):
        serial = self.transport.serial
        deadline = time.monotonic() + ACK_TIMEOUT
        while time.monotonic() < deadline:
            b = serial.read(1)
            if b == b".":
                return
            if b == b"\x04":  # the agent raised: its traceback follows
                _, err = self.transport.follow(ACK_TIMEOUT)
                raise LinkError("the board: %s" % err.decode(errors="replace").strip())
        raise LinkError("the board stopped acknowledging (power cut, or the cable?)")

    def restart(self):
        """Leave the raw REPL and soft-reset: the board runs boot.py and main.py. (A port
        already gone is left alone: a board without power restarts when it has some.)"""
        try:
            self.transport.exit_raw_repl()
            self.transport.serial.write(b"\x04")
        except (OSError, Silent):
            pass
        self.wire.tail = b""

    def stopped_at_the_repl(self):
        """The board's program ended at the friendly REPL's prompt since the restart; the
        error it printed last, if any ("" when it simply returned)."""
        text = self.wire.tail.decode(errors="replace").replace("\r", "")
        if "soft reboot" not in text:
            return None  # the prompt of Ctrl-B, before the restart itself
        text = text[text.rindex("soft reboot") :]
        if "\n>>> " not in text:
            return None
        lines = [line for line in text.split("\n") if line.strip() and line != ">>> "]
        errors = [line for line in lines if "Error" in line or "Exception" in line]
        return errors[-1].strip() if errors else ""


def _quiet():
    """mpremote prints what it read when the raw REPL fails: the host says it in words."""
    import contextlib
    import io

    return contextlib.redirect_stdout(io.StringIO())


def _answer(name, out):
    """An agent function's JSON answer: its output's last line, after the dots of a long
    call's files (agent._alive)."""
    lines = out.decode(errors="replace").strip().splitlines()
    if not lines:
        raise LinkError("the board did not answer %s()" % name)
    try:
        return json.loads(lines[-1].lstrip("."))
    except ValueError:  # cut off, or something else talking
        raise LinkError("the board's answer to %s() is garbled: %r"
                        % (name, lines[-1][:60])) from None


def _py_call(name, args):
    """A call of an agent function with JSON-like arguments, as Python source."""
    return "%s(%s)" % (name, ", ".join(repr(a) for a in args))


def escape(data):
    """Bytes safe on a MicroPython console: no Ctrl-C (0x03), which would interrupt the
    board's program. 0x1b escapes: 0x03 -> 0x1b "c", 0x1b -> 0x1b "e" (agent.receive
    undoes it). Compressed data grows by under 1%."""
    return data.replace(b"\x1b", b"\x1be").replace(b"\x03", b"\x1bc")


def _deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -WBITS)
    return c.compress(data) + c.flush()


def _port_info(port):
    from serial.tools import list_ports

    for info in list_ports.comports():
        if info.device == port:
            return info
    return None
