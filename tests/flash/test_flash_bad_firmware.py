"""Seven ways a new firmware can be bad, each flashed onto a board that runs a good one: each
ends with the board running working firmware, without a replug or any other manual step, and
the host saying what happened (a refusal, or a rollback with the reason)."""

import json
import subprocess
import sys

import pytest
from flashing import active_slot, firmware_copy, flash

pytestmark = pytest.mark.board

TICK = "        board.poll()\n"
# When a firmware that is up after its trial (3 s) falls: late enough that the tool, waiting
# on the wall while the board's clock runs free at ten times its pace, has said "up" before
# the third fall rolls it back (at 4 s, a busy machine's tool was 1.2 s of its time too late).
FALL_MS = 10000


def in_main_loop(after_ms, code):
    """A change that runs code in the main loop once it has run for after_ms."""

    def change(root):
        changed(root / "cheesefw" / "app.py", TICK, TICK + (
            "        self.t0 = getattr(self, 't0', None) or board.ticks_ms()\n"
            "        if board.ticks_diff(board.ticks_ms(), self.t0) > %d:\n"
            "            %s\n" % (after_ms, code)))

    return change


def loader_hang(name):
    def change(root):
        (root / name).write_text("while True:\n    pass\n" + (root / name).read_text())

    return change


def game_import_error(root):
    game = root / "cheesefw" / "games" / "kitchen.py"
    game.write_text("from cheesefw.games import no_such_name\n" + game.read_text())


def changed(path, old, new):
    """path with its first `old` replaced by `new`; the change must be there to make."""
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def hang_at_start(root):
    found = "    found = profile_file.find(read_file, checked)\n"
    changed(root / "cheesefw" / "startup.py", found, found + "    while True:\n        pass\n")


def broken_protocol(root):
    changed(root / "cheesefw" / "answers.py", "def hello(app, request):\n",
            "def hello(app, request):\n    raise OSError('hello broken')\n")


# (the change, what the host says)
VARIANTS = {
    "busy loop in boot.py": (loader_hang("boot.py"), "not the loader this tool installs"),
    "busy loop in main.py": (loader_hang("main.py"), "not the loader this tool installs"),
    "main loop raises after 2 s": (in_main_loop(2000, "raise ZeroDivisionError('at 2 s')"),
                                   "ZeroDivisionError: at 2 s"),
    "a game module that does not import": (game_import_error, "ImportError"),
    "hangs in its first second": (hang_at_start, "the board reset before the firmware was up"),
    "main loop hangs after 2 s": (in_main_loop(2000, "while True: pass"),
                                  "the board reset before the firmware was up"),
    "does not answer the protocol": (broken_protocol, "OSError: hello broken"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_bad_firmware_leaves_the_board_on_working_firmware(vboard, tmp_path, variant):
    change, says = VARIANTS[variant]
    vboard.wait_protocol()
    good = json.loads((vboard.flash_dir / "slot.json").read_text())["build"]
    bad = firmware_copy(tmp_path, change=change)
    vboard.release_console()
    with vboard.free_running():
        r = subprocess.run([sys.executable, "-m", "cheeseboard", "flash", "--port", vboard.pty,
                            "--firmware", str(bad)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert says in r.stderr and "unplug" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) <= 2, r.stderr  # one message (a rollback: two)
    vboard.reopen_console()
    hello = vboard.wait_protocol(timeout=30)  # the old firmware plays on, nobody touched it
    assert hello["slot"]["active"] == "slot_a" and not hello["slot"].get("trial")
    if "hang" in variant:  # the watchdog, not a person, reset the board
        assert vboard.link.status()["watchdog_resets"] >= 1
    assert active_slot(vboard.flash_dir)[1]["build"] == good
    # the kitchen game starts: what a game module that does not import would have stopped
    assert vboard.request("state")["state"]["mode"] == "menu"
    # and it survives a power cycle on the same firmware
    vboard.link.send(op="reset")
    assert vboard.wait_protocol(timeout=30)["slot"]["active"] == "slot_a"
    assert flash(vboard, firmware_copy(tmp_path, "good")).outcome in ("up", "up to date")


def test_a_firmware_up_in_its_trial_that_then_falls_on_every_boot_goes_back(vboard, tmp_path):
    # Up in its trial (3 s), then a raise at 10 s of every run: the board restarts it twice
    # (falls counted in slot.json) and on the third fall goes back to the old firmware.
    vboard.wait_protocol()
    good = active_slot(vboard.flash_dir)[1]["build"]
    bad = firmware_copy(tmp_path, change=in_main_loop(FALL_MS, "raise ZeroDivisionError('late')"))
    assert flash(vboard, bad).outcome == "up"
    new = json.loads((vboard.flash_dir / "slot.json").read_text())
    assert new["active"] == "slot_b" and not new.get("trial")
    vboard.wait_until(lambda: _slot_state(vboard)["active"] == "slot_a", 3 * FALL_MS / 1000 + 30,
                      "the rollback to slot_a")
    state = _slot_state(vboard)
    assert state["failed"]["slot"] == "slot_b"
    assert state["failed"]["error"].startswith("it fell 3 times in a row")
    assert "ZeroDivisionError: late" in state["failed"]["error"]
    hello = vboard.wait_protocol(timeout=30)
    assert hello["slot"]["active"] == "slot_a"
    assert active_slot(vboard.flash_dir)[1]["build"] == good
    vboard.sleep(FALL_MS / 1000 + 2)  # the old firmware plays on past the bad one's fall
    assert vboard.request("hello")["slot"]["active"] == "slot_a"


def test_a_fall_now_and_then_restarts_the_firmware_and_is_forgiven(vboard, tmp_path):
    # One fall, then a firmware that plays on: it is restarted, not rolled back, and once it
    # has played for main.py's _SETTLED_TICKS its fall is forgotten.
    vboard.wait_protocol()
    flaky = firmware_copy(tmp_path, change=in_main_loop(FALL_MS, (
        "import os\n"
        "            if 'fell-once' not in os.listdir():\n"
        "                open('fell-once', 'w').close()\n"
        "                raise ZeroDivisionError('once')")))
    assert flash(vboard, flaky).outcome == "up"
    vboard.wait_until((vboard.flash_dir / "fell-once").exists, FALL_MS / 1000 + 50, "the fall")
    vboard.sleep(2)
    state = _slot_state(vboard)
    assert state["active"] == "slot_b" and state.get("falls") == 1, state
    assert vboard.wait_protocol(timeout=30)["slot"]["active"] == "slot_b"
    # main.py's 3000 ticks of 10 ms: 30 s of the board's time, and a little more
    vboard.wait_until(lambda: not _slot_state(vboard).get("falls"), 40,
                      "the fall to be forgiven")
    assert _slot_state(vboard)["active"] == "slot_b"


def _slot_state(vboard):
    return json.loads((vboard.flash_dir / "slot.json").read_text())
