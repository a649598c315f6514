"""The host command's own time, as a person (and every test that starts a board) pays it.

    python tests/bench/bench_cli.py [--runs N]

- start-up: `cheeseboard --version` (the parser built, every room's options with it), against
  Python starting and doing nothing, in the same run;
- `cheeseboard hello` on a board whose program runs, against the same on a board that mpremote
  left at the REPL (which the command restarts, and waits for).

Medians of N runs (default 7), on a virtual board (unix port, virtual time) of its own. What
this place gets wrong: a Pico boots in about 2 s of its own, where the unix port's VM takes a
tenth of that, so a restart from the REPL takes longer on a real board by that much.
"""

import contextlib
import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from table import print_table  # noqa: E402
from vboard import VBoard  # noqa: E402

COMMAND = [sys.executable, "-m", "cheeseboard"]


def seconds(argv, runs, before=None):
    """The median wall time of argv, run `runs` times (before() ahead of each, not timed)."""
    times = []
    for _ in range(runs):
        if before:
            before()
        began = time.monotonic()
        done = subprocess.run(argv, capture_output=True, text=True, cwd=tempfile.gettempdir())
        times.append(time.monotonic() - began)
        assert done.returncode == 0, done.stderr
    return statistics.median(times)


def main(runs):
    python = seconds([sys.executable, "-c", "pass"], runs)
    start = seconds(COMMAND + ["--version"], runs)
    rows = [("start-up (`cheeseboard --version`)", "%.3f s" % start,
             "%.1fx Python doing nothing (%.3f s)" % (start / python, python))]
    with tempfile.TemporaryDirectory() as tmp:
        board = VBoard(Path(tmp) / "flash")
        try:
            board.wait_protocol()
            board.release_console()
            hello = COMMAND + ["hello", "--port", board.pty]
            running = seconds(hello, runs)

            def leave_at_the_repl():
                listing = board.mpremote("fs", "ls")
                assert listing.returncode == 0, listing.stderr

            at_repl = seconds(hello, runs, before=leave_at_the_repl)
        finally:
            with contextlib.redirect_stderr(io.StringIO()):  # (the simulator's own lines)
                board.stop()
    rows.append(("`cheeseboard hello`, the board's program running", "%.3f s" % running, ""))
    rows.append(("`cheeseboard hello`, the board left at the REPL (restarted)", "%.3f s" % at_repl,
                 "%.1fx the running board's" % (at_repl / running)))
    print_table("the host command (python tests/bench/bench_cli.py; medians of %d, unix port, "
                "virtual time)" % runs, rows)


if __name__ == "__main__":
    main(int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7)
