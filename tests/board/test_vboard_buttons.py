"""Buttons pressed on the virtual board's pins reach the firmware as the player meant."""

import os
import signal
import time

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


@pytest.mark.parametrize("delay_ms", [0, 5, 10, 15, 20, 30])
def test_a_press_counts_once_though_the_vm_is_held_still_in_its_middle(make_vboard, delay_ms):
    """A busy host may hold the VM still for longer than a press lasts (SIGSTOP here, for a
    second, at several instants of a 60 ms press): the board's clock counts at most a tick of
    that stall, as a real board's CPU and clock never part, so the press still counts, once."""
    board = make_vboard(clock="real")
    board.wait_protocol()
    start = board.request("state")["state"]
    choices = start["choices"]
    want = choices[(choices.index(start["value"]) + 1) % len(choices)]
    vm = board.vm_pid()
    board.link.press("next", hold_ms=60)
    time.sleep(delay_ms / 1000)  # where the stall falls: the verdict is the same at any instant
    os.kill(vm, signal.SIGSTOP)
    try:
        time.sleep(1.0)
    finally:
        os.kill(vm, signal.SIGCONT)
    board.wait_until(lambda: board.request("state")["state"]["value"] == want, timeout=30,
                     what="the press to move the menu one step")
    board.link.press("ok", hold_ms=60)  # a press after it: the first one is over, and once
    board.wait_until(lambda: board.request("state")["state"]["step"] != "game", timeout=30)
    assert board.request("state")["state"]["game"] == want
