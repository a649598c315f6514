"""Resets and power cycles in quick succession, from another thread than the simulator's own:
the virtual board comes up every time and keeps serving (a scenario's `reset` does this)."""

import threading
import time

import pytest
import serial

from cheeseboard import paths
from cheeseboard.board.protocol import Client
from cheeseboard.sim import flash as simflash
from cheeseboard.sim.board import VirtualBoard

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


def returns(call, timeout=10):
    """Whether call() returned within timeout seconds (run in a thread that may be left)."""
    done = threading.Event()
    threading.Thread(target=lambda: (call(), done.set()), daemon=True).start()
    return done.wait(timeout)
