"""The replay of journals with many takebacks against the same journal without them, on this
computer's CPython (`cheeseboard replay`'s positions; the web board runs the same code on its
WebAssembly VM, several times slower).

    python tests/bench/bench_replay.py [--takebacks 2000] [--runs 5]

Each figure is the best of --runs, measured in this run beside its baseline. Linear time shows
as a journal with twice the takebacks taking about twice the time (the square would be 4x), and
as a step of a long journal costing about what a step of the plain one costs (a step is a
position drawn: the lines of a deal make none). (Reading the
file, the command's start and its printing are left out: they are the same for every replay.)
"""

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "replay"))

from table import print_table  # noqa: E402
from takeback_journal import JOURNAL, crc_line, journal_with_takebacks  # noqa: E402

from cheeseboard import paths  # noqa: E402
from cheeseboard.replay import logfile, positions  # noqa: E402


def best(text, runs, profile, fw):
    """(seconds, the log's lines, steps): the best of runs replays of a journal's text."""
    game = logfile.parse_journal(text, "journal.txt")
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        steps = positions.positions(game, profile, fw=fw)
        times.append(time.perf_counter() - t)
    return min(times), len(game.lines), len(steps)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--takebacks", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    profile = paths.load_profile("pico")
    fw = positions.firmware()
    plain = JOURNAL.read_text()
    n = args.takebacks
    base, base_lines, base_steps = best(plain, args.runs, profile, fw)
    moves = len(logfile.parse_journal(plain, "journal.txt").lines)
    cases = [
        ("%d takeback lines at its end, each to where the game is" % n,
         plain + crc_line({"takeback": moves}) * n),
        ("%d takebacks, a move or two back each and the moves again" % (n // 2),
         journal_with_takebacks(n // 2)),
        ("%d takebacks, a move or two back each and the moves again" % n,
         journal_with_takebacks(n)),
    ]
    rows = [("the kitchen's journal (%d moves, no takeback)" % base_lines, "%.3f s" % base,
             "baseline (%.3f ms a step, %d steps)" % (1000 * base / base_steps, base_steps))]
    half = None
    for name, text in cases:
        seconds, lines, steps = best(text, args.runs, profile, fw)
        against = "%.0fx the baseline, %.2fx its time a step (%d lines, %d steps)" % (
            seconds / base, seconds / steps / (base / base_steps), lines, steps)
        if half is not None:
            against += "; %.2fx the half's time" % (seconds / half)
        half = seconds if name.startswith("%d takebacks" % (n // 2)) else half
        rows.append((name, "%.3f s" % seconds, against))
    print_table("replay, CPython (best of %d)" % args.runs, rows)


if __name__ == "__main__":
    main()
