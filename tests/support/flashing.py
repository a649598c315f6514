"""Helpers for the flashing tests: flash a virtual board, change a firmware tree, read a
board's flash folder as the loader sees it."""

import hashlib
import json
import re
import shutil
from pathlib import Path

from cheeseboard.flash import deploy
from cheeseboard.flash.link import SILENCE, Link

ROOT = Path(__file__).resolve().parents[2]


def flash(board, firmware=None, force=False, profile=None, baud=115200, step=None,
          silence=None):
    """`cheeseboard flash` onto a virtual board (its console released for the time); step:
    deploy.update's hook; silence: seconds without a byte that mean the board is gone."""
    board.release_console()
    try:  # (the tool waits on the wall's time: the board's clock runs free meanwhile)
        with board.free_running(), Link(board.pty, baud, silence or SILENCE) as link:
            return deploy.update(link, profile, firmware, force, say=lambda *_: None, step=step)
    finally:
        board.reopen_console()


def firmware_copy(tmp_path, name="fw", change=None):
    """A copy of firmware/ to change: change(root) edits it."""
    root = tmp_path / name
    shutil.copytree(ROOT / "firmware", root, ignore=shutil.ignore_patterns(".*", "__pycache__"))
    if change:
        change(root)
    return root


def append(path, text):
    path.write_text(path.read_text() + text)


def active_slot(flash_dir, loader=True):
    """The slot slot.json names, checked whole: every file of its manifest, byte for byte,
    and nothing else; with loader, the root's boot.py and main.py as its manifest has them.
    Returns (slot name, its manifest)."""
    state = json.loads((flash_dir / "slot.json").read_text())
    slot = flash_dir / state["active"]
    manifest = json.loads((slot / "manifest.json").read_text())
    found = {
        p.relative_to(slot).as_posix(): p.read_bytes() for p in slot.rglob("*") if p.is_file()
    }
    found.pop("manifest.json")
    assert sorted(found) == sorted(manifest["files"]), "files not in the manifest, or missing"
    for rel, (size, sha) in manifest["files"].items():
        assert len(found[rel]) == size and hashlib.sha256(found[rel]).hexdigest() == sha, rel
    for rel, (_, sha) in manifest["loader"].items() if loader else ():
        assert hashlib.sha256((flash_dir / rel).read_bytes()).hexdigest() == sha, rel
    return state["active"], manifest


def check_the_words_of_a_cut(err, runs, new_build, old_build):
    """A flash cut short ends by saying which firmware the board runs, in one line ("the flash
    was interrupted"), or, when the cut fell in the new firmware's trial, as a firmware that
    failed and was rolled back (a reset before it was up counts against it); runs (the slot
    of the board's own `hello` after it) must agree."""
    assert err.startswith("cheeseboard: "), err
    back = re.search(r"went back to its previous firmware \((slot_\w+)\)", err)
    if back:
        assert runs["active"] == back.group(1) and runs.get("build") != new_build, (err, runs)
        return
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    said = re.search(r"the board runs (the new|its previous|the same) firmware", lines[0])
    assert said, lines[0]
    if said.group(1) == "the new":
        assert runs["build"] == new_build and runs["active"] in lines[0]
    else:
        assert runs.get("build", old_build) != new_build or runs["active"] != "slot_b"
        assert runs["active"] in lines[0]
