"""A damaged journal read by the board and by `cheeseboard replay`: one rule, the firmware's
(engine/journal.py's read_moves), so the replay shows the moves the board resumes at."""

import binascii

import pytest
from engine_driver import CpuTable, MemoryBoard, choose_options

from cheeseboard.replay import logfile
from cheesefw.engine.journal import Journal

GAME = "kitchen"


def crc_line(text):
    return b"%08x %s\n" % (binascii.crc32(text) & 0xFFFFFFFF, text)


@pytest.fixture(scope="module")
def journal():
    """A kitchen game's journal, 8 moves in."""
    table = CpuTable(MemoryBoard(seed=5))
    choose_options(table, GAME, {"short_game": True})
    while len(table.engine.scene.state.history) < 8:
        table.press("roll" if table.state()["wait"] == "roll" else "ok")
        table.wait(1000)
    return table.board.files["journal.txt"]


def bad_crc(n):
    """Line n (1: the header) with a CRC that does not match."""
    def damage(lines):
        lines[n - 1] = b"00000000" + lines[n - 1][8:]
    return damage


def no_move(n):
    """Line n replaced by one whose CRC holds but which is no move (nested too deep)."""
    def damage(lines):
        lines[n - 1] = crc_line(b"[" * 40 + b"]" * 40)
    return damage


def cut_short(lines):
    lines[-1] = lines[-1][:10]  # a power cut mid-write


DAMAGES = {"line 2's CRC": bad_crc(2), "line 5's CRC": bad_crc(5), "line 4 no move": no_move(4),
           "the last line torn": cut_short}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_replay_shows_the_moves_the_board_resumes_at(journal, tmp_path, damage):
    lines = journal.splitlines(keepends=True)
    DAMAGES[damage](lines)
    damaged = b"".join(lines)
    resumed = []  # the moves the board's resume feeds its game (engine/core.py)
    Journal(MemoryBoard(files={"journal.txt": damaged})).replay(resumed.append)
    path = tmp_path / "journal.txt"
    path.write_bytes(damaged)
    game = logfile.read(path)
    whole = logfile.parse(journal.decode(), "whole").lines
    assert game.lines == resumed == whole[: len(resumed)], (game.lines, resumed)
    assert len(resumed) < len(whole)
