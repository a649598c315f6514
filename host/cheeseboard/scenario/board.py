"""One scenario's virtual board: the simulator in this process, its console, its LED frames.

The board is the same `VirtualBoard` that `cheeseboard sim` runs (the firmware on the real
MicroPython VM), headless, in virtual time: the runner moves the board's clock, so a scenario
gives the same result on a busy machine and its waits take no wall time. Buttons are driven at
pin level, every frame the firmware writes is kept with the board's time it came at, and the
protocol is spoken over the board's own console.
"""

import hashlib
import json
import shutil
import threading
import time

import serial

from cheeseboard.board.protocol import Client, NoAnswer, ProtocolError
from cheeseboard.flash import image
from cheeseboard.rules import sync
from cheeseboard.sim import flash as simflash
from cheeseboard.sim.board import VirtualBoard
from cheeseboard.sim.control import press_levels

RELEASE_MS = 100  # after a release, until the debounce has surely taken it
FRAMES_KEPT = 4000
CONSOLE_KEPT = 1 << 20  # console bytes kept for expect-console
STEP_MS = 100  # a wait for what the board shows moves its clock this far at most a step
# An emulated chip answers at the emulator's pace, which a busy machine slows many times: a
# reply is waited for this long on the wall's clock at least (the scenario's timeout still
# holds on the chip's own clock, for its boot, its presses and what it shows).
EMULATED_ANSWER_S = 120

_images = {}
_images_lock = threading.Lock()


_SILENT_STARTS = 5  # timeouts a unix-port board that has not said a byte yet is waited for


class BoardTimeout(Exception):
    """The board did not answer in time."""


class BoardOff(Exception):
    """The step needs a board with power, and this one has none."""


def _image(profile):
    """The firmware built for a profile, once per run (every scenario's flash starts from it)."""
    with _images_lock:
        if profile["name"] not in _images:
            _images[profile["name"]] = image.make(profile, None)
        return _images[profile["name"]]


