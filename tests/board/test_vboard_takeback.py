"""A takeback on the virtual board (MicroPython with the Pico's heap): prev held on its pin,
the journal on its flash folder, a power cut, and the log over the serial protocol."""

import pytest
from engine_driver import VirtualTable, choose_options

pytestmark = pytest.mark.board


def test_prev_held_takes_back_a_move_and_a_power_cut_resumes_there(make_vboard, tmp_path):
    flash = tmp_path / "flash"
    board = make_vboard(flash_dir=flash)
    board.wait_protocol()
    table = VirtualTable(board)
    choose_options(table, "gouda", {"players": 3, "powers": False})
    table.press("ok")
    table.press("ok")  # two people place a mouse each
    assert table.state()["moves"] == 2
    board.link.press("prev", hold_ms=1000)  # past the 800 ms of a long press
    board.sleep(1.2)  # held, let go, and a tick to see it (the board's clock)
    state = table.state()
    assert state["moves"] == 1 and state["wait"] == "decide" and state["turn"] == 1
    log = board.request("log", **{"from": 0})
    assert log["takebacks"] == [[1, 1]] and log["total"] == 1
    assert '{"takeback": 1}' in (flash / "journal.txt").read_text()
    board.power_cut()
    again = make_vboard(flash_dir=flash)
    again.wait_protocol()
    after = again.request("state")["state"]
    assert after["moves"] == 1 and after["wait"] == "decide" and after["turn"] == 1
    resumed = again.request("log", **{"from": 0})
    assert resumed["takebacks"] == [[1, 1]] and resumed["moves"] == log["moves"]
