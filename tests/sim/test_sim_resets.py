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


def returns(call, timeout=10):
    """Whether call() returned within timeout seconds (run in a thread that may be left)."""
    done = threading.Event()
    threading.Thread(target=lambda: (call(), done.set()), daemon=True).start()
    return done.wait(timeout)
