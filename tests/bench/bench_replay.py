"""The replay of journals with many takebacks against the same journal without them: on this
computer's CPython (`cheeseboard replay`'s positions), and on the web board's VM (the same code
on MicroPython's WebAssembly port, in Node, as the page runs it; its figures count the VM's
start, the same for each journal).

    python tests/bench/bench_replay.py [--takebacks 2000] [--runs 5] [--no-wasm]

Each figure is the best of --runs (of 1 on the WebAssembly VM), measured in this run beside its
baseline. Linear time shows as a journal with twice the takebacks taking about twice the time
(the square would be 4x), and as a step of a long journal costing about what a step of the
plain one costs (a step is a position drawn: the lines of a deal make none).
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "replay"))

from table import print_table  # noqa: E402
from takeback_journal import JOURNAL, crc_line, journal_with_takebacks  # noqa: E402

from cheeseboard import paths  # noqa: E402
from cheeseboard.replay import logfile, positions  # noqa: E402


def journals(n):
    """[(name, journal text)]: the plain journal first (the baseline), then the long ones."""
    plain = JOURNAL.read_text()
    moves = len(logfile.parse_journal(plain, "journal.txt").lines)
    return [
        ("the kitchen's journal (%d moves, no takeback)" % moves, plain),
        ("%d takeback lines at its end, each to where the game is" % n,
         plain + crc_line({"takeback": moves}) * n),
        ("%d takebacks, a move or two back each and the moves again" % (n // 2),
         journal_with_takebacks(n // 2)),
        ("%d takebacks, a move or two back each and the moves again" % n,
         journal_with_takebacks(n)),
    ]


def on_cpython(cases, runs):
    """[(seconds, lines, steps)] of each journal: the best of runs replays."""
    profile = paths.load_profile("pico")
    fw = positions.firmware()
    out = []
    for _, text in cases:
        game = logfile.parse_journal(text, "journal.txt")
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            steps = positions.positions(game, profile, fw=fw)
            times.append(time.perf_counter() - t)
        out.append((min(times), len(game.lines), len(steps)))
    return out


def on_wasm(cases):
    """[(seconds, lines, steps)] of each journal on the web board's VM, or a reason it cannot
    run here."""
    from cheeseboard.web import server

    node = shutil.which("node")
    try:
        server.vm_dir()
    except server.WebError as e:
        return str(e)
    if not node:
        return "no node on this machine"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "flash.json").write_text(server.flash_json(paths.load_profile("pico")))
        names = []
        for i, (_, text) in enumerate(cases):
            names.append(str(folder / ("journal%d.txt" % i)))
            Path(names[-1]).write_text(text)
        r = subprocess.run([node, str(HERE / "replay_wasm.mjs"), str(folder / "flash.json")]
                           + names, capture_output=True, text=True)
    if r.returncode:
        return "replay_wasm.mjs failed: " + r.stderr.strip()[-300:]
    made = [json.loads(line) for line in r.stdout.splitlines()]
    return [(m["seconds"], len(logfile.parse_journal(text, "j").lines), m["steps"])
            for m, (_, text) in zip(made, cases, strict=True)]


def rows(cases, figures):
    base, _, base_steps = figures[0]
    out = [(cases[0][0], "%.3f s" % base, "baseline (%.3f ms a step, %d steps)"
            % (1000 * base / base_steps, base_steps))]
    for i in range(1, len(cases)):
        seconds, lines, steps = figures[i]
        against = "%.0fx the baseline, %.2fx its time a step (%d lines, %d steps)" % (
            seconds / base, seconds / steps / (base / base_steps), lines, steps)
        if i == len(cases) - 1:  # against the journal with half its takebacks
            against += "; %.2fx the half's time" % (seconds / figures[i - 1][0])
        out.append((cases[i][0], "%.3f s" % seconds, against))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--takebacks", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-wasm", action="store_true", help="CPython only")
    args = ap.parse_args(argv)
    cases = journals(args.takebacks)
    print_table("replay, CPython (best of %d)" % args.runs,
                rows(cases, on_cpython(cases, args.runs)))
    if args.no_wasm:
        return
    print()
    figures = on_wasm(cases)
    if isinstance(figures, str):
        print("replay on the web board's VM: not measured (%s)" % figures)
        return
    print_table("replay, the web board's VM (WebAssembly in Node, its start counted)",
                rows(cases, figures))


if __name__ == "__main__":
    main()
