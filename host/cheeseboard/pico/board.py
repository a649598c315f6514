"""An emulated Pico: a UF2's MicroPython on an RP2040 in rp2040js, behind a serial port.

`PicoBoard` stands where `cheeseboard.sim.board.VirtualBoard` stands (the same methods,
events and side channel), but the chip is emulator.mjs in Node: MicroPython's
rp2 port runs on it from a 2 MB flash image (a file), its USB CDC is bridged to a
pseudo-terminal, the buttons are GPIO inputs, and the LED frames are what the WS2812
chain would receive on the NeoPixel pin. A power cut kills the emulator; power on starts
it again from the flash file; the watchdog (machine.WDT, machine.reset) does the same.

Time inside is the chip's: 125 MHz cycles, and the timer's alarms while it sleeps. The
flash is read through a model of the XIP cache, its misses costing cycles (xip_cache.mjs);
CHEESEBOARD_PICO_XIP_CACHE=off (or xip_cache=False) reads it as fast as SRAM instead, as
rp2040js does by itself (its timings then err fast). docs/pico.md says how near a real
Pico's timings the model comes.
"""

import os
import selectors
import shutil
import subprocess
import sys
import time
from pathlib import Path

from cheeseboard import paths
from cheeseboard.pico import flash as pico_flash
from cheeseboard.sim.pty_board import BoardError, PtyBoard

EMULATOR = Path(__file__).with_name("emulator.mjs")
BOOTROM = paths.ROOT.parent / "shared" / "third_party" / "rp2040-bootrom-b1.bin"
EXIT_RESET = 3  # the emulator's exit code when the watchdog reset the chip
RX_BUFFER = 4096
TX_BUFFER_MAX = 1 << 20
# Where each colour sits on the wire, for the profile's "order" (as the MicroPython HAL has it).
ORDERS = {"GRB": (1, 0, 2), "RGB": (0, 1, 2), "BRG": (1, 2, 0), "RBG": (0, 2, 1)}


class PicoError(Exception):
    """The emulated Pico cannot start: no Node, no rp2040js, no boot ROM, no flash."""


def xip_cache_default():
    """Whether emulated Picos model the XIP cache unless told: CHEESEBOARD_PICO_XIP_CACHE=off
    says no (for a figure without it, side by side)."""
    value = os.environ.get("CHEESEBOARD_PICO_XIP_CACHE", "on")
    if value not in ("on", "off"):
        raise PicoError("CHEESEBOARD_PICO_XIP_CACHE is %r: on or off" % value)
    return value == "on"


def bootrom_path():
    path = Path(os.environ.get("CHEESEBOARD_RP2040_BOOTROM", BOOTROM))
    if not path.is_file():
        raise PicoError("the RP2040 boot ROM is missing (%s): it comes with ../shared/third_party/"
                        "rp2040-bootrom-b1.bin, or set CHEESEBOARD_RP2040_BOOTROM" % path)
    return path


def check_node():
    """The `node` command, with rp2040js installed next to the checkout (`make` runs npm ci)."""
    node = shutil.which("node")
    if not node:
        raise PicoError("node is missing: the emulated Pico needs Node 20 and `npm ci`")
    if not (paths.ROOT / "node_modules" / "rp2040js").is_dir():
        raise PicoError("rp2040js is not installed: run `npm ci` (or `make`) in %s" % paths.ROOT)
    return node


