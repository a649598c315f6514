"""The MicroPython backend for real boards, on the MicroPython VM with faithful fakes."""

import json
from pathlib import Path

import pytest
from mpvm import run_mp

pytestmark = pytest.mark.board

FAKES = Path(__file__).resolve().parents[1] / "support" / "fakes"
PROFILE = json.loads((Path(__file__).resolve().parents[2] / "hardware/profiles/pico.json")
                     .read_text())

SETUP = """
import json, time
import machine, neopixel
from cheesefw.hal import micropython as backend
profile = json.loads(%r)
""" % json.dumps(PROFILE)


def test_frames_go_out_in_the_wire_order_grb():
    out = run_mp(SETUP + """
board = backend.Board(profile)
frame = bytearray(3 * board.pixel_count)
frame[0:3] = bytes((10, 20, 30))    # pixel 0: r=10 g=20 b=30
frame[3:6] = bytes((255, 0, 0))     # pixel 1: pure red
board.show(frame)
wire = neopixel.NeoPixel.writes[-1]
print(list(wire[0:6]))
print(board._strip[0], board._strip[1])
""", path=[FAKES])
    lines = out.split("\n")
    assert lines[0] == "[20, 10, 30, 0, 255, 0]"  # G, R, B per pixel
    assert lines[1] == "(10, 20, 30) (255, 0, 0)"  # the driver reads back RGB


def test_rgb_order_profile_and_a_bad_order_is_refused():
    out = run_mp(SETUP + """
profile['led']['order'] = 'RGB'
board = backend.Board(profile)
frame = bytearray(3 * board.pixel_count); frame[0:3] = bytes((1, 2, 3))
board.show(frame)
print(list(neopixel.NeoPixel.writes[-1][0:3]))
profile['led']['order'] = 'XYZ'
try:
    backend.Board(profile)
except ValueError as e:
    print('refused', e)
""", path=[FAKES])
    assert "[1, 2, 3]" in out
    assert "refused led.order" in out


def test_buttons_are_pulled_up_inputs_on_the_profile_pins():
    out = run_mp(SETUP + """
board = backend.Board(profile)
for name in sorted(board.pins):
    p = board.pins[name]
    print(name, p.id, p.mode == machine.Pin.IN, p.pull == machine.Pin.PULL_UP, p.value())
""", path=[FAKES])
    for name, pin in PROFILE["buttons"].items():
        assert "%s %d True True 1" % (name, pin) in out


def test_a_bouncing_switch_gives_one_press_and_one_release():
    out = run_mp(SETUP + """
from cheesefw.buttons import Buttons
board = backend.Board(profile)
buttons = Buttons(board)
pin = board.pins['ok']
t0 = time.ticks_ms()
steps = []
for i in range(6):          # 6 ms of chatter as the contact closes
    steps.append((t0 + 10 + i, i % 2))
steps.append((t0 + 16, 0))
for i in range(6):          # and 6 ms as it opens
    steps.append((t0 + 200 + i, 1 - i % 2))
steps.append((t0 + 206, 1))
pin.drive(steps)
events = []
while time.ticks_diff(time.ticks_ms(), t0) < 320:
    events.extend(buttons.events())
    time.sleep_ms(1)        # sampled far faster than the main loop, to catch every bounce
print(events)
""", path=[FAKES])
    assert out.strip() == "[('ok', 'press'), ('ok', 'release')]"
