import sys
from pathlib import Path

import pytest

# The helpers every room's tests use (mpvm, vboard, engine_driver, flashing...) and the fakes.
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

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


def pytest_collection_finish(session):
    """Leave what collection built out of every later full collection (gc.freeze). The
    firmware calls gc.collect() to keep a MicroPython heap whole; on CPython, in the tests, each
    call would walk all of pytest's and the test modules' objects again (~35 ms each, hundreds
    of calls in a game resumed at every move)."""
    import gc

    gc.collect()
    gc.freeze()


def pytest_terminal_summary(terminalreporter):
    """One line when the web board's browser tests were skipped: what enables them."""
    from webpage import ENABLE, MISSING

    skipped = terminalreporter.stats.get("skipped", [])
    if MISSING and any("test_web_browser" in str(r.nodeid) for r in skipped):
        terminalreporter.write_line(ENABLE % MISSING)


def _uf2(frozen):
    """A Pico UF2 built by `cheeseboard uf2` (cached), or a one-line skip where it cannot be."""
    import shutil

    from cheeseboard.uf2 import build_uf2, source

    if not (source.THIRD_PARTY / source.MICROPYTHON_ARCHIVE).exists():
        pytest.skip("building a UF2 needs ../shared/third_party (MicroPython's source)")
    if not shutil.which("arm-none-eabi-gcc"):
        pytest.skip("building a UF2 needs arm-none-eabi-gcc: apt-get install gcc-arm-none-eabi "
                    "libnewlib-arm-none-eabi")
    return build_uf2("pico", frozen=frozen)


@pytest.fixture(scope="session")
def stock_uf2():
    """MicroPython's own firmware for a Pico, built from ../shared/third_party."""
    return _uf2(frozen=False)


@pytest.fixture(scope="session")
def frozen_uf2():
    """MicroPython for a Pico with this checkout's firmware frozen in (profile pico)."""
    return _uf2(frozen=True)


UF2_FIXTURES = {"stock_uf2", "frozen_uf2"}


def pytest_collection_modifyitems(items):
    """The tests that need a Pico's UF2 run first: the build (minutes on a fresh machine) then
    starts at once, and on every core (`make test`) the other workers run the rest meanwhile.

    Then the rest, for workers that each take a share of the list in its order (pytest-xdist's
    worksteal): the long computing checks of the slow set and the tests that wait on the wall
    (marked `wall`) each spread evenly over it, so that every worker gets its share of both,
    and while one waits the others compute. (In file order, the kitchen's four parts ran one
    after another on one worker, and the two hundred power cuts came last, every worker
    waiting at once beside idle cores.)"""
    uf2, waiting, long, others = [], [], [], []
    for item in items:
        if UF2_FIXTURES & set(getattr(item, "fixturenames", ())):
            uf2.append(item)
        elif item.get_closest_marker("wall"):
            waiting.append(item)
        elif item.get_closest_marker("slow"):
            long.append(item)
        else:
            others.append(item)
    items[:] = uf2 + spread(waiting, spread(_taking_turns(long), others))


def spread(few, many):
    """The items of `few` among those of `many` at even intervals, each list's own order kept;
    each placed at the nearest boundary between two of `many`'s files, so that no file's
    module fixtures (a virtual board, say) are set up twice for one of `few` in between."""
    out = []
    k = 0
    for i, item in enumerate(many):
        if i == 0 or _file(item) != _file(many[i - 1]):
            while k < len(few) and k * len(many) // len(few) <= i:
                out.append(few[k])
                k += 1
        out.append(item)
    return out + few[k:]


def _taking_turns(items):
    """items, one file's at a time in turn (the kitchen's four parts no longer side by side)."""
    files = {}
    for item in items:
        files.setdefault(_file(item), []).append(item)
    queues = list(files.values())
    out = []
    while queues:
        out += [queue.pop(0) for queue in queues]
        queues = [queue for queue in queues if queue]
    return out


def _file(item):
    return item.nodeid.split("::")[0]
