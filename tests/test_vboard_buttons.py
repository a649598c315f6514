"""Buttons pressed on the virtual board's pins reach the firmware as the player meant."""

import pytest

pytestmark = pytest.mark.board


def lit(frame):
    return [i for i in range(len(frame) // 3) if any(frame[3 * i:3 * i + 3])]


def test_a_bouncing_press_moves_the_demo_cursor_exactly_once(vboard):
    vboard.wait_protocol()
    vboard.link.wait_frame(0)
    start = vboard.request("state")["state"]
    vboard.link.press("next", hold_ms=100, bounce_ms=6)
    frame = vboard.link.wait_frame()
    assert lit(frame) == [start["cursor"] + 1]
    vboard.link.press("prev", hold_ms=100, bounce_ms=6)
    vboard.link.wait_frame()
    after = vboard.request("state")["state"]
    assert after["cursor"] == start["cursor"]
    assert after["presses"] == start["presses"] + 2


def test_idle_ticks_write_no_frame(vboard):
    vboard.wait_protocol()
    vboard.link.wait_frame(0)
    seq = vboard.link.frame_seq
    with pytest.raises(AssertionError, match="timed out"):
        vboard.link.wait_frame(timeout=1.0)
    assert vboard.link.frame_seq == seq
