"""The simulator boots every profile by name, its heap capped to the profile's figure.

The unix port is 64-bit (objects about 1.6 times a board's size): the ESP32 and CircuitPython
profiles' heaps are their boards' own mapped onto it (the notes in each profile say how);
tests/hardware/test_vboard_profile_heap.py plays every profile at its heap.
"""

import pytest
from vboard import VBoard

from cheeseboard import paths

pytestmark = pytest.mark.board


@pytest.mark.parametrize("name", ["esp32", "circuitpython"])
def test_the_sim_boots_the_profile(tmp_path, name):
    board = VBoard(tmp_path / "flash", profile=name)
    try:
        hello = board.request("hello")
        assert hello["profile"] == name
        # The VM runs with the profile's heap: what is free is less than the cap.
        assert 0 < hello["heap_free"] < paths.load_profile(name)["heap"]
        assert "menu" in str(board.request("state")["state"])
    finally:
        board.stop()
