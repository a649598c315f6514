"""`cheeseboard flash` against the virtual board, with mpremote's serial transport below it:
full, no-change, one-file and removing flashes; rollback of a firmware that fails; the
command line's reports and refusals."""

import json
import subprocess
import sys
from hashlib import sha256

import pytest
import serial
from flashing import active_slot, append, firmware_copy, flash

from cheeseboard.flash import image
from cheeseboard.flash.link import WIRE_BLOCK, Link, escape
from cheeseboard.paths import load_profile

pytestmark = pytest.mark.board


def cheeseboard(*args, board=None, timeout=120):
    """The command in a process of its own; board: the virtual board it works on, whose clock
    runs free meanwhile (the tool waits on the wall's time)."""
    if board is None:
        return subprocess.run([sys.executable, "-m", "cheeseboard", *args],
                              capture_output=True, text=True, timeout=timeout)
    with board.free_running():
        return cheeseboard(*args, timeout=timeout)


def test_a_full_flash_onto_a_blank_board_comes_up(make_vboard, tmp_path):
    board = make_vboard(blank=True)
    result = flash(board, profile="pico")
    assert result.outcome == "up", result.error
    img = result.image
    assert result.files_sent == len(img.files) + len(img.loader)
    # every file and the manifest, nothing more (compression makes the wire lighter still)
    assert result.file_bytes == img.payload_bytes()
    slot, manifest = active_slot(board.flash_dir)
    assert manifest["build"] == img.build_id and slot == result.slot
    hello = board.wait_protocol()
    assert hello["slot"]["active"] == slot and not hello["slot"].get("trial")
    assert hello["profile"] == "pico"


def test_a_no_change_flash_sends_no_file_data_and_leaves_the_flash_alone(vboard):
    vboard.wait_protocol()
    before = {p: p.stat().st_mtime_ns for p in vboard.flash_dir.rglob("*") if p.is_file()}
    result = flash(vboard)
    assert result.outcome == "up to date"
    assert result.file_bytes == 0 and result.plan.up_to_date
    after = {p: p.stat().st_mtime_ns for p in vboard.flash_dir.rglob("*") if p.is_file()}
    assert after == before  # not one file written, not one removed
    assert vboard.wait_protocol()["slot"]["build"] == result.build  # and the game is back


def test_a_one_file_change_sends_only_that_file(make_vboard, tmp_path):
    board = make_vboard(baud=115200)  # a UART board: the blocks' flow control matters
    board.wait_protocol()
    fw = firmware_copy(tmp_path, change=lambda root: append(
        root / "cheesefw" / "render.py", "\nFLASHED = 'one change'\n"))
    result = flash(board, fw)
    assert result.outcome == "up", result.error
    assert result.plan.upload == ["cheesefw/render.mpy"] and not result.plan.loader
    img = result.image
    assert result.file_bytes == len(img.files["cheesefw/render.mpy"]) + len(img.manifest_bytes())
    assert len(result.plan.copy) == len(img.files) - 1  # the rest copied on the board
    slot, manifest = active_slot(board.flash_dir)
    assert manifest["build"] == img.build_id and slot == "slot_b"


def test_a_file_the_new_firmware_drops_is_gone_from_the_board(vboard, tmp_path):
    vboard.wait_protocol()
    extra = firmware_copy(tmp_path, "extra", lambda root: (root / "cheesefw" / "extra.py")
                          .write_text("X = 1\n"))
    assert flash(vboard, extra).outcome == "up"  # into slot_b, with extra.mpy
    assert (vboard.flash_dir / "slot_b" / "cheesefw" / "extra.mpy").exists()
    plain = firmware_copy(tmp_path, "plain")
    assert flash(vboard, plain).outcome == "up"  # into slot_a, which never had it
    changed = firmware_copy(tmp_path, "changed", lambda root: append(
        root / "cheesefw" / "render.py", "\nY = 2\n"))
    result = flash(vboard, changed)  # into slot_b again: its extra.mpy goes
    assert result.outcome == "up" and result.plan.remove == ["cheesefw/extra.mpy"]
    assert not list(vboard.flash_dir.rglob("extra.mpy"))
    active_slot(vboard.flash_dir)


