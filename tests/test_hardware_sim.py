"""The simulator boots every profile by name, its heap capped to the profile's figure.

The unix port is 64-bit (objects about twice a board's size): the ESP32 profile's
heap (100 000 B) is the least at which the firmware answers its console there.
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
