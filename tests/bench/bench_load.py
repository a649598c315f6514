"""The whole default suite on a busy machine: the same verdict, run after run.

    python tests/bench/bench_load.py [--runs N] [--jobs J] [--idle] [PYTEST_OPTION ...]
    make test-load                        # the same, RUNS=N JOBS=J

Each run is `make test`'s pytest (the default set, J workers: the cores + 1 unless given; 0
runs it in one process) while a busy loop per core and a second copy of the heaviest tests
(those on the wall's clock: the emulated Pico, flashing with power cuts, the terminal view;
and the web board's) keep the machine busy. It prints each run's time and outcome, every test
that failed in any run with how often and why (its first failure's message), and the
slowest tests; with --idle, one run first on the
idle machine, the baseline the loaded runs' times are compared with. Exit status 1 when a test
failed in any loaded run.

Measured on this machine's cores, in wall seconds (that is the point: a test's verdict may
not depend on them). What it leaves out: the slow set (`make test-slow`).
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from bench_determinism import start_load  # noqa: E402
from table import print_table  # noqa: E402

HEAVY = ["-m", "wall and not slow", "tests", "tests/web"]  # the second copy's tests
SLOWEST = 15


def workers(jobs):
    return [] if jobs == 0 else ["-n", str(jobs), "--dist", "worksteal"]


def run_suite(jobs, report, extra):
    """(wall seconds, {test id: outcome}, {test id: seconds}, {test id: why it failed}) of one
    run of the default set."""
    began = time.monotonic()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    "--junitxml", str(report), *workers(jobs), *extra],
                   cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - began
    outcomes, times, reasons = {}, {}, {}
    if not report.exists():  # pytest stopped before its report: a bad option, a usage error
        raise SystemExit("bench_load: pytest wrote no report (its options: %s)" % " ".join(extra))
    for case in ET.parse(report).getroot().iter("testcase"):
        name = "%s::%s" % (case.get("classname"), case.get("name"))
        kinds = [child for child in case if child.tag in ("failure", "error", "skipped")]
        outcomes[name] = kinds[0].tag if kinds else "passed"
        times[name] = float(case.get("time") or 0)
        if kinds and kinds[0].tag != "skipped":
            reasons[name] = " ".join((kinds[0].get("message") or "").split())[:300]
    return seconds, outcomes, times, reasons


class SecondCopy:
    """The heaviest tests again and again, in a process of their own, until stopped; their
    outcomes are not the point (they are the load)."""

    def __init__(self, tmp):
        self.basetemp = Path(tmp) / "second-copy"  # every board it starts has its files here
        self.stopping = threading.Event()
        self.proc = None
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.stopping.is_set():
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                 "--basetemp", str(self.basetemp), *HEAVY],
                cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True)
            self.proc.wait()

    def stop(self):
        """A Ctrl-C, so that its fixtures stop the boards they started (each in a session of its
        own, which a kill of this group would leave running); a kill if that hangs."""
        self.stopping.set()
        proc = self.proc
        if proc and proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(120)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        self.thread.join(30)
        # A board its fixtures had no time to stop runs in a session of its own: found by
        # its files' folder on its command line.
        subprocess.run(["pkill", "-KILL", "-f", str(self.basetemp)], check=False)


def summary(outcomes):
    counts = Counter(outcomes.values())
    return "%d passed, %d failed, %d errors, %d skipped" % (
        counts["passed"], counts["failure"], counts["error"], counts["skipped"])


def options(argv):
    parser = argparse.ArgumentParser(
        prog="bench_load.py", description="the default suite, run after run beside a busy "
        "loop per core and a second copy of its heaviest tests; the other options go to pytest")
    parser.add_argument("--runs", type=int, default=10, help="busy runs (default 10)")
    parser.add_argument("--jobs", type=int, default=(os.cpu_count() or 1) + 1,
                        help="pytest workers, 0 for one process (default: the cores + 1)")
    parser.add_argument("--idle", action="store_true",
                        help="one run on the idle machine first: the baseline for the times")
    return parser.parse_known_args(argv)


def main(argv):
    known, argv = options(argv)
    runs, jobs, idle = known.runs, known.jobs, known.idle
    rows, failures, slowest, reasons = [], Counter(), {}, {}
    baseline = None
    loaded = []
    with tempfile.TemporaryDirectory(prefix="cheeseboard-load-") as tmp:
        if idle:
            baseline, outcomes, _, _ = run_suite(jobs, Path(tmp) / "idle.xml", argv)
            rows.append(("idle machine (baseline)", "%.0f s" % baseline, summary(outcomes)))
            print("  ".join(rows[-1]), file=sys.stderr, flush=True)
        for i in range(runs):
            hogs, copy = start_load(), SecondCopy(tmp)
            try:
                seconds, outcomes, times, why = run_suite(jobs, Path(tmp) / ("run%d.xml" % i), argv)
            finally:
                copy.stop()
                for hog in hogs:
                    hog.terminate()
            loaded.append(seconds)
            failures.update(k for k, v in outcomes.items() if v in ("failure", "error"))
            for name, reason in why.items():
                reasons.setdefault(name, "run %d: %s" % (i + 1, reason))
            for name, t in times.items():
                slowest[name] = max(t, slowest.get(name, 0.0))
            against = " (%.2fx idle)" % (seconds / baseline) if baseline else ""
            rows.append(("busy, run %d of %d" % (i + 1, runs), "%.0f s%s" % (seconds, against),
                         summary(outcomes)))
            print("  ".join(rows[-1]), file=sys.stderr, flush=True)  # a long bench's progress
    rows.append(("tests that failed in any busy run", str(len(failures)),
                 "; ".join("%s (%d of %d)" % (k, n, runs) for k, n in failures.most_common())
                 or "none"))
    for name, reason in reasons.items():
        rows.append(("why: " + name, "", reason))
    for name, t in sorted(slowest.items(), key=lambda kv: -kv[1])[:SLOWEST]:
        rows.append(("slowest: " + name, "%.1f s" % t, "longest of the busy runs"))
    print_table("the default suite beside a busy loop per core and a second copy of the "
                "heaviest tests (%d workers; python tests/bench/bench_load.py)" % jobs, rows)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
