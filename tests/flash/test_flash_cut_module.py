"""A compiled module cut short in a sealed slot (a flash that lost its end, a worn block):
MicroPython's importer would read on past its end for ever and the board say nothing. The
loader checks each module's size against the slot's manifest before it imports any: the board
goes back to the other slot when that one is whole, else answers `hello` and `state` with the
file's name, and `cheeseboard flash` repairs it (on the unix-port board)."""

import json

import pytest
from flashing import append, firmware_copy, flash

from cheeseboard.paths import load_profile
from cheeseboard.sim import flash as simflash

pytestmark = pytest.mark.board


def cut_in_half(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize("module", ["cheesefw/app.mpy", "cheesefw/engine/core.mpy",
                                    "cheesefw/games/kitchen.mpy"])
def test_a_module_cut_in_half_is_named_by_the_board_and_flash_repairs_it(make_vboard, tmp_path,
                                                                         module):
    folder = tmp_path / "flash"
    simflash.install_firmware(folder, load_profile("pico"))
    cut_in_half(folder / "slot_a" / module)
    board = make_vboard(flash_dir=folder)
    hello = board.wait_protocol(timeout=60)  # not silent in the importer
    assert hello["fault"] == ("no whole firmware on the board: slot_a/%s is cut short (not the "
                              "size its manifest gives)" % module), hello
    assert board.request("state")["state"] == {"mode": "fault", "fault": hello["fault"]}
    result = flash(board)
    assert result.outcome == "up", (result.outcome, result.error)
    hello = board.wait_protocol(timeout=60)
    assert "fault" not in hello and hello["profile"] == "pico", hello


def test_a_module_cut_in_the_active_slot_goes_back_to_the_whole_one(make_vboard, tmp_path):
    board = make_vboard(flash_dir=tmp_path / "flash")
    board.wait_protocol()
    fw = firmware_copy(tmp_path, change=lambda root: append(
        root / "cheesefw" / "app.py", "\nFLASHED = 'one change'\n"))
    assert flash(board, fw).outcome == "up"  # into slot_b, slot_a the way back
    assert json.loads((board.flash_dir / "slot.json").read_text())["active"] == "slot_b"
    board.power_cut()
    cut_in_half(board.flash_dir / "slot_b" / "cheesefw" / "app.mpy")
    board.start()
    hello = board.wait_protocol(timeout=60)
    assert "fault" not in hello and hello["slot"]["active"] == "slot_a", hello
    assert board.request("state")["state"]["mode"] == "menu"
