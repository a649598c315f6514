"""The journal kept outside the filesystem (engine/flash_journal.py), on a NOR flash as
rp2.Flash shows it (tests/support/nor_flash.py): a move's line costs no erase, a power cut at
any byte loses only the move being written, and nothing is thrown away."""

import binascii
import json
from pathlib import Path

import pytest
from journal_sweep import cut_and_resume, load
from mpvm import run_mp
from nor_flash import NorFlash

from cheesefw.engine.flash_journal import FlashJournal
from cheesefw.engine.journal import _line
from cheesefw.hal.base import Board

SUPPORT = Path(__file__).parents[1] / "support"
HEADER = {"game": "gouda", "options": {"players": 3}, "seed": 99}
MOVES = [["designate", i] for i in range(12)] + [["deal", list(range(40))]]  # one over a page


@pytest.fixture
def board(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the board's filesystem: the base Board works on relative paths
    return Board.__new__(Board)


def test_moves_cost_no_erase_and_come_back_after_a_restart(board):
    flash = NorFlash(4)
    journal = FlashJournal(board, flash)
    journal.start(HEADER)
    for move in MOVES:
        journal.append(move)
    assert flash.erases == 0  # a blank region: nothing to erase, even at the start
    assert load(FlashJournal(board, flash)) == (HEADER, MOVES)
    assert not Path("journal.txt").exists()
    text = "".join(_line(m) for m in [HEADER] + MOVES).encode()
    assert bytes(flash.mem[:len(text)]) == text  # the lines as journal.txt would hold them
    assert set(flash.mem[len(text):]) == {0xFF}


def test_a_new_game_erases_only_the_blocks_the_last_one_used(board):
    flash = NorFlash(4)
    journal = FlashJournal(board, flash)
    journal.start(HEADER)
    journal.append(*[["roll", i, "x" * 40] for i in range(100)])  # into the second block
    journal.clear()
    assert load(FlashJournal(board, flash)) is None  # a cleared journal is no game
    flash.mem[3 * 4096 + 100] = 0x12  # a block a power cut left half erased, further on
    flash.erases = 0
    journal = FlashJournal(board, flash)
    journal.start(HEADER)
    assert flash.erases == 3  # the two used and the half-erased one; the blank one kept
    assert set(flash.mem[3 * 4096:]) == {0xFF}
    assert load(FlashJournal(board, flash)) == (HEADER, [])


def test_a_power_cut_at_any_byte_loses_only_the_move_being_written(board):
    flash = NorFlash(2)
    journal = FlashJournal(board, flash)
    journal.start(HEADER)
    first = flash.programmed
    written = []  # for each move: bytes programmed once its line's last was
    for move in MOVES:
        journal.append(move)  # its last page: programmed whole, the line's end within it
        written.append(flash.programmed - 256 + (journal.end - 1) % 256 + 1)
    for cut in range(first, flash.programmed, 7):
        done = MOVES[:sum(1 for n in written if n <= cut)]
        seen, again = cut_and_resume(board, HEADER, MOVES, cut)
        assert seen == (HEADER, done), cut
        assert again == (HEADER, done + [["next"]]), cut


def test_a_line_that_is_no_move_is_kept_aside_whole_and_play_goes_on(board):
    flash = NorFlash(2)
    journal = FlashJournal(board, flash)
    journal.start(HEADER)
    journal.append(["roll", 1])
    bad = "%08x %s\n" % (binascii.crc32(b"[" * 40), "[" * 40)  # whole, too deep
    journal._put(journal.end, bad.encode())
    journal.append(["roll", 2])
    kept = bytes(flash.mem[:journal.end])
    journal = FlashJournal(board, flash)
    assert load(journal) == (HEADER, [["roll", 1]])
    assert Path("journal.txt.bad").read_bytes() == kept
    assert "line 3 is no move" in Path("journal.txt.why").read_text()
    journal.append(["roll", 3])
    assert load(FlashJournal(board, flash)) == (HEADER, [["roll", 1], ["roll", 3]])


def test_a_journal_whose_first_line_names_no_game_is_kept_aside_and_the_region_cleared(board):
    flash = NorFlash(2)
    journal = FlashJournal(board, flash)
    journal._put(0, _line(["not", "a", "header"]).encode())
    journal = FlashJournal(board, flash)
    assert journal.header() is None
    journal.set_aside()
    assert Path("journal.txt.bad").read_text() == _line(["not", "a", "header"])
    assert FlashJournal(board, flash).header() is None
    assert not FlashJournal(board, flash)._begun()


def test_a_game_longer_than_the_region_goes_on_in_a_file(board):
    flash = NorFlash(1)
    journal = FlashJournal(board, flash)
    journal.start(HEADER)
    moves = [["roll", i, "y" * 30] for i in range(200)]  # some 9 KB: over the 4 KB region
    for move in moves:
        journal.append(move)
    assert journal.in_file and flash.erases == 0
    assert load(FlashJournal(board, flash)) == (HEADER, moves)
    journal = FlashJournal(board, flash)
    journal.start(HEADER)  # the next game: back in the region, the file gone
    assert not Path("journal.txt").exists() and not journal.in_file
    assert load(FlashJournal(board, flash)) == (HEADER, [])


def test_a_journal_file_from_before_the_region_plays_on(board):
    Path("journal.txt").write_text(_line(HEADER) + _line(["roll", 4]))
    journal = FlashJournal(board, NorFlash(2))
    assert load(journal) == (HEADER, [["roll", 4]])
    journal.append(["roll", 5])
    assert Path("journal.txt").read_text().endswith(_line(["roll", 5]))


def test_the_same_on_micropython(tmp_path):
    """The power cut's sweep, in short, on MicroPython's unix port with the Pico's heap: the
    bytes methods the reader leans on (lstrip, rstrip, find) behave there as on CPython."""
    cuts = range(0, 4200, 61)
    code = """
import json
from journal_sweep import cut_and_resume
from cheesefw.hal.base import Board
class FilesOnly(Board):  # the base board's files, no pins or LEDs
    def __init__(self):
        pass
for cut in %r:
    print(json.dumps(cut_and_resume(FilesOnly(), %s, %s, cut, blocks=1)))
""" % (list(cuts), json.dumps(HEADER), json.dumps(MOVES))
    on_mp = [json.loads(line) for line in run_mp(code, cwd=tmp_path, path=(SUPPORT,)).splitlines()]
    for cut, (seen, again) in zip(cuts, on_mp, strict=True):
        if seen is None:
            continue  # cut in the header: no game
        header, moves = seen
        assert header == HEADER and moves == MOVES[:len(moves)], cut
        assert again == [HEADER, moves + [["next"]]], cut
    assert any(seen and len(seen[1]) > 5 for seen, _ in on_mp)  # the sweep reached moves
