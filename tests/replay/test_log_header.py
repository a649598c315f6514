"""A saved log's header says at which level the board plays each of its seats."""

from types import SimpleNamespace

from engine_driver import CpuTable, choose_options

from cheeseboard.replay import logfile
from cheesefw import answers


def test_the_log_header_keeps_each_board_seat_s_level():
    t = CpuTable()
    choose_options(t, "gouda", {"players": 3, "seat1": "beginner", "seat2": "board"})
    assert t.state()["mode"] == "play"
    app = SimpleNamespace(scene=t.engine, buttons=SimpleNamespace(stuck=lambda: []))
    state = answers.state(app, {})["state"]
    assert logfile.header_of(state)["seats"] == [[1, "beginner"], [2, "strong"]]
