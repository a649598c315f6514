"""The simulator's side channel for people and programs: a Unix socket of JSON lines.

Through it a client drives button pins, watches LED frames, and cuts or restores
the power; the console stays on the pty. One JSON object per line each way:

    -> {"op": "pin", "button": "ok", "levels": [[0, 0], [80, 1]]}   ms from now, 0 = pressed
    -> {"op": "power_cut"} | {"op": "power_on"} | {"op": "reset"} | {"op": "status"}
    -> {"op": "run", "for": 500, "until": "frame"}   virtual time: move the board's clock
       (until "frame", "event" or "idle" may end it sooner); {"op": "run", "free": true}
       lets it follow the wall, faster, until the next run
    <- {"ev": "frame", "seq": 12, "rgb": "ff0000..."}   every frame the firmware writes
    <- {"ev": "boot", "n": 2, "mode": "friendly"} | {"ev": "status", ...} | {"ev": "error", ...}
    <- {"ev": "ran", "now": 1500, "reason": "frame"}   a run's end: the board's time (ms)
"""

import json
import os
import socket
import threading
import time

from cheeseboard.sim.board import BoardError

_MOST_LEVELS = 1000  # the steps of one pin request (a press with bounce: a few dozen)
_LATEST_MS = 24 * 3600 * 1000  # how far ahead a step may be (a day)


class ControlServer:
    def __init__(self, board, path):
        self.board = board
        self.path = str(path)
        self._clients = []
        self._lock = threading.Lock()
        if os.path.exists(self.path):
            os.unlink(self.path)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.bind(self.path)
        self._sock.listen(4)
        board.listeners.append(self._broadcast)
        threading.Thread(target=self._accept, name="control", daemon=True).start()

    def close(self):
        self._sock.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass

    def _accept(self):
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            with self._lock:
                self._clients.append(conn)
            if self.board.frame is not None:
                self._send(conn, {"ev": "frame", "seq": self.board.frame_seq,
                                  "rgb": self.board.frame.hex()})
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        for line in conn.makefile("rb"):
            try:
                self._handle(conn, json.loads(line))
            except (ValueError, KeyError, TypeError, BoardError) as e:
                self._send(conn, {"ev": "error", "error": str(e)})
            except RecursionError:  # (a line nested past the parser's depth)
                self._send(conn, {"ev": "error", "error": "nested too deep: not a request"})
        with self._lock:
            if conn in self._clients:
                self._clients.remove(conn)

    def _handle(self, conn, msg):
        op = msg["op"]
        board = self.board
        if op == "pin":
            board.set_pin(*_pin(msg))
        elif op == "power_cut":
            board.power_cut()
        elif op == "power_on":
            board.power_on()
        elif op == "reset":
            board.hard_reset()
        elif op == "run":
            ran = board.run(msg.get("for"), msg.get("until"), bool(msg.get("free")))
            self._send(conn, dict(ran, ev="ran"))
        elif op == "status":
            clock = board.clock
            self._send(conn, {"ev": "status", "on": board.is_on, "boots": board.boots,
                              "clock": "real" if clock is None else "virtual",
                              "now": None if clock is None else clock.ms,
                              "frame_seq": board.frame_seq, "pty": board.pty_path,
                              "bytes_in": board.bytes_in, "bytes_out": board.bytes_out,
                              "watchdog_resets": board.watchdog_resets,
                              # Ctrl-Cs the unix port's VM got as SIGINT: it never waited
                              "interrupts_signalled": getattr(board, "interrupts_signalled", None),
                              # the chip's own clock, where the board is an emulated chip
                              "board_ms": getattr(board, "board_ms", None)})
        else:
            raise ValueError("unknown op %r" % op)

    def _broadcast(self, event):
        with self._lock:
            clients = list(self._clients)
        for conn in clients:
            self._send(conn, event)

    def _send(self, conn, obj):
        try:
            conn.sendall((json.dumps(obj) + "\n").encode())
        except OSError:
            with self._lock:
                if conn in self._clients:
                    self._clients.remove(conn)


def _pin(msg):
    """A pin request's (button, levels), checked: a name, and [[ms from now, level], ...]."""
    button, levels = msg["button"], msg["levels"]
    if not isinstance(button, str):
        raise ValueError("pin: button: expected a name, got %s" % json.dumps(button)[:40])
    if not isinstance(levels, list) or len(levels) > _MOST_LEVELS or not all(
            isinstance(step, list) and len(step) == 2 and all(
                isinstance(x, (int, float)) and 0 <= x <= _LATEST_MS  # (not NaN)
                for x in step) for step in levels):
        raise ValueError("pin: levels: expected at most %d [ms from now, 0 or 1] pairs of "
                         "numbers 0..%d" % (_MOST_LEVELS, _LATEST_MS))
    return button, levels