def test_force_sends_every_file_and_dry_run_changes_nothing(vboard, tmp_path):
    vboard.wait_protocol()
    vboard.release_console()
    before = {p: p.read_bytes() for p in vboard.flash_dir.rglob("*") if p.is_file()}
    r = cheeseboard("flash", "--port", vboard.pty, "--force", "--dry-run", board=vboard)
    assert r.returncode == 0, r.stderr
    assert "send    slot_b/cheesefw/app.mpy" in r.stdout and "send    boot.py" in r.stdout
    assert "dry run" in r.stdout
    assert {p: p.read_bytes() for p in vboard.flash_dir.rglob("*") if p.is_file()} == before
    r = cheeseboard("flash", "--port", vboard.pty, "--force", board=vboard)
    assert r.returncode == 0, r.stderr
    assert "up and well" in r.stdout
    # plain progress lines, a file each, the loader last
    img = image.make(load_profile("pico"))
    n = len(img.files) + len(img.loader)
    assert "sending 1/%d slot_b/cheesefw/__init__.mpy\n" % n in r.stdout
    assert "sending %d/%d recover.py\nsent %d files" % (n, n, n) in r.stdout
    slot, manifest = active_slot(vboard.flash_dir)
    assert slot == "slot_b"


def break_at(where):
    """A change to a firmware tree that makes it fail before it is up, at `where`."""

    def change(root):
        app = root / "cheesefw" / "app.py"
        if where == "import":
            append(root / "cheesefw" / "render.py", "\nraise RuntimeError('broken at import')\n")
        elif where in ("loop", "reset"):  # a few ticks in, well before a second has passed
            fail = ("raise ZeroDivisionError('broken in the main loop')" if where == "loop"
                    else "import machine; machine.reset()")
            app.write_text(app.read_text().replace(
                "        board.poll()\n",
                "        board.poll()\n        self.n = getattr(self, 'n', 0) + 1\n"
                "        if self.n > 5:\n            %s\n" % fail, 1))
        else:  # the board refuses its profile: main() returns
            check = root / "cheesefw" / "profile_check.py"
            check.write_text(check.read_text().replace(
                "    errors = []\n", "    errors = ['led.count: refused on purpose']\n", 1))

    return change


@pytest.mark.parametrize("where,error", [
    ("import", "RuntimeError: broken at import"),
    ("loop", "ZeroDivisionError: broken in the main loop"),
    ("profile", "the firmware stopped before it was up"),
    ("reset", "the board reset before the firmware was up"),
])
def test_a_new_firmware_that_fails_is_rolled_back_and_the_host_says_so(vboard, tmp_path, where,
                                                                        error):
    vboard.wait_protocol()
    old_build = json.loads((vboard.flash_dir / "slot.json").read_text())["build"]
    bad = firmware_copy(tmp_path, change=break_at(where))
    vboard.release_console()
    r = cheeseboard("flash", "--port", vboard.pty, "--firmware", str(bad), board=vboard)
    assert r.returncode == 1
    assert "the new firmware failed on the board" in r.stderr and error in r.stderr, r.stderr
    assert "went back to its previous firmware (slot_a)" in r.stderr
    vboard.reopen_console()
    hello = vboard.wait_protocol()  # the old firmware plays on
    assert hello["slot"]["active"] == "slot_a" and hello["slot"]["failed"]["slot"] == "slot_b"
    slot, manifest = active_slot(vboard.flash_dir)
    assert manifest["build"] == old_build
    # and the next, good, flash goes through
    assert flash(vboard, firmware_copy(tmp_path, "good")).outcome in ("up", "up to date")


def test_a_first_flash_that_fails_has_nothing_to_go_back_to_and_says_so(make_vboard, tmp_path):
    board = make_vboard(blank=True)
    board.release_console()
    bad = firmware_copy(tmp_path, change=break_at("import"))
    r = cheeseboard("flash", "--port", board.pty, "--profile", "pico", "--firmware", str(bad),
                    board=board)
    assert r.returncode == 1
    # the loader's own answer, past the falls: nothing to go back to, and why
    said = r.stderr.strip().splitlines()
    assert len(said) == 1 and said[0].startswith(
        "cheeseboard: the new firmware stopped: no whole firmware on the board: it fell 3 "
        "times in a row") and "RuntimeError: broken at import" in said[0], said
    assert "up and well" not in r.stdout


