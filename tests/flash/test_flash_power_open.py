"""A power cut during `cheeseboard flash` with the port kept open (a USB-UART bridge, or an
ESP32's reset button): the board goes dark for 0.3 s and comes back, the host's port never
closes. The command still ends, within its deadline, with one line saying what happened and
which firmware the board runs; the board is whole and the next flash completes."""

import json
import subprocess
import sys
import time

import pytest
from flashing import active_slot, append, check_the_words_of_a_cut, firmware_copy, flash

from cheeseboard.flash import image
from cheeseboard.paths import load_profile

# wall: the cut falls at a wall instant of the tool's work
pytestmark = [pytest.mark.board, pytest.mark.wall]

DEADLINE = 75.0  # seconds: the longest the command may take, cut or not
WINDOW = 5.0  # s after "flashing firmware": the upload (at 115200 baud), the switch, the trial
DEFAULT = (0.6, 3.0)  # in the upload, and near its end; the slow run cuts at 100 instants
SLOW = [round(WINDOW * i / 100, 2) for i in range(100)]
# The silence that means the board is gone (`--silence`; the tool's own default is 10 s): a
# user's choice for a board on a UART, here the same path in 3 s of waiting, not 10.
SILENCE = 3


@pytest.fixture(scope="module")
def new_firmware(tmp_path_factory):
    def change(root):
        for module in ("app.py", "render.py", "games/gouda.py"):
            append(root / "cheesefw" / module, "\nUPDATED = 3\n")

    return firmware_copy(tmp_path_factory.mktemp("new"), change=change)


def cut_during_flash(board, firmware, after, force=True):
    """Run the flash, cut the power `after` s into it (0.3 s off, then on again); the
    command's (seconds, returncode, stdout, stderr)."""
    board.release_console()
    cmd = [sys.executable, "-m", "cheeseboard", "flash", "--port", board.pty,
           "--firmware", str(firmware), "--silence", str(SILENCE)] + (["--force"] if force else [])
    flashing = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    began = time.monotonic()
    try:
        assert flashing.stdout.readline().startswith("flashing firmware")
        time.sleep(after)
        board.link.send(op="power_cut")
        time.sleep(0.3)
        board.link.send(op="power_on")
        try:
            out, err = flashing.communicate(timeout=DEADLINE - (time.monotonic() - began))
        except subprocess.TimeoutExpired:
            raise AssertionError("the flash hung: no end %.0f s after a cut at %.2f s"
                                 % (DEADLINE, after)) from None
    finally:
        flashing.kill()
    board.reopen_console()
    return time.monotonic() - began, flashing.returncode, out, err


@pytest.mark.parametrize("after", list(DEFAULT) + [
    pytest.param(t, marks=pytest.mark.slow) for t in SLOW if t not in DEFAULT])
def test_a_power_cut_with_the_port_open_ends_the_flash_with_what_the_board_runs(
        make_vboard, tmp_path, new_firmware, after):
    flash_dir = tmp_path / "flash"
    # Real time: the cut falls at a wall instant of the tool's work, as a person's would.
    board = make_vboard(flash_dir=flash_dir, baud=115200, clock="real")
    board.wait_protocol()
    old_build = json.loads((flash_dir / "slot.json").read_text())["build"]
    new_build = image.make(load_profile("pico"), firmware=new_firmware).build_id
    _, code, out, err = cut_during_flash(board, new_firmware, after)
    assert "Traceback" not in out + err, (out, err)
    hello = board.wait_protocol(timeout=30)
    runs = hello["slot"]
    if code == 0:  # the whole flash was over before the cut
        assert "up and well" in out and runs["build"] == new_build
    else:
        check_the_words_of_a_cut(err, runs, new_build, old_build)
    # whole, and flashed again without a hitch
    active_slot(flash_dir, loader=False)
    result = flash(board, new_firmware)
    assert result.outcome in ("up", "up to date"), result.error
    assert active_slot(flash_dir)[1]["build"] == new_build
