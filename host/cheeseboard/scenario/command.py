"""`cheeseboard scenario run FILE...`: play scenario files on virtual boards, one line each."""

import argparse
import os
from pathlib import Path

# The boards a scenario runs on: the unix port's virtual board; the emulated Pico (docs/pico.md).
TARGETS = ("unix", "pico")

HELP = "play scenario files (YAML: presses and what the board must show) on virtual boards"


def add_parser(sub):
    p = sub.add_parser("scenario", help=HELP, description=HELP + "; see docs/scenarios.md")
    actions = p.add_subparsers(dest="action", required=True)
    run = actions.add_parser("run", help="run scenario files, a virtual board each",
                             description="Run scenario files, each on a virtual board of its "
                                         "own, in parallel; one line per file; exit status 1 "
                                         "when any fails.")
    run.add_argument("files", nargs="+", metavar="FILE", help="scenario files (.yaml)")
    run.add_argument("--update-snapshots", action="store_true",
                     help="rewrite the pictures of snapshot steps instead of comparing them")
    run.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report there")
    run.add_argument("--out", metavar="DIR",
                     help="write snapshots and failure pictures under DIR (default: new "
                          "snapshots beside each scenario file, failure pictures in a scratch "
                          "folder that the failure's line names)")
    run.add_argument("--target", choices=TARGETS, default="unix",
                     help="the board: the unix port's virtual board (default), or an emulated "
                          "Pico running the profile's UF2 with the firmware frozen in (slower: "
                          "the chip's own clock, unseeded die; docs/pico.md)")
    run.add_argument("--jobs", type=_jobs, metavar="N",
                     help="boards at once (default: the machine's cores, %d)" % (os.cpu_count()
                                                                               or 1))
    p.set_defaults(run=do_scenario)


def _jobs(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("%r: expected a number of boards, 1 or more" % text)
    return int(text)


def do_scenario(args):
    from cheeseboard.scenario import junit, runner

    options = runner.Options(update_snapshots=args.update_snapshots,
                             out=Path(args.out) if args.out else None, target=args.target)
    try:
        results = runner.run_all([Path(f) for f in args.files], args.jobs, options,
                                 on_result=lambda r: print(r.line(), flush=True))
    except KeyboardInterrupt:
        print("cheeseboard scenario: interrupted", flush=True)
        return 130
    if args.junit:
        try:
            junit.write(Path(args.junit), results)
        except OSError as e:
            print("cheeseboard scenario: cannot write the JUnit report %s: %s"
                  % (args.junit, e.strerror or e), flush=True)
            return 1
    failed = sum(not r.passed for r in results)
    if len(results) > 1:
        print("%d scenarios: %d passed, %d failed" % (len(results), len(results) - failed,
                                                     failed))
    return 1 if failed else 0
