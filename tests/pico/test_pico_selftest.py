"""The bring-up test on the emulated Pico (the frozen UF2): the chain walked on the NeoPixel pin,
as a panel wired with another colour order shows it; a stuck button and a swapped pair."""

import time

import pytest
from pico import pin_taken_at, skip_without_the_emulator, wait_board_ms, wait_until_board_ms
from vboard import VBoard

from cheeseboard.pico.board import ORDERS, wire_to_rgb

pytestmark = [pytest.mark.board, pytest.mark.wall]

skip_without_the_emulator()


def rgb_to_wire(frame, order):
    """The bytes the firmware put on the pin for a frame, in the profile's order."""
    wire = bytearray(len(frame))
    for p in range(len(frame) // 3):
        for colour, at in enumerate(ORDERS[order]):
            wire[3 * p + at] = frame[3 * p + colour]
    return bytes(wire)


def until_asked(board, name, timeout=300.0):
    deadline = time.monotonic() + timeout
    while True:
        report = board.request("selftest")
        if report["asking"] == name or (name is None and report["done"]):
            return report
        assert time.monotonic() < deadline, "never asked for %s: %s" % (name, report["lines"])
        wait_board_ms(board, 100)


def first_frame(link, wanted, timeout, what):
    """The first frame that is wanted, as it came: the walk goes on while the test reads it."""
    seen = []

    def came(link):
        if link.frame and wanted(link.frame):
            seen.append(link.frame)
        return bool(seen)

    link.wait_for(came, timeout, what)
    return seen[0]


def test_the_selftest_on_the_emulated_pico(tmp_path, frozen_uf2):
    board = VBoard(tmp_path / "selftest.bin", target="pico", uf2=frozen_uf2)
    try:
        board.wait_protocol(timeout=60)
        link = board.link
        # stuck from before the test: held 600 ms of the chip's clock from when the emulator
        # took it (the clock the host saw last may be well behind the chip's on a busy machine:
        # timed from it, the hold could still be too new to count when the test starts). Not
        # 100 ms: a board just booted may spend that long between two ticks writing its flash
        # (a sector's erase is 45 ms), and the button is seen only by a tick (a run in five
        # failed so on a loaded machine); under LONG_MS (800 ms), so that it is no long press
        held_at = pin_taken_at(board, lambda: link.hold("back"))
        wait_until_board_ms(board, held_at + 600)
        board.request("selftest", start=True)
        link.release("back")
        # Pixel 3 in red, as the pin carries it; on a panel whose pixels take RGB where the
        # profile says GRB, the person sees it green: the walk shows a wrong led.order at once.
        frame = first_frame(link, lambda frame: frame[9:12] == bytes((255, 0, 0)), 120,
                            "pixel 3 red")
        assert sum(frame) == 255
        wire = rgb_to_wire(frame, "GRB")
        assert wire_to_rgb(wire, 64, "GRB") == frame
        assert wire_to_rgb(wire, 64, "RGB")[9:12] == bytes((0, 255, 0))
        link.wait_for(lambda s: s.pixel(3) == (0, 0, 255), 300, "pixel 3 blue")
        until_asked(board, "prev")
        link.press("next")  # the prev button is on next's pin
        until_asked(board, "next")
        link.press("prev")
        for name in ("ok", "back", "roll"):
            until_asked(board, name)
            link.press(name)
        report = until_asked(board, None)
        lines = report["lines"]
        assert "FAULT back: held down from the start (stuck, or its pin shorted to GND)" in lines
        assert any(line.startswith("FAULT prev: asked for, next pressed instead") for line in lines)
        assert any(line.startswith("FAULT next: asked for, prev pressed instead") for line in lines)
        assert "ok: ok" in lines and "back: ok" in lines and "roll: ok" in lines
        assert report["faults"] == 3
        board.request("selftest", end=True)
        assert "menu" in str(board.request("state"))
    finally:
        board.stop()