def wire_to_rgb(wire, count, order, previous=None):
    """The chain's frame (R, G, B per pixel) after it received wire bytes: pixels the bits did
    not reach keep their colour, as a WS2812 chain does."""
    frame = bytearray(previous or bytes(3 * count))
    r, g, b = ORDERS[order]
    for p in range(min(count, len(wire) // 3)):
        px = wire[3 * p:3 * p + 3]
        frame[3 * p:3 * p + 3] = bytes((px[r], px[g], px[b]))
    return bytes(frame)


PROMPT_MS = 60  # a reply within this much of the chip's time (a few ticks): its loop ticks


def wait_listening(now, ask, deadline_ms):
    """Wait until the emulated chip's main loop reads its buttons; False if it has not by
    deadline_ms of the chip's clock. The chip keeps its own clock, which runs on while the
    firmware computes (a menu step that loads a game's module, a game's start: 250-500 ms):
    a press made then is over before a tick samples the pin, and lost. A tick reads the console
    after its buttons, so two answers in a row (ask() asks a question and waits for its reply),
    each within a few ticks of the chip's time (now()), say the loop is ticking as it should."""
    prompt = 0
    while prompt < 2:
        asked = now()
        ask()
        prompt = prompt + 1 if now() - asked <= PROMPT_MS else 0
        if now() > deadline_ms:
            return False
    return True


class PicoBoard(PtyBoard):
    """An emulated Raspberry Pi Pico running a cheeseboard (or a bare MicroPython)."""

    LABEL = "emulated Pico"
    THREAD = "pico-board"
    PROMPTS = (b">>> ", b"CTRL-B to exit\r\n>", b"\x04>")  # (USB CDC: \r\n as written)

    # The chip keeps its own clock (emulated cycles, `board_ms`), which the host does not
    # move: to the side channel it is a board in real time, as a unix-port board without
    # a virtual clock.
    clock = None

    def __init__(self, flash_path, profile, uf2=None, name="emulated Pico", realtime=False,
                 xip_cache=None):
        self.xip_cache = xip_cache_default() if xip_cache is None else xip_cache
        self.flash_path = pico_flash.prepare(flash_path, uf2)
        super().__init__(name)
        self.flash_dir = self.flash_path  # what the terminal view shows as the board's flash
        self.profile = profile
        self.realtime = realtime
        self.node = check_node()
        self.bootrom = bootrom_path()
        self.frame_span_ns = None  # (first rise, last fall) of the last frame on the pin
        self.board_ms = 0  # the chip's clock since power on

    # -- public (as VirtualBoard) -------------------------------------------------------------

    def power_cut(self):
        with self._lock:
            self._powered = False
            self._kill()

    def set_pin(self, button, levels):
        """Drive a button's pin: levels is [(ms from now on the chip's clock, 0 or 1), ...]."""
        gpio = self.profile["buttons"].get(button)
        if gpio is None:
            raise BoardError("bad button name %r" % button)
        steps = ",".join("%d:%d" % (int(t), 1 if v else 0) for t, v in levels)
        self._send_side(b"P %d %s" % (gpio, steps.encode()))

    def run(self, ms, until=None, wall_limit=None):
        """Wait until the chip's clock has moved by ms, or (until "frame") a frame came first;
        the chip runs by itself, at the emulator's pace (asleep, its clock follows the wall's
        at least, so it always gets there). wall_limit: seconds after which the wait stops
        all the same ("stalled"). {"now": ms, "reason": why}."""
        end = self.board_ms + ms
        frames = self.frame_seq
        deadline = time.monotonic() + (wall_limit if wall_limit is not None else float("inf"))
        while True:
            if until == "frame" and self.frame_seq > frames:
                return {"now": self.board_ms, "reason": "frame"}
            if self.board_ms >= end or not self.is_on:
                return {"now": self.board_ms, "reason": "time"}
            if time.monotonic() > deadline:
                return {"now": self.board_ms, "reason": "stalled"}
            time.sleep(0.01)

    # The chip's only ways in are its pins and its USB serial, which is the host's: the terminal
    # view cannot ask its firmware what it is doing in words, as it asks a unix-port board on
    # the side channel. `cheeseboard state --port` asks it on the console.
    described = None
    tells_state = False

    def ask_state(self):
        """(Nothing to ask on: the view says where the board's state can be asked.)"""

    # -- the chip ---------------------------------------------------------------------------

    def _spawn(self, mode=None):
        """Start the emulator (mode is the unix-port board's: a chip always boots from its
        flash)."""
        self._console_tail = b""
        side_in_r, side_in_w = os.pipe()
        side_out_r, side_out_w = os.pipe()
        led = self.profile["led"]
        argv = [self.node, str(EMULATOR), str(self.flash_path), str(self.bootrom),
                str(led["pin"]), "realtime" if self.realtime else "free",
                str(side_in_r), str(side_out_w), "--xip-cache", "on" if self.xip_cache else "off"]
        self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      cwd=str(paths.ROOT), pass_fds=(side_in_r, side_out_w))
        os.close(side_in_r)
        os.close(side_out_w)
        self._side_in_w, self._side_out_r = side_in_w, side_out_r
        for fd in (self._proc.stdout.fileno(), side_out_r):
            os.set_blocking(fd, False)
            self._sel.register(fd, selectors.EVENT_READ)
        os.set_blocking(self._proc.stdin.fileno(), False)
        self._rx.clear()
        self._side_buf.clear()
        self.board_ms = 0
        self.boots += 1
        self._emit({"ev": "boot", "n": self.boots, "mode": "friendly"})

    def _release(self):
        for fd in (self._proc.stdout.fileno(), self._side_out_r):
            try:
                self._sel.unregister(fd)
            except (KeyError, ValueError):
                pass
        for f in (self._proc.stdin, self._proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        for fd in (self._side_in_w, self._side_out_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._proc = None
        self._side_in_w = self._side_out_r = None

    def _exited(self, proc):
        with self._lock:
            if proc is not self._proc:
                return
            code = proc.wait()
            self._release()
            if not self._powered:
                return
            if code == EXIT_RESET:
                self.watchdog_resets += 1
                self._emit({"ev": "watchdog"})
            else:
                self._emit({"ev": "crash", "code": code})
                print("emulated Pico: the emulator exited with %d" % code, file=sys.stderr)
                self._powered = False
                self._emit({"ev": "off", "reason": "emulator failed"})
                return
            self._spawn()

    # -- the I/O thread ---------------------------------------------------------------------

    def _loop(self):
        self._sel.register(self.master_fd, selectors.EVENT_READ)
        while not self._stop:
            events = selectors.EVENT_READ if len(self._rx) < RX_BUFFER else 0
            if self._tx:
                events |= selectors.EVENT_WRITE
            self._sel.modify(self.master_fd, events or selectors.EVENT_READ)
            for key, mask in self._sel.select(timeout=0.05):
                with self._lock:
                    proc = self._proc
                    out_fd = proc.stdout.fileno() if proc else None
                if key.fd == self.master_fd:
                    if mask & selectors.EVENT_READ and len(self._rx) < RX_BUFFER:
                        self._from_host()
                    if mask & selectors.EVENT_WRITE:
                        self._to_host()
                elif key.fd == out_fd:
                    self._from_chip(proc)
                elif key.fd == self._side_out_r:
                    self._from_side()
            self._to_chip()

    def _from_host(self):
        try:
            data = os.read(self.master_fd, RX_BUFFER)
        except (BlockingIOError, OSError):
            return
        self.bytes_in += len(data)
        with self._lock:
            if self.is_on:  # a board without power hears nothing
                self._rx += data

    def _to_chip(self):
        with self._lock:
            if not self._rx or self._proc is None:
                return
            try:
                n = os.write(self._proc.stdin.fileno(), self._rx)
            except (BlockingIOError, BrokenPipeError, OSError):
                return
            del self._rx[:n]

    def _from_chip(self, proc):
        try:
            data = os.read(proc.stdout.fileno(), 65536)
        except BlockingIOError:
            return
        except (OSError, ValueError):
            data = b""
        if not data:
            self._exited(proc)
            return
        self._tx += data
        self._console_tail = (self._console_tail + data)[-64:]
        if len(self._tx) > TX_BUFFER_MAX:
            del self._tx[: len(self._tx) - TX_BUFFER_MAX]
        self._to_host()

    def _to_host(self):
        try:
            n = os.write(self.master_fd, self._tx)
        except (BlockingIOError, OSError):
            return
        self.bytes_out += n
        del self._tx[:n]

    def _side_message(self, line):
        kind, _, rest = line.partition(b" ")
        if kind == b"T":
            self.board_ms = int(rest)
        elif kind == b"A":  # a pin's levels taken, "from now" being this ms of the chip's clock
            gpio, at = map(int, rest.split(b" "))
            buttons = self.profile["buttons"]
            button = next((name for name in buttons if buttons[name] == gpio), None)
            self._emit({"ev": "pin", "button": button, "at_ms": at})
        elif kind == b"I":
            start, end = map(int, rest.split(b" "))
            self._emit({"ev": "irq_off", "ns": end - start, "at_ms": end // 1_000_000})
        elif kind == b"F":
            start, end, wire = rest.split(b" ")
            led = self.profile["led"]
            self.frame = wire_to_rgb(bytes.fromhex(wire.decode()), led["count"],
                                     led.get("order", "GRB"), self.frame)
            self.frame_span_ns = (int(start), int(end))
            self.frame_seq += 1
            self._emit({"ev": "frame", "seq": self.frame_seq, "rgb": self.frame.hex(),
                        "wire_ns": int(end) - int(start), "pixels": len(wire) // 6,
                        "at_ms": int(end) // 1_000_000})
