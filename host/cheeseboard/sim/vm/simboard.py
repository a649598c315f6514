# The virtual board's wiring, seen from inside MicroPython.
#
# - The side channel to the simulator: LED frames out, button levels in, never
#   on the console. Only the simulator's HAL backend (cheesefw/hal/sim.py) uses it.
# - The board's clock: the host's own (real time), or, on a board whose time the host
#   drives (virtual time), a count of milliseconds that moves only when the host grants
#   it: a sleep asks for its end ("S <ms>") and waits for the grant ("T <ms>"), and the
#   VM runs flat out in between. Computing costs no board time.
# - Ctrl-C: the simulator sends "I" on the side channel, and the VM raises
#   KeyboardInterrupt at its next wait (a sleep, a poll of the side channel, the REPL's
#   wait for a key), as a board's VM does at its next check, never from inside the VM's
#   own work. Code that never waits is stopped by SIGINT instead; the simulator then sends
#   "i" first: the "I" it follows was never read and is void.
# - The board's `machine` and `os` modules: the unix port's own, plus what a
#   real board has and the unix port lacks. They are installed in sys.modules,
#   so `import machine` in the firmware finds them.
import binascii
import os as _os
import select
import sys
import time

import machine as _machine

out = None
inp = None
_poll = None
_seed = None  # the simulator's --seed: the entropy source made repeatable
_seeds_given = 0
_now = None  # the board's time in ms when the host drives it (None: real time)
_held = []  # side-channel lines for the HAL (a button's levels), read at its next poll
HELD_MAX = 64  # lines kept for a HAL that does not poll (the REPL runs): the newest are lost
_interrupted = False  # a Ctrl-C came: KeyboardInterrupt at the next wait


def connect(out_fd, in_fd, board=None, fs_size=0, seed=None, now=None):
    """Open the side channel's two pipes (inherited from the simulator); now: the board's
    time when the host drives its clock (None: the board runs in real time)."""
    global out, inp, _poll, _seed, _seeds_given, _now
    _seed = seed
    _seeds_given = 0
    _now = now
    if board:
        sys.modules["os"].machine = board
    sys.modules["os"].fs_size = fs_size
    out = open("/dev/fd/%d" % out_fd, "wb")
    inp = open("/dev/fd/%d" % in_fd, "rb")
    _poll = select.poll()
    _poll.register(inp, select.POLLIN)


def seeded_game():
    """(the simulator's seed, how many games it seeded before since the power-on) when it was
    given one, else None: the firmware walks from the seed (cheesefw.engine.rng.seed_after), so
    that each game after a power-on gets the same seed as the last time the scenario ran."""
    global _seeds_given
    if _seed is None:
        return None
    _seeds_given += 1
    return _seed, _seeds_given - 1


def send(line):
    """Send one line (bytes, without newline) to the simulator."""
    out.write(line + b"\n")


def send_frame(frame):
    """Send one LED frame as the line "F <hex>", written in small pieces: a 256-pixel frame
    would otherwise cost three frame-sized strings of heap at every frame."""
    out.write(b"F ")
    view = memoryview(frame)
    for i in range(0, len(frame), 96):
        out.write(binascii.hexlify(view[i:i + 96]))
    out.write(b"\n")


def receive():
    """The next line from the simulator for the HAL, or None when nothing is waiting; a wait
    of the board's (KeyboardInterrupt when a Ctrl-C came)."""
    check_interrupt()
    return _held.pop(0) if _held else None


def check_interrupt():
    """Take in what the simulator sent; raise the KeyboardInterrupt a Ctrl-C asks for."""
    global _interrupted
    _take_side()
    if _interrupted:
        _interrupted = False
        send(b"X intr")
        raise KeyboardInterrupt


def _take_side():
    """Every line waiting on the side channel: the clock's grants and Ctrl-C are the board's
    own; the rest waits in _held for the HAL."""
    global _now, _interrupted
    while _poll.poll(0):
        line = inp.readline()
        if not line:
            raise SystemExit(67)  # the simulator went: the board is switched off
        line = line.rstrip()
        if line.startswith(b"T "):
            _now = int(line[2:])
        elif line == b"I":
            _interrupted = True
        elif line == b"i":
            _interrupted = False  # SIGINT delivered it
        elif len(_held) < HELD_MAX:
            _held.append(line)


# -- the board's clock ------------------------------------------------------------------


