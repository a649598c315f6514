"""Ctrl-C on the virtual board: taken where the VM waits, as a board's VM takes it between two
bytecodes; a signal only for code that never waits.

The unix port raises KeyboardInterrupt from inside its SIGINT handler, wherever the VM is. One
that lands while the VM interns a string leaves the VM's lock for them held, and the next
import waits on it for ever: a board gone silent on its way to the raw REPL, about once in
a few thousand Ctrl-Cs. So a Ctrl-C goes on the side channel, and the count of those that
needed a signal is what these tests watch.
"""

import os
import signal
import time

import pytest

from cheeseboard.sim.board import INTERRUPT_GRACE

pytestmark = pytest.mark.board


def signalled(vboard):
    return vboard.link.status()["interrupts_signalled"]


def stopped_at_the_prompt(vboard):
    """The firmware up, then stopped by a Ctrl-C; what the board printed up to its prompt."""
    vboard.wait_protocol()
    vboard.port.write(b"\x03")
    return vboard.read_until(b">>> ")


def test_a_ctrl_c_stops_the_running_firmware_and_the_repl_line_without_a_signal(vboard):
    assert b"KeyboardInterrupt" in stopped_at_the_prompt(vboard)
    vboard.port.write(b"1 +\x03")  # at the prompt: the line is dropped, a new prompt comes
    assert vboard.read_until(b">>> ").endswith(b"1 +\r\n>>> ")
    assert signalled(vboard) == 0


def test_what_follows_a_ctrl_c_reaches_the_board_after_it(vboard):
    stopped_at_the_prompt(vboard)
    # In one write: "2*3", Ctrl-C (the line is dropped), then "4*5" on a line of its own.
    # Taken out of order, the board would read "2*34*5" and print 340.
    vboard.port.write(b"2*3\x034*5\r")
    out = vboard.read_until(b"20\r\n>>> ")
    assert b"340" not in out
    assert signalled(vboard) == 0


def test_a_ctrl_c_ends_a_sleep_of_the_firmware_at_once(vboard):
    stopped_at_the_prompt(vboard)
    vboard.port.write(b"import simboard; simboard.sleep_ms(3600000)\r")
    vboard.read_until(b"sleep_ms(3600000)\r\n")
    vboard.advance(1000)  # an hour's sleep, a second into it
    vboard.port.write(b"\x03")
    out = vboard.read_until(b">>> ")
    assert b"KeyboardInterrupt" in out
    assert vboard.advance(0) < 3600000
    assert signalled(vboard) == 0


@pytest.mark.wall  # the grace a Ctrl-C gives code that never waits is the wall's
def test_code_that_never_waits_is_stopped_by_a_signal_and_the_ctrl_c_counts_once(vboard):
    stopped_at_the_prompt(vboard)
    vboard.port.write(b"while True: pass\r")
    vboard.read_until(b"while True: pass\r\n")
    vboard.port.write(b"\x03")
    out = vboard.read_until(b">>> ", timeout=15)
    assert b"KeyboardInterrupt" in out
    assert signalled(vboard) == 1
    # The side channel's "I" the loop never read is void: no second Ctrl-C at the prompt.
    vboard.port.timeout = 0.5
    assert vboard.port.read(100) == b""
    vboard.port.write(b"6*7\r")
    assert vboard.read_until(b">>> ") == b"6*7\r\n42\r\n>>> "


def test_a_ctrl_c_behind_a_line_the_stopped_vm_has_not_read_stops_what_the_line_runs(vboard):
    """The Ctrl-C's grace runs out while the VM, held by the host's scheduler, still waits at
    its prompt: the signal waits for the line's code. Sent into the REPL's own wait, it would
    drop the empty line there, and the loop typed before it would run on unstopped."""
    stopped_at_the_prompt(vboard)
    vm = vboard.vm_pid()
    os.kill(vm, signal.SIGSTOP)
    try:
        vboard.port.write(b"while True: pass\r\x03")
        # Past the grace on the wall, so that a host that signalled the ROM would have.
        time.sleep(INTERRUPT_GRACE + 1)
    finally:
        os.kill(vm, signal.SIGCONT)
    out = vboard.read_until(b">>> ", timeout=30)
    assert b"KeyboardInterrupt" in out
    assert signalled(vboard) == 1
