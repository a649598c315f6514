"""Every file the board keeps on its flash, corrupted every way (cut short, emptied, made huge,
nested deep, of the wrong type; slot.json also gone, a folder, naming no slot), on the virtual
board with a game in progress: the board boots to its program, never to the REPL, and a game
whose journal was whole resumes at the same move (docs/flashing.md, "Files the board cannot
read"). The whole matrix runs in the slow set; a sample of it in every run. And `cheeseboard
flash` repairs a board of its own build that does not answer its program."""

import binascii
import json
import shutil
import subprocess
import sys

import pytest
from engine_driver import CpuTable, MemoryBoard, choose_options
from flashing import append, firmware_copy, flash
from vboard import VBoard

from cheeseboard.flash import image
from cheeseboard.paths import load_profile

pytestmark = pytest.mark.board

GAME = "kitchen"
SYNCED = "rules/%s.json" % GAME  # a table synced to the board
KEPT = "game_rules.json"  # the table of the game in progress, once a newer one came in
HUGE = 1 << 20


def crc_line(text):
    """A journal line whose CRC holds (what a power cut never leaves)."""
    return b"%08x %s\n" % (binascii.crc32(text) & 0xFFFFFFFF, text)


# (file, kind) -> the file's new bytes from its old ones; None: removed; "folder": a folder
JSON_KINDS = {
    "truncated": lambda old: old[: len(old) // 2],
    "emptied": lambda old: b"",
    "huge": lambda old: b'["' + b"x" * HUGE + b'"]',
    "deep": lambda old: b"[" * 3000 + b"]" * 3000,
    "wrong type": lambda old: b"5",
    "a folder": lambda old: "folder",
}
JOURNAL_KINDS = {
    "truncated": lambda old: old[: len(old) // 2],
    "emptied": lambda old: b"",
    "huge": lambda old: old + crc_line(b'"' + b"x" * 300_000 + b'"'),  # a 300 KB line
    "deep": lambda old: old + crc_line(b"[" * 3000 + b"]" * 3000),
    "wrong type": lambda old: crc_line(b"5") + old.split(b"\n", 1)[1],  # a header that is 5
    "a folder": lambda old: "folder",
}
SLOT_KINDS = dict(JSON_KINDS, **{
    "a list": lambda old: b"[]",
    "another slot": lambda old: b'"slot_c"',
    "missing": lambda old: None,
})
# slot.json an object whose "active" names no sealed slot: each value its field may hold
ACTIVE_VALUES = {"slot_c": "slot_c", "a path out": "../x", "a path back in": "slot_a/../slot_a",
                 "the other slot, not there": "slot_b", "a number": 5, "null": None,
                 "the root": "/", "empty": ""}


def naming(active):
    return lambda old: json.dumps({"active": active, "previous": None}).encode()


SLOT_KINDS.update({"active: " + what: naming(v) for what, v in ACTIVE_VALUES.items()})
PROFILE = "slot_a/profile.json"  # the slot's: the board plays on the last copy that passed
PROFILE_KINDS = dict(JSON_KINDS, refused=lambda old: b'{"led": {"count": -1}}')
FILES = {"slot.json": SLOT_KINDS, "checked.json": JSON_KINDS, "journal.txt": JOURNAL_KINDS,
         KEPT: JSON_KINDS, SYNCED: JSON_KINDS, PROFILE: PROFILE_KINDS}
# The journal's lines before the bad one are whole in these: its game goes on
JOURNAL_WHOLE = ("huge", "deep")
MATRIX = [(f, k) for f, kinds in FILES.items() for k in kinds]
SAMPLE = [("journal.txt", "deep"), ("journal.txt", "huge"), ("journal.txt", "wrong type"),
          (SYNCED, "huge"), (KEPT, "wrong type"), ("slot.json", "wrong type"),
          ("slot.json", "a folder"), ("checked.json", "deep"), (PROFILE, "deep"),
          (PROFILE, "refused"), ("slot.json", "active: slot_c"),
          ("slot.json", "active: a path back in")]


def board_with_a_game(folder):
    """A flash folder as a flashed board keeps it, with a kitchen game 8 moves in, a synced
    table and the kept table of that game; the moves made."""
    image.write_to_folder(image.make(load_profile("pico")), folder)
    board = VBoard(folder)  # its first boot stamps the files it checked (checked.json)
    try:
        board.wait_protocol()
    finally:
        board.stop()
    assert (folder / "checked.json").exists()
    table = CpuTable(MemoryBoard(seed=5))
    choose_options(table, GAME, {"short_game": True})
    while len(table.engine.scene.state.history) < 8:
        s = table.state()
        table.press("roll" if s["wait"] == "roll" else "ok")
        table.wait(1000)
    (folder / "journal.txt").write_bytes(table.board.files["journal.txt"])
    default = (folder / "slot_a" / SYNCED).read_bytes()
    (folder / "rules").mkdir()
    (folder / SYNCED).write_bytes(default)
    (folder / KEPT).write_bytes(default)
    return len(table.engine.scene.state.history)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """(board_with_a_game's folder, its moves), made once for the module."""
    folder = tmp_path_factory.mktemp("template") / "flash"
    return folder, board_with_a_game(folder)


def corrupt(folder, name, kind):
    path = folder / name
    if name == SYNCED:  # no kept table: the game in progress reads the synced one
        (folder / KEPT).unlink()
    new = FILES[name][kind](path.read_bytes())
    path.unlink()
    if new == "folder":
        path.mkdir()
        (path / "inside").write_text("a file in it")
    elif new is not None:
        path.write_bytes(new)


def boot_with(template, make_vboard, tmp_path, name, kind):
    """A board booted from a copy of template, name corrupted the kind's way."""
    folder = tmp_path / "flash"
    shutil.copytree(template[0], folder)
    corrupt(folder, name, kind)
    board = make_vboard(flash_dir=folder)
    return board, folder, template[1]


def check_board(board, folder, moves, name, kind):
    hello = board.wait_protocol(timeout=60)  # its program answers: it is not at the REPL
    assert hello["slot"]["active"] == "slot_a", hello
    state = board.request("state")["state"]
    if name != "journal.txt" or kind in JOURNAL_WHOLE:  # the journal was whole: play goes on
        assert state["mode"] == "play" and state["game"] == GAME, state
        assert state["moves"] == moves, state
    elif kind in ("emptied", "wrong type"):  # no game's header: the menu, the file kept
        assert state["mode"] == "menu", state
    if name == "journal.txt" and kind != "emptied":
        assert (folder / "journal.txt.bad").exists() or kind == "truncated"
    if name == PROFILE:  # the copy kept at its first boot, whole
        assert hello["profile"] == "pico", hello
        assert json.loads((folder / "profile.good.json").read_bytes())["name"] == "pico"
    if name == "slot.json":  # made again from the slot
        state = json.loads((folder / "slot.json").read_text())
        assert state["active"] == "slot_a" and state["build"], state


@pytest.mark.parametrize("name,kind", SAMPLE)
def test_a_corrupt_file_leaves_the_board_playing(template, make_vboard, tmp_path,
                                                 name, kind):
    board, folder, moves = boot_with(template, make_vboard, tmp_path, name, kind)
    check_board(board, folder, moves, name, kind)


@pytest.mark.slow
@pytest.mark.parametrize("name,kind", [c for c in MATRIX if c not in SAMPLE])
def test_every_corrupt_file_leaves_the_board_playing(template, make_vboard, tmp_path,
                                                     name, kind):
    board, folder, moves = boot_with(template, make_vboard, tmp_path, name, kind)
    check_board(board, folder, moves, name, kind)


def test_a_bad_journal_line_is_set_aside_with_the_lines_before_it_kept(template,
                                                                       make_vboard, tmp_path):
    board, folder, moves = boot_with(template, make_vboard, tmp_path, "journal.txt",
                                     "deep")
    board.wait_protocol(timeout=60)
    whole = (template[0] / "journal.txt").read_bytes()
    assert (folder / "journal.txt").read_bytes() == whole  # the whole lines, as they were
    bad = (folder / "journal.txt.bad").read_bytes()
    assert bad.startswith(whole) and len(bad) > 6000
    assert "line %d is no move" % (moves + 2) in (folder / "journal.txt.why").read_text()


def trips_over_its_journal(root):
    """A firmware that falls at every boot while its journal holds the word "trap" (any file
    a firmware cannot read, in a way nobody foresaw)."""
    path = root / "cheesefw" / "startup.py"
    text = path.read_text()
    old = "    found = profile_file.find(read_file, checked)\n"
    assert old in text
    path.write_text(text.replace(old, old + (
        "    if b'trap' in (read_file('journal.txt') or b''):\n"
        "        raise ValueError('tripped over the journal')\n"), 1))


def test_flash_repairs_a_board_of_its_build_that_falls_at_boot(make_vboard, tmp_path):
    fw = firmware_copy(tmp_path, change=trips_over_its_journal)
    folder = tmp_path / "flash"
    image.write_to_folder(image.make(load_profile("pico"), None, fw), folder)
    (folder / "journal.txt").write_bytes(crc_line(b'{"game": "trap"}'))
    board = make_vboard(flash_dir=folder)
    board.read_until(b"tripped over the journal", timeout=60)
    # the third fall, with no slot to go back to: the loader answers with the reason
    assert "tripped over the journal" in board.wait_protocol(timeout=60)["fault"]
    result = flash(board, fw)
    assert result.outcome == "repaired", (result.outcome, result.error)
    assert "journal.txt (as journal.txt.bad)" in result.error
    assert board.wait_protocol(timeout=30)["slot"]["active"] == "slot_a"
    assert b"trap" in (folder / "journal.txt.bad").read_bytes()
    assert not json.loads((folder / "slot.json").read_text()).get("falls")


def cheeseboard(board, *args):
    """The installed command in a process of its own, on board's port (its console released,
    its clock free: the tool waits on the wall's time)."""
    board.release_console()
    try:
        with board.free_running():
            return subprocess.run([sys.executable, "-m", "cheeseboard", *args, "--port",
                                   board.pty], capture_output=True, text=True, timeout=120)
    finally:
        board.reopen_console()


def test_a_garbage_profile_with_no_other_copy_is_said_and_flash_repairs_it(make_vboard,
                                                                            tmp_path):
    # Damaged before the board's first boot, no copy anywhere else (no profile.good.json, no
    # other slot, no frozen firmware): the board answers `hello` with the fault, rather than
    # stop at the REPL, and `cheeseboard info` says it in one line. The profile is the slot's
    # (its manifest names its hash): the flash writes the other slot, on trial there.
    folder = tmp_path / "flash"
    image.write_to_folder(image.make(load_profile("pico")), folder)
    (folder / "slot_a" / "profile.json").write_bytes(b"garbage")
    board = make_vboard(flash_dir=folder)
    hello = board.wait_protocol(timeout=60)
    assert "slot_a/profile.json: " in hello["fault"] and hello["profile"] is None, hello
    assert board.request("state")["state"] == {"mode": "fault", "fault": hello["fault"]}
    r = cheeseboard(board, "info")
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stdout.splitlines() if line.startswith("fault:")]
    assert len(said) == 1 and hello["fault"] in said[0], r.stdout
    result = flash(board)
    assert result.outcome == "up", (result.outcome, result.error)
    hello = board.wait_protocol(timeout=30)
    assert hello["slot"]["active"] == "slot_b" and hello["profile"] == "pico", hello
    assert "fault" not in hello
    assert "fault:" not in cheeseboard(board, "info").stdout


def test_an_unreadable_slot_json_beside_two_slots_runs_the_one_sealed_last(make_vboard,
                                                                           tmp_path):
    # Which slot ran is not known: the one sealed last runs on trial, the other its way back.
    folder = tmp_path / "flash"
    board = make_vboard(flash_dir=folder)
    board.wait_protocol()
    newer = firmware_copy(tmp_path, change=lambda root: append(
        root / "cheesefw" / "render.py", "\nNEWER = 1\n"))
    assert flash(board, newer).outcome == "up"
    build = json.loads((folder / "slot.json").read_text())["build"]
    board.power_cut()
    (folder / "slot.json").write_bytes(b"5")
    again = make_vboard(flash_dir=folder)
    hello = again.wait_protocol(timeout=60)
    for _ in range(120):  # its trial: up once its main loop has run 3 s (60 s at most)
        if not hello["slot"].get("trial"):
            break
        again.sleep(0.5)  # (the board's clock)
        hello = again.request("hello")
    assert hello["slot"] == {"active": "slot_b", "previous": "slot_a", "build": build}
    assert (folder / "slot.json.bad").read_bytes() == b"5"
