import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vboard import VBoard  # noqa: E402


@pytest.fixture
def vboard(tmp_path):
    """A virtual board with the current firmware, booted from a fresh flash folder."""
    board = VBoard(tmp_path / "flash")
    yield board
    board.stop()


@pytest.fixture
def make_vboard(tmp_path):
    """Start virtual boards with other settings: make_vboard(flash_dir=..., heap=..., blank=...)."""
    boards = []

    def make(flash_dir=None, **kwargs):
        board = VBoard(flash_dir or tmp_path / ("flash%d" % len(boards)), **kwargs)
        boards.append(board)
        return board

    yield make
    for board in boards:
        board.stop()


def pytest_terminal_summary(terminalreporter):
    """One line when the web board's browser tests were skipped: what enables them."""
    from webpage import ENABLE, MISSING

    skipped = terminalreporter.stats.get("skipped", [])
    if MISSING and any("test_web_browser" in str(r.nodeid) for r in skipped):
        terminalreporter.write_line(ENABLE % MISSING)