# In real time the board's clock is the wall's less the time the VM stood still, held back by
# the host's scheduler (a busy machine, a SIGSTOP): a real board's CPU and clock never part, so
# a gap between two looks at the clock counts as one tick at most, beyond what a sleep asked
# for. A 70 ms press then lasts 70 ms of the board's time however long the VM was held.
STALL_COUNTED_MS = 10
_held_back_ms = 0  # the wall's time not counted
_last_look = None  # the wall's ms at the last look at the clock


def _real_ms(slept=0):
    """The board's clock in real time; slept: the ms a sleep since the last look asked for."""
    global _held_back_ms, _last_look
    wall = time.ticks_ms()
    if _last_look is not None:
        gap = time.ticks_diff(wall, _last_look) - max(0, slept) - STALL_COUNTED_MS
        if gap > 0:
            _held_back_ms += gap
    _last_look = wall
    return time.ticks_add(wall, -_held_back_ms)


def ticks_ms():
    return _real_ms() if _now is None else time.ticks_add(0, _now)


def sleep_ms(ms):
    """Sleep on the board's clock: in virtual time, until the host has moved it past the end."""
    if _now is None:  # real time: on the side channel's poll, which a Ctrl-C ends
        end = time.ticks_add(_real_ms(), ms)
        slept = 0
        while True:
            check_interrupt()
            left = time.ticks_diff(end, _real_ms(slept))
            if left <= 0:
                return
            _poll.poll(left)
            slept = left
    if ms <= 0:
        check_interrupt()
        return
    wake = _now + ms
    send(b"S %d" % wake)
    while True:
        check_interrupt()
        if _now >= wake:
            return
        _poll.poll(-1)


def waiting_for_console():
    """The REPL is about to wait for console input: in virtual time, the host may move the
    clock on meanwhile (nothing on the board wakes before a byte comes)."""
    if _now is not None:
        send(b"W")


class _Module:
    """A module object that starts as a copy of a built-in one."""

    def __init__(self, builtin):
        for name in dir(builtin):
            if not name.startswith("__") and not hasattr(type(self), name):
                setattr(self, name, getattr(builtin, name))


class _Machine(_Module):
    def reset(self):
        """Hard reset: the simulator power-cycles the chip, as its watchdog would."""
        send(b"X reset")
        while True:
            sleep_ms(1000)

    class WDT:
        """The watchdog: the simulator resets the chip when it is not fed within timeout
        ms (it cannot be stopped, as on a real board: only a reset ends it)."""

        def __init__(self, id=0, timeout=5000):
            send(b"X wdt %d" % timeout)
            self._fed = ticks_ms()

        def feed(self):
            now = ticks_ms()
            if time.ticks_diff(now, self._fed) >= 100:  # a feed a tick would flood the pipe
                self._fed = now
                send(b"X feed")

    def unique_id(self):
        return b"\xcb\x00\x00\x00\x00\x00\x00\x01"

    def freq(self, hz=None):
        return 125_000_000


class _Uname:
    """os.uname() as a board gives it: machine names the board the simulator plays."""

    def __init__(self, machine):
        impl = sys.implementation
        version = ".".join(str(v) for v in impl.version[:3])
        self.sysname = self.nodename = sys.platform
        self.release = version
        self.version = "v%s (virtual board)" % version
        self.machine = machine


class _Os(_Module):
    machine = "virtual board"
    fs_size = 0  # bytes of the board's filesystem; 0: report the host's disk

    def uname(self):
        return _Uname(self.machine)

    def statvfs(self, path):
        """The board's filesystem as LittleFS would report it: 4 KB blocks, a file taking
        its size in whole blocks, a folder a metadata pair (an estimate of LittleFS's use)."""
        if not self.fs_size:
            return _os.statvfs(path)
        blocks = self.fs_size // 4096
        free = max(0, blocks - 2 - _blocks_used(""))
        return (4096, 4096, blocks, free, free, 0, 0, 0, 0, 255)

    def ilistdir(self, path=""):
        """Entries with their size, as LittleFS gives them (VfsPosix leaves it out)."""
        for entry in _os.ilistdir(path):
            name = entry[0]
            full = (path.rstrip("/") + "/" + name) if path else name
            size = 0 if entry[1] == 0x4000 else _os.stat(full)[6]
            yield (name, entry[1], entry[2], size)


def _blocks_used(top):
    used = 0
    for entry in _os.ilistdir(top or "/"):
        full = (top + "/" + entry[0]) if top else entry[0]
        if entry[1] == 0x4000:
            used += 2 + _blocks_used(full)
        else:
            used += max(1, (_os.stat(full)[6] + 4095) // 4096)
    return used


sys.modules["machine"] = _Machine(_machine)
sys.modules["os"] = _Os(_os)
