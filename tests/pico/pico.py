"""The emulated Pico's tests: a table driven on the chip's clock (the UF2s they boot are
conftest's stock_uf2 and frozen_uf2, built by `cheeseboard uf2`)."""

import time

import pytest
from engine_driver import VirtualTable

from cheeseboard.pico.board import PicoError, bootrom_path, check_node


def skip_without_the_emulator():
    """Skip the calling test module in one line where Node or the RP2040's boot ROM is missing."""
    try:
        check_node()
        bootrom_path()
    except PicoError as e:
        pytest.skip(str(e), allow_module_level=True)


def board_ms(board):
    """The emulated chip's clock, in ms since it was powered on."""
    return board.link.status()["board_ms"]


def wait_board_ms(board, ms, timeout=60.0):
    """Wait until ms more have passed on the chip's clock (however slow the emulator runs)."""
    wait_until_board_ms(board, board_ms(board) + ms, timeout)


def wait_until_board_ms(board, until, timeout=60.0):
    """Wait until the chip's clock has passed `until` ms."""
    deadline = time.monotonic() + timeout
    while board_ms(board) < until:
        if time.monotonic() > deadline:
            raise AssertionError("the chip's clock did not reach %d ms" % until)
        time.sleep(0.02)


def pin_taken_at(board, drive):
    """drive() sends a button's levels; the chip's clock, in ms, when the emulator took them.
    Their "from now" counts from there: a busy host may pass them on late, after the clock it
    last reported, and a press timed from that could still be down when the test goes on."""
    link = board.link
    start = len(link.events)
    drive()
    taken = []

    def took(s):
        taken[:] = [e for e in s.events[start:] if e.get("ev") == "pin"]
        return bool(taken)

    link.wait_for(took, 60, "the emulator to take the pin's levels")
    return taken[0]["at_ms"]


class PicoTable(VirtualTable):
    """VirtualTable on the chip's clock: a press waits until the chip saw it released."""

    GAP_MS = 75

    def press(self, name):
        at = pin_taken_at(self.vboard, lambda: self.vboard.link.press(name, hold_ms=self.PRESS_MS))
        self.presses += 1
        wait_until_board_ms(self.vboard, at + self.PRESS_MS + self.GAP_MS)

    def hold(self, name):
        at = pin_taken_at(self.vboard, lambda: self.vboard.link.hold(name))
        self.presses += 1
        wait_until_board_ms(self.vboard, at + self.GAP_MS)

    def release(self, name):
        at = pin_taken_at(self.vboard, lambda: self.vboard.link.release(name))
        wait_until_board_ms(self.vboard, at + self.GAP_MS)

    def wait(self, ms):
        wait_board_ms(self.vboard, ms)


def play_until(table, moves, most=40):
    """Press what the game waits for until it has made `moves` moves (at most `most` presses):
    a press made while the chip computes a game's start (its clock running on) is lost, as on a
    board a press that nobody's loop reads; the state after. Short of `moves` after them all,
    AssertionError with what the board waited for at each press and the chip's clock."""
    seen = []
    for _ in range(most):
        s = table.state()
        if s["moves"] >= moves:
            return s
        button = {"roll": "roll", "rolling": "next"}.get(s["wait"], "ok")
        seen.append("%s %s at %d ms" % (s["wait"], button, board_ms(table.vboard)))
        table.press(button)
    s = table.state()
    if s["moves"] < moves:
        raise AssertionError("%d of %d moves after %d presses; the board waited for, and was "
                             "pressed: %s; then %r" % (s["moves"], moves, most, "; ".join(seen), s))
    return s
