"""Resets and power cycles in quick succession, from another thread than the simulator's own:
the virtual board comes up every time and keeps serving (a scenario's `reset` does this). So
does a VM stopped in the middle of a line, or gone before the simulator has seen it end."""

import threading
import time

import pytest
import serial

from cheeseboard import paths
from cheeseboard.board.protocol import Client
from cheeseboard.sim import flash as simflash
from cheeseboard.sim.board import VirtualBoard
from cheeseboard.sim.clock import FOREVER

pytestmark = pytest.mark.board


@pytest.mark.parametrize("clock", ["real", "virtual"])
def test_resets_back_to_back_leave_a_board_that_boots_and_answers(tmp_path, clock):
    # (at wall instants: some while the VM boots, some while it sleeps or waits for its clock)
    profile = paths.load_profile("pico")
    simflash.install_firmware(tmp_path / "f", profile)
    board = VirtualBoard(tmp_path / "f", profile["heap"], clock=clock)
    boots = []
    board.listeners.append(lambda e: boots.append(e) if e.get("ev") == "boot" else None)
    board.start()
    try:
        for i in range(30):  # some while the VM starts, some while main.py runs
            time.sleep(0.05 * (i % 5))
            assert returns(board.hard_reset), "reset %d did not return: the simulator is stuck" % i
        assert len(boots) == 31 and board.is_on
        with serial.Serial(board.pty_path, 115200, timeout=0.1) as port:
            client = Client(port, timeout=1)
            deadline = time.monotonic() + 20
            while True:
                try:
                    assert client.request("hello")["ok"]
                    break
                except Exception:
                    if time.monotonic() > deadline:
                        raise
    finally:
        returns(board.stop)  # a stuck simulator would not stop either: the test says so


def test_a_chip_gone_before_its_end_is_seen_leaves_the_board_serving(tmp_path):
    # A soft reboot ends the VM's process; the simulator sees it end when the VM's stdout
    # closes. In between, the clock can reach the instant the VM last asked to be woken at
    # (a free run's does, as the wall goes on), and the grant goes to a pipe nobody reads
    # any more. That instant is held open here: the simulator's lock kept, the VM gone, the
    # clock run past its sleep.
    profile = paths.load_profile("pico")
    simflash.install_firmware(tmp_path / "f", profile)
    board = VirtualBoard(tmp_path / "f", profile["heap"], clock="virtual").start()
    try:
        board.run(2000)  # the firmware is in its main loop: it sleeps between ticks
        with board._lock:
            assert board.clock.wake not in (None, float("inf"))
            board._proc.kill()
            board._proc.wait()
            assert board.run(100)["reason"] == "time"  # its sleep was granted, to no one
        with serial.Serial(board.pty_path, 115200, timeout=0.1) as port:
            client = Client(port, timeout=1)
            assert client.ask_until_answered("hello", 20)["ok"]  # a new VM, and it is heard
    finally:
        assert returns(board.stop)


def test_a_frame_cut_short_by_ctrl_c_is_dropped_and_the_line_after_it_is_read(tmp_path):
    # The VM writes a frame's line in pieces; SIGINT between two of them leaves the
    # line without its end, and the VM's next line is glued to it.
    board = VirtualBoard(tmp_path / "f", 200_000, clock="virtual")  # (not started: no VM)
    board.clock.wake = None  # the VM runs
    board._side_message(b"F ff00" + b"W")  # cut, then: the VM waits for console input
    assert board.frame_seq == 0 and board.clock.wake == FOREVER
    board._side_message(b"F 00ff0" + b"F 0000ff")  # cut mid-digit, then a whole frame
    assert board.frame_seq == 1 and board.frame == bytes((0, 0, 255))
    board._side_message(b"F 0011ff")
    assert board.frame_seq == 2 and board.frame == bytes((0, 0x11, 255))
    board.stop()


def returns(call, timeout=10):
    """Whether call() returned within timeout seconds (run in a thread that may be left)."""
    done = threading.Event()
    threading.Thread(target=lambda: (call(), done.set()), daemon=True).start()
    return done.wait(timeout)
