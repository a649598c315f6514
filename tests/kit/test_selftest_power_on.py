"""Holding roll at power-on starts the bring-up test; a board powered on without it plays."""

import engine_driver
import pytest

from cheesefw import app, selftest, startup
from cheesefw.engine.core import Engine


class Pin:
    def __init__(self, level):
        self.level = level

    def value(self):
        return self.level


class HeldBoard(engine_driver.MemoryBoard):
    """A board powered on with some buttons held down."""

    held = ()

    def _make_pin(self, name, pin_id):
        return Pin(0 if name in self.held else 1)


@pytest.mark.parametrize("held,testing,stuck", [
    ((), False, []), (("roll",), True, []), (("roll", "prev"), True, ["prev"])])
def test_roll_held_at_power_on_starts_the_self_test(monkeypatch, held, testing, stuck):
    monkeypatch.setattr(HeldBoard, "held", held)
    board = HeldBoard()
    monkeypatch.setattr(startup, "start", lambda trial, feed: (board, Engine(board)))
    started = app._power_on(False, None)
    assert isinstance(started.scene, selftest.SelfTest) == testing
    if testing:
        # roll asked for the test: it is no fault; another button held down is one
        assert started.scene.stuck == stuck
        assert started.scene.faults == len(stuck)
