"""The virtual board's heap is the board's: the simulator's own "ROM" (vboard.py, simboard.py),
which a real board keeps in C, takes none of it, and the firmware gets no more than it."""

import re
import time

import pytest
import serial

from cheeseboard.sim.board import VirtualBoard

pytestmark = pytest.mark.board

BOOT_PY = """import gc
gc.collect()
print("free heap", gc.mem_free())
"""


@pytest.mark.parametrize("heap", [120_000, 200_000])
def test_the_firmware_finds_the_boards_heap_free_at_boot(tmp_path, heap):
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "boot.py").write_text(BOOT_PY)
    board = VirtualBoard(tmp_path / "f", heap, clock="virtual").start()
    try:
        with serial.Serial(board.pty_path, 115200, timeout=0.1) as port:
            said = b""
            deadline = time.monotonic() + 60  # (a wait on the VM's line, not a measure)
            while not re.search(rb"free heap (\d+)\r\n", said):
                assert time.monotonic() < deadline, said
                board.run(100)
                said += port.read(256)
        free = int(re.search(rb"free heap (\d+)\r\n", said).group(1))
        # boot.py's own code is in the heap while it runs: a few hundred bytes
        assert heap - 1536 <= free <= heap, (free, heap)
    finally:
        board.stop()