class ScenarioBoard:
    def __init__(self, scenario, workdir, target="unix"):
        self.scenario = scenario
        self.profile = scenario.profile
        self.timeout = scenario.timeout_ms / 1000
        self._cond = threading.Condition()
        self.frames = []  # [(the board's time in ms, frame bytes)], oldest first
        if target == "pico":
            self.board = _pico(scenario, workdir)
        else:
            self.board = self._unix_board(scenario, workdir)
        self.board.listeners.append(self._event)
        self.board.start()
        self.port = _Recorded(serial.Serial(self.board.pty_path, 115200, timeout=0.1))
        self.answer_wait = max(self.timeout, EMULATED_ANSWER_S if target == "pico" else 0)
        self.client = Client(self.port, timeout=self.answer_wait)
        self.up = False
        self.off_reason = None  # why the board is off: the scenario cut the power, or crashes

    def _unix_board(self, scenario, workdir):
        flash = workdir / "flash"
        if scenario.flash:  # resume from a copy: the scenario's own folder is left as it was
            shutil.copytree(scenario.flash, flash, symlinks=True)
            simflash.refresh_firmware(flash, self.profile)
        else:
            flash.mkdir(parents=True)
            image.write_to_folder(_image(self.profile), flash)
        return VirtualBoard(
            flash, self.profile["heap"], name="%s (virtual cheeseboard)" % self.profile["title"],
            fs_size=simflash.FILESYSTEM.get(self.profile["platform"], 0), seed=scenario.seed,
            clock="virtual")

    def close(self):
        self.board.stop()
        if self.board.clock is None:  # an emulated Pico: its flash image goes with it
            self.board.flash_path.unlink(missing_ok=True)
        try:
            self.port.close()
        except OSError:
            pass

    def _event(self, event):
        if event.get("ev") == "off":
            self.off_reason = "it kept crashing (see the firmware's errors above)"
        if event.get("ev") == "frame":
            with self._cond:
                self.frames.append((self.now(), bytes.fromhex(event["rgb"])))
                del self.frames[:-FRAMES_KEPT]
                self._cond.notify_all()

    # -- the board's clock ---------------------------------------------------------------------

    def now(self):
        """The board's time (ms): the virtual clock, or the emulated chip's own."""
        clock = self.board.clock
        return clock.now if clock is not None else self.board.board_ms

    def run(self, ms, until=None):
        """Let the board run for ms of its time (until "frame" or "event" may stop it sooner).
        A firmware that computes for the timeout without sleeping is left to it: the next
        question it does not answer says so."""
        emulated = self.board.clock is None  # an emulated Pico: its clock always moves
        self.board.run(ms, until, wall_limit=None if emulated else self.timeout)

    # -- what the board shows ----------------------------------------------------------------

    @property
    def frame(self):
        """The LEDs now (all dark before the first frame)."""
        with self._cond:
            if self.frames:
                return self.frames[-1][1]
        return bytes(3 * self.profile["led"]["count"])

    def frames_since(self, t):
        """The frames shown at some moment from t on: the one in force at t, and every later one."""
        with self._cond:
            later = [f for when, f in self.frames if when >= t]
            before = [f for when, f in self.frames if when < t]
        return before[-1:] + later

    def watch(self, holds, within_ms):
        """Run the board until holds(frames seen since the call) is true, for within_ms of its
        time at most; the frames, and whether it held."""
        start = self.now()
        while True:
            frames = self.frames_since(start) or [self.frame]
            if holds(frames):
                return frames, True
            left = start + within_ms - self.now()
            if left <= 0:
                return frames, False
            self.run(min(left, STEP_MS), "frame")

    def console_since(self, mark):
        """The console's bytes from byte mark on (everything the board wrote, replies too)."""
        self.port.drain()
        return self.port.log_since(mark)

    # -- the console ---------------------------------------------------------------------------

    def wait_up(self):
        """Wait until the firmware answers; BoardTimeout when it does not within the timeout.
        A board without power is not waited for: what it shows is known (nothing)."""
        if self.up or not self.board.is_on:
            return
        # On the emulated Pico's own clock, which runs at the emulator's pace, and on the wall's
        # too: an idle chip's clock races ahead of a host that a busy machine holds back. On the
        # unix port's, the wall's from the VM's first byte: a busy machine can hold a VM's start
        # for seconds, and a firmware that stops says why first (one that never says a byte is
        # given up after _SILENT_STARTS timeouts).
        deadline = time.monotonic() + self.timeout, self.now() + self.timeout * 1000
        emulated = self.board.clock is None
        while True:
            try:  # asked again and again, a late reply to any copy counting: a slow host's too
                self.client.ask_until_answered("hello", self.timeout)
                if emulated:  # its chip seeds the die from noise and time: the scenario's seed
                    self.client.request("seed", seed=self.scenario.seed)
                self.up = True
                return
            except ProtocolError:
                if time.monotonic() > self._wall_deadline(deadline[0], emulated) and (
                        not emulated or self.now() > deadline[1]):
                    raise BoardTimeout("the board did not answer within %gs%s"
                                       % (self.timeout, self._last_error())) from None

    def _wall_deadline(self, deadline, emulated):
        if emulated:
            return deadline
        heard = self.board.heard_at
        if heard is None:
            return deadline + self.timeout * (_SILENT_STARTS - 1)
        return max(deadline, heard + self.timeout)

    def need_power(self):
        if not self.board.is_on:
            raise BoardOff("a board with power; it is off: %s" % (
                self.off_reason or "its power was cut (power-on switches it on)"))

    def request(self, cmd, **args):
        self.need_power()
        self.wait_up()
        try:
            return self.client.request(cmd, **args)
        except NoAnswer:
            raise self._timeout("answer %r" % cmd) from None

    def _timeout(self, what, seconds=None):
        return BoardTimeout("the board did not %s within %gs%s"
                            % (what, seconds or self.answer_wait, self._last_error()))

    def _last_error(self):
        """What the console last said went wrong (a traceback's last line), to add to a
        timeout: a firmware that stopped at the REPL says why there."""
        lines = self.port.seen.decode("utf-8", "replace").replace("\r", "").split("\n")
        for i in range(len(lines) - 1, -1, -1):
            if lines[i].startswith("Traceback"):
                for line in lines[i + 1:]:
                    if line and not line.startswith(" "):
                        return "; its console said: %s" % line.strip()[:200]
        return ""

    def state(self):
        return self.request("state")["state"]

    def sync(self, path):
        """Send a rule table under its game's name (a file kitchen-8.json is the kitchen's)."""
        data = path.read_bytes()
        name = json.loads(data).get("game", path.stem)
        self.need_power()
        self.wait_up()
        try:
            on_board = sync.board_tables(self.client).get(name, {})
            if on_board.get("sha256") == hashlib.sha256(data).hexdigest():
                return "same"
            return "sent, applies " + sync.push(self.client, name, data)["applies"]
        except NoAnswer:
            raise self._timeout("take %s" % path.name) from None

    # -- buttons and power ---------------------------------------------------------------------

    def press(self, button, ms):
        """Press a button for ms and let go; back once the firmware has taken the release.

        A pin takes one schedule of levels at a time, from the moment the firmware reads it
        (a new one replaces what is left of the last): the answer to a request sent after the
        press says it was read, at the latest in the next tick (each tick reads the side
        channel before the console), so the wait from then on covers the whole press however
        late the VM runs, and two presses never merge into one."""
        self.need_power()
        self.wait_up()
        if self.board.clock is None:
            self._listening()
        self.board.set_pin(button, press_levels(ms))
        self.run(ms + RELEASE_MS)

    def _listening(self):
        """Wait until an emulated Pico's main loop reads its buttons."""
        from cheeseboard.pico.board import wait_listening

        if not wait_listening(self.now, lambda: self.request("hello"),
                              self.now() + self.timeout * 1000):
            raise self._timeout("read its buttons (it kept computing)", self.timeout)

    def power_cut(self):
        self.board.power_cut()
        self.off_reason = None
        self._dark()

    def power_on(self):
        self.board.power_on()
        self.up = False

    def reset(self):
        self.board.power_cut()
        self._dark()
        self.board.power_on()
        self.up = False

    def _dark(self):
        """Without power the LEDs go dark (and come up dark, until the firmware lights them)."""
        self.up = False
        self._event({"ev": "frame", "rgb": bytes(3 * self.profile["led"]["count"]).hex()})