def test_a_flash_waits_for_a_firmware_on_trial_and_never_writes_its_way_back(make_vboard,
                                                                              tmp_path):
    """A firmware on trial that has not run yet (a flash's restart lost, say): the next flash
    sees the trial through first. Here it fails, the board goes back to slot_a, and the new
    flash then goes into slot_b: slot_a, the firmware known to work, is never written over."""
    from cheeseboard.flash import image as images

    flash_dir = tmp_path / "flash"
    board = make_vboard(flash_dir=flash_dir)
    board.wait_protocol()
    good = json.loads((flash_dir / "slot.json").read_text())["build"]
    board.stop()
    failing = images.make(load_profile("pico"), firmware=firmware_copy(
        tmp_path, "failing", break_at("loop")))
    images.write_to_folder(failing, flash_dir, "slot_b")
    (flash_dir / "slot.json").write_text(json.dumps(
        {"active": "slot_b", "previous": "slot_a", "build": failing.build_id, "trial": True}))
    board = make_vboard(flash_dir=flash_dir)
    newer = firmware_copy(tmp_path, "newer", lambda root: append(
        root / "cheesefw" / "render.py", "\nNEWER = 1\n"))
    result = flash(board, newer)
    assert result.outcome == "up", result.error
    state = json.loads((flash_dir / "slot.json").read_text())
    assert state["active"] == "slot_b" and state["previous"] == "slot_a"
    assert json.loads((flash_dir / "slot_a" / "manifest.json").read_text())["build"] == good
    assert active_slot(flash_dir)[1]["build"] == result.image.build_id


def test_info_reports_version_slot_profile_flash_and_heap(vboard):
    vboard.wait_protocol()
    vboard.release_console()
    r = cheeseboard("info", "--port", vboard.pty)
    assert r.returncode == 0, r.stderr
    build = json.loads((vboard.flash_dir / "slot.json").read_text())["build"]
    assert "firmware:  0.1.0 (build %s)" % build in r.stdout
    assert "slot:      slot_a" in r.stdout and "profile:   pico" in r.stdout
    assert "KB free of 1408 KB" in r.stdout and "KB free before the firmware starts" in r.stdout
    assert "frozen:    none (MicroPython's own firmware)" in r.stdout  # no `cheeseboard uf2`
    vboard.reopen_console()
    assert vboard.wait_protocol()["firmware"] == "0.1.0"  # info leaves the board playing


def test_a_busy_port_or_a_vanished_one_is_a_clear_error_and_changes_nothing(vboard, tmp_path):
    vboard.wait_protocol()
    before = {p: p.read_bytes() for p in vboard.flash_dir.rglob("*") if p.is_file()}
    vboard.release_console()
    holder = serial.Serial(vboard.pty, 115200, exclusive=True)  # mpremote, or a terminal
    try:
        r = cheeseboard("flash", "--port", vboard.pty, "--force", board=vboard)
    finally:
        holder.close()
    assert r.returncode == 1 and "is busy" in r.stderr, r.stderr
    r = cheeseboard("flash", "--port", str(tmp_path / "ttyACM9"))
    assert r.returncode == 1 and "cannot open" in r.stderr and "plugged in" in r.stderr
    assert {p: p.read_bytes() for p in vboard.flash_dir.rglob("*") if p.is_file()} == before


def test_the_image_names_every_file_with_its_hash(tmp_path):
    profile = load_profile("pico")
    a = image.make(profile)
    assert set(a.loader) == {"boot.py", "main.py", "recover.py"}
    assert "cheesefw/app.mpy" in a.files and "rules/gouda.json" in a.files
    assert json.loads(a.files["profile.json"]) == profile
    assert image.make(profile).build_id == a.build_id  # the same tree, the same build
    b = image.make(profile, firmware=firmware_copy(tmp_path, change=lambda root: append(
        root / "cheesefw" / "app.py", "\nZ = 3\n")))
    assert b.build_id != a.build_id
    assert [p for p in a.files if a.files[p] != b.files[p]] == ["cheesefw/app.mpy"]


