"""A journal's game played, the power cut at a given byte of the flash, and the board's resume:
the same code on CPython and on MicroPython's unix port (tests/engine/test_flash_journal.py)."""

from nor_flash import NorFlash, PowerCut

from cheesefw.engine.flash_journal import FlashJournal


def load(journal):
    """(header, moves) as a resume sees them, or None."""
    header = journal.header()
    if header is None:
        return None
    moves = []
    journal.replay(moves.append)
    return header, moves


def cut_and_resume(board, header, moves, cut, blocks=2):
    """Start a game and append moves on a blank region of blocks, the power cut at the cut-th
    byte programmed; then (what the next boot reads, what it reads once it has resumed and
    appended ["next"])."""
    flash = NorFlash(blocks)
    flash.cut_at = cut
    try:
        journal = FlashJournal(board, flash)
        journal.start(header)
        for move in moves:
            journal.append(move)
    except PowerCut:
        pass
    flash.cut_at = -1
    seen = load(FlashJournal(board, flash))
    journal = FlashJournal(board, flash)  # the power back: resume, then play on
    load(journal)
    if seen is None:
        return None, None
    journal.append(["next"])
    return seen, load(FlashJournal(board, flash))
