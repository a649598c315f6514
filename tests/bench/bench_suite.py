"""The board tests in real time against virtual time, and a scenario's board time against its
wall time: the same test files run twice in one run, the ratio is the figure.

    python tests/bench/bench_suite.py [TEST_FILE ...]
    python tests/bench/bench_suite.py --workers N

With --workers: `cheeseboard test`'s set run in one process, then on N workers (pytest-xdist,
as `make test` runs the suite), one after the other; the ratio is the figure.

Without files, a representative set of board-test files (the whole suite takes ~20 minutes
on 2 cores, too long to run twice here): the slowest waits (a stuck button, bad firmwares,
resets), whole games and the console. Each file runs in its own pytest, first with
CHEESEBOARD_TEST_CLOCK=real (the board on the host's clock, the tests waiting in wall time),
then in virtual time (the tests' default); the two must pass the same tests.

Measured on the unix port (the virtual board). What virtual time gets wrong: computing costs
no board time (a board player decides within one tick), and a UART's bytes are charged to the
clock as they cross rather than trickling in.
"""

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from table import print_table  # noqa: E402

DEFAULT_FILES = (
    "tests/board/test_vboard_buttons.py",
    "tests/flash/test_flash_bad_firmware.py",
    "tests/board/test_vboard_reset.py",
    "tests/board/test_kalle_vboard.py",
    "tests/board/test_vboard_console.py",
)
LONG_SCENARIO = """\
name: thirty seconds of the board's time
game: kitchen
board: {seed: 3}
steps:
  - press-many: [next, ok, ok, ok, ok, ok, ok]
  - expect-state: {mode: play, game: kitchen}
  - wait: 30s
  - expect-state: {mode: play, game: kitchen}
"""


def cheeseboard_test_set():
    """`cheeseboard test`'s set, as pytest's arguments."""
    from cheeseboard.sim.command import quick_set

    return (*quick_set(), "tests")


def run_file(path, clock, workers=0):
    """(wall seconds, passed, failed) of one test file's pytest in this clock (path: a file,
    or a tuple of pytest's arguments), on workers processes (0: in pytest's own)."""
    env = dict(os.environ, CHEESEBOARD_TEST_CLOCK=clock)
    args = list(path) if isinstance(path, tuple) else ["-m", "not slow", path]
    if workers:
        args += ["-n", str(workers), "--dist", "worksteal"]
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *args], cwd=str(ROOT), env=env, capture_output=True, text=True)
    seconds = time.monotonic() - began
    counts = dict((k, int(n)) for n, k in re.findall(r"(\d+) (passed|failed|error)",
                                                      done.stdout))
    return seconds, counts.get("passed", 0), counts.get("failed", 0) + counts.get("error", 0)


def scenario_seconds():
    """Wall seconds of a scenario that plays 30 s and a little of the board's time."""
    from cheeseboard.scenario import runner

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.yaml"
        path.write_text(LONG_SCENARIO)
        result = runner.run_file(path, runner.Options(out=Path(tmp)))
    assert result.passed, result.line()
    return result.seconds


def main(files):
    rows = []
    total = {"real": 0.0, "virtual": 0.0}
    for path in files:
        real = run_file(path, "real")
        virtual = run_file(path, "virtual")
        total["real"] += real[0]
        total["virtual"] += virtual[0]
        same = "" if real[1:] == virtual[1:] else "; NOT the same results: %d/%d against %d/%d" \
            % (virtual[1], virtual[2], real[1], real[2])
        rows.append(("%s (%d passed)" % (Path(path).name, virtual[1]),
                     "%.1f s" % virtual[0],
                     "%.2f of real time's %.1f s%s" % (virtual[0] / real[0], real[0], same)))
    rows.append(("all of them", "%.1f s" % total["virtual"],
                 "%.2f of real time's %.1f s" % (total["virtual"] / total["real"],
                                                 total["real"])))
    wall = scenario_seconds()
    rows.append(("a scenario of 30 s of board time (kitchen, 8 steps)", "%.2f s" % wall,
                 "%.3f of its board time (30 s waited, menu presses besides)" % (wall / 30)))
    print_table("board tests, virtual time against real (python tests/bench/bench_suite.py)",
                rows)


def on_workers(n):
    one = run_file(cheeseboard_test_set(), "virtual")
    many = run_file(cheeseboard_test_set(), "virtual", workers=n)
    same = "" if one[1:] == many[1:] else "; NOT the same results: %d/%d against %d/%d" \
        % (many[1], many[2], one[1], one[2])
    print_table("`cheeseboard test`'s set on %d workers against one (python "
                "tests/bench/bench_suite.py --workers %d)" % (n, n),
                [("%d passed, %d failed, on %d workers" % (many[1], many[2], n),
                  "%.1f s" % many[0],
                  "%.2f of one process's %.1f s%s" % (many[0] / one[0], one[0], same))])


if __name__ == "__main__":
    if sys.argv[1:2] == ["--workers"]:
        on_workers(int(sys.argv[2]))
    else:
        main(sys.argv[1:] or DEFAULT_FILES)
