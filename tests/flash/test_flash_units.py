"""The host side of flashing, without a board: the plan's listing, the progress display,
the default profile, the console escape."""

import pytest

from cheeseboard.flash import command as flash_cli
from cheeseboard.flash import deploy, link


def test_the_plan_lists_what_changes_and_what_stays():
    plan = deploy.Plan("slot_b", "slot_a", upload=["cheesefw/app.mpy"],
                       copy=["rules/gouda.json"], keep=["a", "b"], remove=["cheesefw/old.mpy"],
                       loader=["main.py"])
    assert plan.lines() == [
        "into slot_b (the board runs slot_a now)",
        "  send    main.py",
        "  send    slot_b/cheesefw/app.mpy",
        "  copy    slot_b/rules/gouda.json (from slot_a)",
        "  remove  slot_b/cheesefw/old.mpy",
        "  keep    2 files already there",
    ]
    assert deploy.Plan("slot_a", "slot_b", up_to_date=True).lines() == [
        "the board already runs this build: nothing to send"]


def test_the_progress_bar_on_a_terminal_and_plain_lines_in_a_pipe(capsys):
    flash_cli._bar(3, 30, 15 * 1024, 60 * 1024, "slot_b/cheesefw/app.mpy")
    out = capsys.readouterr().out
    assert out.startswith("\r[" + "#" * 7 + "." * 23 + "] 3/30 files  15.0/60.0 KB")
    assert "slot_b/cheesefw/app.mpy" in out and not out.endswith("\n")
    flash_cli._bar(30, 30, 60 * 1024, 60 * 1024, "")
    assert capsys.readouterr().out.endswith("] 30/30 files  60.0/60.0 KB" + " " * 42 + "\n")
    lines = flash_cli._lines()
    for done in (0, 100, 200):  # one line per file, however often it is called
        lines(0, 2, done, 900, "a.mpy")
    lines(1, 2, 300, 900, "b.mpy")
    lines(2, 2, 900, 900, "")
    assert capsys.readouterr().out == "sending 1/2 a.mpy\nsending 2/2 b.mpy\nsent 2 files, 0.9 KB\n"


@pytest.mark.parametrize("facts,name", [
    ({"platform": "rp2"}, "pico"),
    ({"platform": "esp32"}, "esp32"),
    ({"platform": "esp32", "profile": "pico"}, "pico"),  # the one flashed last wins
    ({"platform": "linux"}, "pico"),  # the virtual board
])
def test_the_default_profile(facts, name):
    assert deploy.default_profile(facts) == name


def test_an_unknown_platform_needs_a_profile():
    with pytest.raises(deploy.FlashError, match="give one with --profile"):
        deploy.default_profile({"platform": "samd"})


def test_the_escape_leaves_no_ctrl_c_and_comes_back_whole():
    data = bytes(range(256)) * 3 + b"\x1bc\x1be\x03\x1b"
    sent = link.escape(data)
    assert b"\x03" not in sent
    # what flash_agent.receive does on the board
    assert sent.replace(b"\x1bc", b"\x03").replace(b"\x1be", b"\x1b") == data


def test_a_board_without_deflate_gets_the_agent_as_plain_source():
    sent = []

    def board_exec(code, timeout=30):
        sent.append(code)
        return b"plain\r\n" if len(sent) == 1 else b""  # as a board whose import failed

    board = link.Link.__new__(link.Link)
    board.exec = board_exec
    board._load_agent()
    assert "deflate" in sent[0] and len(sent[0]) < 0.7 * len(link.AGENT)
    assert sent[1:] == [link.AGENT]


def test_a_port_that_comes_back_after_a_usb_reset_is_opened_again(monkeypatch):
    board = link.Link.__new__(link.Link)
    board.port = "/dev/ttyACM0"
    board.close = lambda: None
    attempts = []

    def open_port():
        attempts.append(1)
        if len(attempts) < 3:  # the port is away for two tries
            raise link.LinkError("cannot open /dev/ttyACM0: no such port")

    board._open = open_port
    monkeypatch.setattr(link.time, "sleep", lambda s: None)
    assert board.reopen(5) is True and len(attempts) == 3
    board._open = lambda: (_ for _ in ()).throw(link.LinkError("gone"))
    assert board.reopen(0.05) is False  # gone for good: the board lost its power
