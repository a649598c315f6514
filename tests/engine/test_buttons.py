"""Buttons: bounce, long press, a stuck button, several at once - each gives what was meant."""

import sys
from pathlib import Path

import pytest

from cheesefw import buttons as B
from cheesefw import hal

FAKES = Path(__file__).resolve().parents[1] / "support" / "fakes"


class ScriptedPin:
    """A pin whose level follows [(ms, level)] steps on a test-controlled clock."""

    def __init__(self, clock, steps=()):
        self.clock = clock
        self.steps = list(steps)

    def value(self):
        level = 1
        for t, v in self.steps:
            if t <= self.clock[0]:
                level = v
        return level


def run(pins, until_ms, every_ms=5):
    clock = [0]
    board = type("FakeBoard", (), {})()
    board.pins = {name: ScriptedPin(clock, steps) for name, steps in pins.items()}
    board.ticks_ms = lambda: clock[0]
    board.ticks_diff = lambda a, b: a - b
    buttons = B.Buttons(board)
    seen = []
    while clock[0] <= until_ms:
        seen += [(clock[0], name, ev) for name, ev in buttons.events()]
        clock[0] += every_ms
    return seen, buttons


def chatter(at, level, ms):
    return [(at + i, level if i % 2 == 0 else 1 - level) for i in range(ms)] + [(at + ms, level)]


def test_bounce_of_several_ms_gives_exactly_one_press_and_release():
    seen, _ = run({"ok": chatter(100, 0, 8) + chatter(300, 1, 8)}, 600, every_ms=1)
    assert [(n, e) for _, n, e in seen] == [("ok", "press"), ("ok", "release")]


def test_a_glitch_shorter_than_the_debounce_time_is_ignored():
    seen, _ = run({"ok": [(100, 0), (110, 1)]}, 400, every_ms=1)
    assert seen == []


def test_long_press_gives_press_then_long_once_then_release():
    seen, _ = run({"roll": [(50, 0), (2050, 1)]}, 2500)
    events = [e for _, _, e in seen]
    assert events == ["press", "long", "release"]
    long_at = [t for t, _, e in seen if e == "long"][0]
    assert B.LONG_MS <= long_at - 50 <= B.LONG_MS + B.DEBOUNCE_MS + 10


def test_a_stuck_button_is_reported_once_and_ignored_until_released():
    seen, buttons = run({"next": [(0, 0)], "ok": chatter(12000, 0, 3) + [(12100, 1)]}, 12500)
    events = [(n, e) for _, n, e in seen]
    assert events.count(("next", "stuck")) == 1
    assert ("next", "release") not in events
    assert buttons.stuck() == ["next"]
    # the other buttons still work while one is stuck
    assert ("ok", "press") in events and ("ok", "release") in events


def test_a_button_held_at_power_on_is_not_a_press():
    seen, buttons = run({"back": [(-1, 0)]}, 1000)
    assert seen == []


def test_several_buttons_at_once_each_give_their_own_events():
    seen, _ = run({"prev": [(50, 0), (150, 1)], "next": [(55, 0), (150, 1)],
                   "ok": [(60, 0), (150, 1)]}, 400)
    presses = sorted(n for _, n, e in seen if e == "press")
    releases = sorted(n for _, n, e in seen if e == "release")
    assert presses == releases == ["next", "ok", "prev"]


def test_the_backend_is_chosen_by_platform_and_an_unknown_one_fails(monkeypatch):
    monkeypatch.syspath_prepend(str(FAKES))
    for name in ("machine", "neopixel", "cheesefw.hal.micropython"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import json

    profile = json.loads((FAKES.parents[2] / "hardware/profiles/pico.json").read_text())
    monkeypatch.setattr(sys, "platform", "esp32")  # (rp2's backend needs the chip's PIO)
    board = hal.open_board(profile)
    assert type(board).__module__ == "cheesefw.hal.micropython"
    monkeypatch.setattr(sys, "platform", "win32")
    with pytest.raises(RuntimeError, match="no HAL backend for platform 'win32'"):
        hal.open_board(profile)
