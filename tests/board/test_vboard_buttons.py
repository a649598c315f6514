"""Buttons pressed on the virtual board's pins reach the firmware as the player meant."""

import pytest

pytestmark = pytest.mark.board


def test_a_bouncing_press_moves_the_menu_exactly_once(vboard):
    vboard.wait_protocol()
    vboard.link.wait_frame(0)
    start = vboard.request("state")["state"]
    assert start["mode"] == "menu" and start["step"] == "game"
    choices = start["choices"]
    i = choices.index(start["value"])
    seq = vboard.link.frame_seq
    vboard.link.press("next", hold_ms=100, bounce_ms=6)
    vboard.link.wait_frame(seq)
    assert vboard.request("state")["state"]["value"] == choices[(i + 1) % len(choices)]
    vboard.link.press("prev", hold_ms=100, bounce_ms=6)
    vboard.link.wait_frame()
    assert vboard.request("state")["state"]["value"] == start["value"]


def test_a_long_press_is_one_press_and_several_buttons_at_once_each_count(vboard):
    vboard.wait_protocol()
    start = vboard.request("state")["state"]
    vboard.link.press("next", hold_ms=1200)  # long: one move, not a repeat
    vboard.link.wait_for(lambda s: vboard.request("state")["state"]["value"] != start["value"],
                         timeout=5, what="the menu to move")
    moved = vboard.request("state")["state"]["value"]
    vboard.sleep(1.4)  # until the long press is released
    vboard.link.pin("next", [(0, 0), (100, 1)])
    vboard.link.pin("prev", [(0, 0), (100, 1)])  # together: +1 and -1
    vboard.sleep(0.5)
    assert vboard.request("state")["state"]["value"] == moved


def test_idle_ticks_write_no_frame(vboard):
    vboard.wait_protocol()
    vboard.link.wait_frame(0)
    seq = vboard.link.frame_seq
    with pytest.raises(AssertionError, match="timed out"):
        vboard.link.wait_frame(timeout=1.0)
    assert vboard.link.frame_seq == seq


def test_a_stuck_button_is_reported_and_the_others_still_work(vboard):
    vboard.wait_protocol()
    vboard.link.hold("back", bounce_ms=3)  # jammed down
    vboard.sleep(10.6)
    reply = vboard.request("state")
    assert reply["stuck"] == ["back"]
    start = reply["state"]["value"]
    vboard.link.press("next", hold_ms=60)
    vboard.sleep(0.3)
    assert vboard.request("state")["state"]["value"] != start  # play goes on
    vboard.link.release("back")
    vboard.sleep(0.3)
    assert vboard.request("state")["stuck"] == []
