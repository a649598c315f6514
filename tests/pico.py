"""The emulated Pico's tests: the UF2 they boot, and a table driven on the chip's clock."""

import os
import time
from pathlib import Path

import pytest
from engine_driver import VirtualTable


@pytest.fixture(scope="session")
def stock_uf2():
    """MicroPython's own UF2 for a Pico (CHEESEBOARD_PICO_UF2), or the test skips."""
    path = os.environ.get("CHEESEBOARD_PICO_UF2")
    if not path or not Path(path).is_file():
        pytest.skip("no Pico UF2: set CHEESEBOARD_PICO_UF2 to MicroPython's RPI_PICO UF2")
    return Path(path)


@pytest.fixture(scope="session")
def frozen_uf2():
    """A UF2 with this firmware frozen in (CHEESEBOARD_PICO_FROZEN_UF2), or the test skips."""
    path = os.environ.get("CHEESEBOARD_PICO_FROZEN_UF2")
    if not path or not Path(path).is_file():
        pytest.skip("no frozen UF2: set CHEESEBOARD_PICO_FROZEN_UF2 (`cheeseboard uf2` makes it)")
    return Path(path)


def board_ms(board):
    """The emulated chip's clock, in ms since it was powered on."""
    return board.link.status()["board_ms"]


def wait_board_ms(board, ms, timeout=60.0):
    """Wait until ms more have passed on the chip's clock (however slow the emulator runs)."""
    until = board_ms(board) + ms
    deadline = time.monotonic() + timeout
    while board_ms(board) < until:
        if time.monotonic() > deadline:
            raise AssertionError("the chip's clock did not pass %d ms" % ms)
        time.sleep(0.02)


class PicoTable(VirtualTable):
    """VirtualTable on the chip's clock: a press waits until the chip saw it released."""

    GAP_MS = 75

    def press(self, name):
        self.vboard.link.press(name, hold_ms=self.PRESS_MS)
        self.presses += 1
        wait_board_ms(self.vboard, self.PRESS_MS + self.GAP_MS)

    def hold(self, name):
        self.vboard.link.hold(name)
        self.presses += 1
        wait_board_ms(self.vboard, self.GAP_MS)

    def release(self, name):
        self.vboard.link.release(name)
        wait_board_ms(self.vboard, self.GAP_MS)

    def wait(self, ms):
        wait_board_ms(self.vboard, ms)
