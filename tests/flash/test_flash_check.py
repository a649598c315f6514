"""The check before a new slot is sealed: a file the board wrote whole in this flash (its hash as
written is the host's) is checked by its size; a file copied on the board, or one changed since,
is read back and hashed. Either way a slot that does not match its manifest is never sealed,
and the board keeps running its old firmware."""

import pytest
from flashing import active_slot, append, firmware_copy, flash

from cheeseboard.flash.deploy import FlashError

pytestmark = pytest.mark.board


def at_check(board, change):
    """A deploy step hook: change(slot folder) once the files are in, as the check begins."""

    def step(name):
        if name == "check":
            change(board.flash_dir / "slot_b")

    return step


def test_a_file_sent_and_then_cut_short_stops_the_flash(make_vboard, tmp_path):
    board = make_vboard()
    board.wait_protocol()

    def cut(slot):
        module = slot / "cheesefw" / "render.mpy"
        module.write_bytes(module.read_bytes()[:-10])

    with pytest.raises(FlashError, match=r"does not match its manifest \(differs "
                                         r"cheesefw/render.mpy\)"):
        flash(board, force=True, step=at_check(board, cut))
    assert active_slot(board.flash_dir)[0] == "slot_a"  # the old firmware, still running
    assert not (board.flash_dir / "slot_b" / "manifest.json").exists()  # never sealed


def test_a_file_copied_on_the_board_is_read_back_whole(make_vboard, tmp_path):
    # An update: one module sent, the rest copied from the running slot. A copied file changed
    # in place, its size kept, is found by its hash.
    board = make_vboard()
    board.wait_protocol()
    fw = firmware_copy(tmp_path, change=lambda root: append(
        root / "cheesefw" / "render.py", "\nFLASHED = 'checked'\n"))

    def flip(slot):
        module = slot / "cheesefw" / "app.mpy"
        data = bytearray(module.read_bytes())
        data[len(data) // 2] ^= 0xFF
        module.write_bytes(bytes(data))

    with pytest.raises(FlashError, match=r"\(differs cheesefw/app.mpy\)"):
        flash(board, fw, step=at_check(board, flip))
    assert active_slot(board.flash_dir)[0] == "slot_a"
    assert flash(board, fw).outcome == "up"  # and the next flash makes the slot whole
    assert active_slot(board.flash_dir)[0] == "slot_b"