class SimLink:
    """A client of the control socket: press buttons, watch frames, cut the power."""

    def __init__(self, path, timeout=10.0, virtual=False):
        """virtual: the board runs on a clock this client moves: waits move it (a timeout is
        then in the board's seconds), and sleep() runs the board rather than the wall."""
        self.virtual = virtual
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self._sock.connect(str(path))
                break
            except OSError:
                self._sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self._cond = threading.Condition()
        self.frame = None
        self.frame_seq = 0
        self.frame_time = 0.0
        self.frame_event = None
        self.events = []
        self._closed = False
        threading.Thread(target=self._read, name="simlink", daemon=True).start()

    def close(self):
        """End the link: the reader thread sees the end of the stream and stops (a socket
        closed under it would make its next read fail with a traceback on its way out)."""
        self._closed = True
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:  # the board already went
            pass
        self._sock.close()

    def _read(self):
        try:
            for line in self._sock.makefile("rb"):
                self._take(line)
        except ConnectionResetError:  # the simulator went with lines of ours unread: its end
            pass
        except (OSError, ValueError):  # the link closed under the read
            if not self._closed:
                raise

    def _take(self, line):
        event = json.loads(line)
        with self._cond:
            if event.get("ev") == "frame":
                self.frame = bytes.fromhex(event["rgb"])
                self.frame_seq = event["seq"]
                self.frame_time = time.monotonic()
                self.frame_event = event  # an emulated chip adds the pin's timing
            else:
                self.events.append(event)
            self._cond.notify_all()

    def send(self, **msg):
        self._sock.sendall((json.dumps(msg) + "\n").encode())

    def pin(self, button, levels):
        self.send(op="pin", button=button, levels=[list(step) for step in levels])

    def press(self, button, hold_ms=60, bounce_ms=0):
        """Press and release a button; with bounce, the contact chatters each way."""
        self.pin(button, press_levels(hold_ms, bounce_ms))

    def hold(self, button, bounce_ms=0):
        """Press a button and keep it down (until release())."""
        self.pin(button, bounce(0, 0, bounce_ms))

    def release(self, button, bounce_ms=0):
        self.pin(button, bounce(0, 1, bounce_ms))

    def run(self, ms, until=None):
        """Run a virtual board's clock for ms (until "frame", "event" or "idle" may end it
        sooner); the "ran" event: the board's time and why the run stopped."""
        with self._cond:
            start = len(self.events)
        msg = {"op": "run", "for": ms}
        if until:
            msg["until"] = until
        self.send(**msg)
        found = []

        def ran(s):
            found[:] = [e for e in s.events[start:] if e.get("ev") in ("ran", "error")]
            return bool(found)

        self._wait_wall(ran, 120.0, "the board's clock to run")
        if found[0]["ev"] == "error":
            raise AssertionError("run: %s" % found[0]["error"])
        return found[0]

    def sleep(self, seconds):
        """Let the board act for this long: on its own clock when virtual, else the wall's."""
        if self.virtual:
            self.run(round(seconds * 1000))
        else:
            time.sleep(seconds)

    def wait_for(self, predicate, timeout=10.0, what="condition"):
        """Wait until predicate(self) is true; AssertionError after timeout seconds (the
        board's, on a virtual board: its clock is run until then, a step at a time)."""
        if self.virtual:
            began = now = self.run(0)["now"]
            while not predicate(self):
                if now - began >= timeout * 1000:
                    raise AssertionError("timed out after %.1fs of board time waiting for %s"
                                         % (timeout, what))
                now = self.run(min(1000, began + timeout * 1000 - now), "event")["now"]
            return
        self._wait_wall(predicate, timeout, what)

    def _wait_wall(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError("timed out after %.1fs waiting for %s" % (timeout, what))
                self._cond.wait(min(left, 0.1))  # (a predicate may watch more than events)

    def wait_frame(self, after_seq=None, timeout=10.0):
        """Wait for a frame newer than after_seq (default: the current one); return it."""
        seq = self.frame_seq if after_seq is None else after_seq
        self.wait_for(lambda s: s.frame_seq > seq, timeout, "a new LED frame")
        return self.frame

    def event_count(self):
        """How many events came so far: wait_event(since=) from here."""
        with self._cond:
            return len(self.events)

    def wait_event(self, kind, timeout=10.0, since=None):
        """Wait for the next event of a kind ("boot", "status", ...) and return it; since:
        an event_count() from before what causes it (which may come before this call)."""
        with self._cond:
            start = len(self.events) if since is None else since
        found = []

        def seen(s):
            found[:] = [e for e in s.events[start:] if e.get("ev") == kind]
            return bool(found)

        self.wait_for(seen, timeout, "a %r event" % kind)
        return found[0]

    def status(self, timeout=10.0):
        with self._cond:
            start = len(self.events)
        self.send(op="status")
        self._wait_wall(lambda s: any(e.get("ev") == "status" for e in s.events[start:]),
                      timeout, "status")
        return [e for e in self.events[start:] if e.get("ev") == "status"][0]

    def pixel(self, i):
        """The (r, g, b) of pixel i in the last frame."""
        f = self.frame
        return (f[3 * i], f[3 * i + 1], f[3 * i + 2])


def bounce(at_ms, level, bounce_ms):
    """Levels for one contact change at at_ms: chatter for bounce_ms, then settle at level."""
    steps = []
    t = 0
    while t < bounce_ms:
        steps.append((at_ms + t, level if t % 2 == 0 else 1 - level))
        t += 1
    steps.append((at_ms + bounce_ms, level))
    return steps


def press_levels(hold_ms, bounce_ms=0):
    """Levels for a press held hold_ms and released, each edge bouncing for bounce_ms."""
    return bounce(0, 0, bounce_ms) + bounce(hold_ms, 1, bounce_ms)