def _pico(scenario, workdir):
    """An emulated Pico on a blank flash with the profile's UF2, the firmware frozen in (built
    once, then cached). Its chip keeps its own clock, so a scenario runs there at the
    emulator's pace; its die is given the scenario's seed at each power-on (wait_up), as the
    unix-port board's entropy is."""
    from cheeseboard.pico.board import PicoBoard
    from cheeseboard.uf2 import build_uf2

    if scenario.flash:
        raise BoardOff("a blank emulated Pico: board.flash is a unix-port board's folder")
    uf2 = build_uf2(scenario.profile["name"], frozen=True)
    return PicoBoard(workdir / "pico-flash.bin", scenario.profile, uf2=uf2,
                     name="%s (emulated Pico)" % scenario.profile["title"])


class _Recorded:
    """A serial port that keeps the console bytes it read (the protocol skips what is not a
    reply, such as a traceback, and a failure should still say it; expect-console reads them)."""

    KEEP = 8192

    def __init__(self, port):
        self._port = port
        self.seen = b""
        self.log = bytearray()  # the console since the start (its last CONSOLE_KEPT bytes)
        self.dropped = 0  # bytes of the log let go

    def read(self, n=1):
        data = self._port.read(n)
        self.seen = (self.seen + data)[-self.KEEP:]
        self.log += data
        if len(self.log) > CONSOLE_KEPT:
            self.dropped += len(self.log) - CONSOLE_KEPT
            del self.log[:-CONSOLE_KEPT]
        return data

    def drain(self):
        """Read whatever waits (the protocol reads only up to its reply)."""
        while self._port.in_waiting:
            self.read(self._port.in_waiting)

    @property
    def end(self):
        """The console's length so far (a mark for log_since)."""
        return self.dropped + len(self.log)

    def log_since(self, mark):
        return bytes(self.log[max(0, mark - self.dropped):])

    def write(self, data):
        return self._port.write(data)

    def close(self):
        self._port.close()

    @property
    def in_waiting(self):
        return self._port.in_waiting

    @property
    def timeout(self):
        return self._port.timeout

    @timeout.setter
    def timeout(self, value):
        self._port.timeout = value
