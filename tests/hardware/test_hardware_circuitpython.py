"""The CircuitPython backend under CPython, with the REAL adafruit neopixel library.

adafruit-circuitpython-neopixel (and its adafruit_pixelbuf) are the installed packages,
unchanged: they decide the byte order and apply the brightness. Only what cannot exist
off a board is faked: the `board` pins, `digitalio`'s GPIO, `supervisor`'s clock and
console, and `neopixel_write`, the bit-banged write, which here records what it gets.
"""

import importlib
import json
import sys
import types
from pathlib import Path

import pytest

PROFILE = json.loads((Path(__file__).resolve().parents[2]
                      / "hardware/profiles/circuitpython.json").read_text())


class FakeIO:
    """digitalio.DigitalInOut over a fake pin: records its set-up; value follows pin.level."""

    def __init__(self, pin):
        self.pin = pin
        self.pull = None
        self.direction = None

    def switch_to_input(self, pull=None):
        self.pull = pull

    @property
    def value(self):
        return self.pin.level if self.pull == "UP" else False

    def deinit(self):
        pass


class Pin:
    def __init__(self, name):
        self.name = name
        self.level = True  # pulled up, released


@pytest.fixture
def cp(monkeypatch):
    """The backend module, imported against the fakes; .writes holds every wire write."""
    writes = []
    board = types.ModuleType("board")
    for n in range(29):
        setattr(board, "GP%d" % n, Pin("GP%d" % n))
    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = FakeIO
    digitalio.Pull = types.SimpleNamespace(UP="UP", DOWN="DOWN")
    digitalio.Direction = types.SimpleNamespace(INPUT="IN", OUTPUT="OUT")
    write = types.ModuleType("neopixel_write")
    write.neopixel_write = lambda io, buf: writes.append((io.pin.name, bytes(buf)))
    supervisor = types.ModuleType("supervisor")
    supervisor.ticks_ms = lambda: 0
    supervisor.runtime = types.SimpleNamespace(serial_bytes_available=0)
    for mod in (board, digitalio, write, supervisor):
        monkeypatch.setitem(sys.modules, mod.__name__, mod)
    for name in ("neopixel", "cheesefw.hal.circuitpython"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    importlib.import_module("neopixel")  # the real one, now over the fakes
    backend = importlib.import_module("cheesefw.hal.circuitpython")
    backend.writes = writes
    backend.fake_board = board
    yield backend
    for name in ("neopixel", "cheesefw.hal.circuitpython"):
        sys.modules.pop(name, None)  # bound to the fakes: no later test may get them


def test_the_real_adafruit_library_is_the_one_used(cp):
    import neopixel

    assert "site-packages" in neopixel.__file__
    assert neopixel.__version__.split(".")[0] >= "6"
    strip = cp.Board(dict(PROFILE))._strip
    assert isinstance(strip, neopixel.NeoPixel)
    assert strip.brightness == 1.0 and strip.auto_write is False


def test_frames_go_out_grb_at_full_brightness_one_write_per_show(cp):
    board = cp.Board(dict(PROFILE))
    frame = bytearray(3 * board.pixel_count)
    frame[0:3] = bytes((10, 20, 30))
    frame[3:6] = bytes((255, 0, 0))
    frame[-3:] = bytes((255, 255, 255))
    assert cp.writes == []  # auto_write off: nothing goes out before show
    board.show(frame)
    assert len(cp.writes) == 1
    pin, wire = cp.writes[0]
    assert pin == "GP2"  # the profile's led.pin
    assert len(wire) == 3 * 64
    assert list(wire[0:6]) == [20, 10, 30, 0, 255, 0]  # G, R, B per pixel
    assert list(wire[-3:]) == [255, 255, 255]  # brightness 1.0: not scaled down


def test_rgb_order_profile_and_a_bad_order(cp):
    profile = dict(PROFILE, led=dict(PROFILE["led"], order="RGB"))
    board = cp.Board(profile)
    frame = bytearray(3 * board.pixel_count)
    frame[0:3] = bytes((1, 2, 3))
    board.show(frame)
    assert list(cp.writes[-1][1][0:3]) == [1, 2, 3]
    with pytest.raises(ValueError, match="led.order"):
        cp.Board(dict(PROFILE, led=dict(PROFILE["led"], order="XYZ")))


def test_buttons_are_pulled_up_and_read_0_when_pressed(cp):
    board = cp.Board(dict(PROFILE))
    for name, pin_name in PROFILE["buttons"].items():
        pin = board.pins[name]
        assert pin.io.pin is getattr(cp.fake_board, pin_name)
        assert pin.io.pull == "UP"
        assert pin.value() == 1
    cp.fake_board.GP12.level = False  # ok closes to ground
    assert board.pins["ok"].value() == 0
    assert board.pins["next"].value() == 1


def test_a_pin_the_board_lacks_is_named(cp):
    profile = dict(PROFILE, buttons=dict(PROFILE["buttons"], ok="GP99"))
    with pytest.raises(ValueError, match="GP99"):
        cp.Board(profile)


def test_ticks_diff_across_supervisor_wrap(cp):
    board = cp.Board(dict(PROFILE))
    assert board.ticks_diff(5, (1 << 29) - 5) == 10
    assert board.ticks_diff((1 << 29) - 5, 5) == -10
    assert board.ticks_diff(300, 100) == 200


def test_open_board_picks_it_on_circuitpython(cp, monkeypatch):
    from cheesefw import hal

    impl = types.SimpleNamespace(**dict(vars(sys.implementation), name="circuitpython"))
    monkeypatch.setattr(sys, "implementation", impl)
    monkeypatch.setattr(sys, "platform", "RP2040")
    assert type(hal.open_board(dict(PROFILE))).__module__ == "cheesefw.hal.circuitpython"


def test_console_reads_only_what_waits(cp, monkeypatch):
    import io

    board = cp.Board(dict(PROFILE))
    assert board.console_read() == b""  # nothing waiting: no read, so no block
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"cmd": "hello"}\nmore'))
    sys.modules["supervisor"].runtime.serial_bytes_available = 17
    assert board.console_read() == b'{"cmd": "hello"}\n'
