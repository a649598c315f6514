"""The reset button on the side channel, pressed again and again: the board comes back each
time, at the REPL or in a game (a reset used to deadlock the simulator: the I/O thread
waited, holding the board's lock, for the VM the reset had just started)."""

import pytest
from engine_driver import VirtualTable, choose_options

pytestmark = pytest.mark.board

DEFAULT_RESETS = 10  # at each place: 20 in all; the slow run does 100 at each


def _reset_and_hello(board):
    boots = board.link.status()["boots"]
    board.link.send(op="reset")
    board.link.wait_for(lambda s: s.status(timeout=5)["boots"] > boots, timeout=10,
                        what="the board to boot again")
    return board.wait_protocol(timeout=15)


@pytest.mark.parametrize("resets", [DEFAULT_RESETS, pytest.param(100, marks=pytest.mark.slow)])
def test_resets_at_the_repl_each_bring_the_firmware_back(vboard, resets):
    vboard.wait_protocol()
    for i in range(resets):
        vboard.port.write(b"\r\x03")  # stop main.py: the board sits at the friendly REPL
        vboard.read_until(b">>> ")
        assert _reset_and_hello(vboard)["profile"] == "pico", i


@pytest.mark.parametrize("resets", [DEFAULT_RESETS, pytest.param(100, marks=pytest.mark.slow)])
def test_resets_in_a_game_each_bring_the_game_back(vboard, resets):
    vboard.wait_protocol()
    table = VirtualTable(vboard)
    choose_options(table, "kitchen", {"short_game": True})
    assert table.state()["mode"] == "play"
    for i in range(resets):
        assert _reset_and_hello(vboard)["profile"] == "pico", i
        state = vboard.request("state")["state"]
        assert state["mode"] == "play" and state["game"] == "kitchen", (i, state)


def test_a_ctrl_c_that_stops_boot_py_early_still_boots_the_firmware(make_vboard, tmp_path):
    # A host tool's Ctrl-C can land in boot.py before it puts the active slot on the path;
    # the board runs main.py all the same, which must still find the firmware (not fail to
    # import it and count a fall). The boot.py here is stopped at that instant.
    import json

    from cheeseboard import paths
    from cheeseboard.flash import image

    flash = tmp_path / "flash"
    image.write_to_folder(image.make(paths.load_profile("pico")), flash)
    boot = flash / "boot.py"
    boot.write_text("raise KeyboardInterrupt  # a Ctrl-C, here\n" + boot.read_text())
    board = make_vboard(flash_dir=flash)
    assert board.wait_protocol()["firmware"]
    state = json.loads((flash / "slot.json").read_text())
    assert "falls" not in state and state["active"] == "slot_a"
