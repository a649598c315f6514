"""A board whose only firmware cannot run (a module that does not import;
no previous slot, none frozen): after its falls the loader itself answers `hello` and
`state` with the reason, rather than leave the board silent at the REPL; `cheeseboard info`
says it, and `cheeseboard flash` puts a whole firmware on (docs/flashing.md)."""

import subprocess
import sys

import pytest
from flashing import firmware_copy, flash

from cheeseboard.flash import image
from cheeseboard.paths import load_profile

pytestmark = pytest.mark.board


def does_not_import(module):
    """A firmware change: module raises ImportError as it is imported."""

    def change(root):
        path = root / "cheesefw" / (module + ".py")
        path.write_text("from cheesefw.games import no_such_name\n" + path.read_text())

    return change


def info(board):
    board.release_console()
    try:
        with board.free_running():
            return subprocess.run([sys.executable, "-m", "cheeseboard", "info", "--port",
                                   board.pty], capture_output=True, text=True, timeout=120)
    finally:
        board.reopen_console()


@pytest.mark.parametrize("module", ["app", "startup"])
def test_a_board_with_no_whole_firmware_says_why_and_flash_repairs_it(make_vboard, tmp_path,
                                                                      module):
    fw = firmware_copy(tmp_path, change=does_not_import(module))
    folder = tmp_path / "flash"
    image.write_to_folder(image.make(load_profile("pico"), None, fw), folder)
    board = make_vboard(flash_dir=folder)
    hello = board.wait_protocol(timeout=90)  # past its three falls: not silent at the REPL
    assert hello["fault"].startswith("no whole firmware on the board: it fell 3 times"), hello
    assert board.request("state")["state"] == {"mode": "fault", "fault": hello["fault"]}
    r = info(board)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "fault:     no whole firmware on the board" in r.stdout, r.stdout
    result = flash(board)  # this tool's own firmware, whole
    assert result.outcome == "up", (result.outcome, result.error)
    hello = board.wait_protocol(timeout=60)
    assert "fault" not in hello and hello["profile"] == "pico", hello