@pytest.mark.parametrize("packed", [True, False])  # with deflate, and a board without it
def test_every_byte_value_arrives_intact_ctrl_c_included(make_vboard, packed):
    board = make_vboard(baud=115200)
    board.wait_protocol()
    data = bytes(range(256)) * 8 + b"\x03\x1bc\x1be\x1b\x03" * 50  # the escapes' own bytes too
    board.release_console()
    # (the link waits on the wall's clock, as a tool in another process would: the board runs)
    with board.free_running(), Link(board.pty) as link:
        link.enter()
        assert link.send_file("t/bytes.bin", data, packed=packed)  # written whole, by its hash
        # the board's own hash of what it wrote, and the agent still answering after it
        assert link.call("listing", "t") == {"bytes.bin": [sha256(data).hexdigest()[:16],
                                                         len(data)]}
    assert (board.flash_dir / "t" / "bytes.bin").read_bytes() == data
    assert not (board.flash_dir / "t" / "bytes.bin.part").exists()


@pytest.mark.parametrize("window", [1, 16])  # a UART board's pace, and a USB board's
def test_many_files_go_in_one_call_each_byte_intact(make_vboard, window):
    board = make_vboard(baud=115200)
    board.wait_protocol()
    files = [("t/%s/%d.bin" % ("ab"[i % 2], i), bytes(range(256)) * i + b"\x03\x1bc" * 99 * i)
             for i in range(5)]  # the first empty, the last 20 blocks on the wire
    board.release_console()
    with board.free_running(), Link(board.pty) as link:
        link.enter()
        calls, real = [], link.transport.exec_raw_no_follow
        link.transport.exec_raw_no_follow = lambda code: (calls.append(code), real(code))[1]
        sent_at_ack, ack = [], link._ack
        link._ack = lambda: (sent_at_ack.append(link.wire.sent), ack())[1]
        whole = link.send_files(files, packed=False, window=window)
        assert whole == [path for path, _ in files]  # each written whole, by its hash
        assert len(calls) == 1  # one call of the agent: no round trip a file
        # after "ready", the bytes sent before the host waits for an acknowledgement: a
        # block at a UART board's pace, the first `window` blocks at a USB board's
        ahead = [b - a for a, b in zip(sent_at_ack, sent_at_ack[1:], strict=False)]
        blocks = [len(wire[i : i + WIRE_BLOCK]) for wire in (escape(d) for _, d in files)
                  for i in range(0, len(wire), WIRE_BLOCK)]
        assert len(blocks) > 16 and ahead[0] == sum(blocks[:window])
        assert link.call("listing", "t") == {
            path[2:]: [sha256(data).hexdigest()[:16], len(data)] for path, data in files}
    for path, data in files:
        assert (board.flash_dir / path).read_bytes() == data


@pytest.mark.wall  # the tool's waits are the wall's
def test_a_flash_that_would_not_fit_is_refused_before_anything_is_written(make_vboard):
    # On the wall's clock: two whole flashes and a refusal in between, each a tool that waits
    # on the wall; a free-running board's time runs ahead of it when the machine is busy.
    vboard = make_vboard(clock="real")
    vboard.wait_protocol()
    # the Pico's 1408 KB filesystem, nearly full of the user's own files
    (vboard.flash_dir / "recordings.bin").write_bytes(b"\0" * (1160 * 1024))
    before = {p: p.read_bytes() for p in vboard.flash_dir.rglob("*") if p.is_file()}
    vboard.release_console()
    r = cheeseboard("flash", "--port", vboard.pty, "--force", board=vboard)
    assert r.returncode == 1 and "not enough room on the board" in r.stderr, r.stderr
    assert {p: p.read_bytes() for p in vboard.flash_dir.rglob("*") if p.is_file()} == before
    vboard.reopen_console()
    assert vboard.wait_protocol()["firmware"] == "0.1.0"  # refused, and back to its game
    vboard.release_console()
    (vboard.flash_dir / "recordings.bin").unlink()  # room again: the same flash goes through
    r = cheeseboard("flash", "--port", vboard.pty, "--force", board=vboard)
    assert r.returncode == 0, r.stderr
