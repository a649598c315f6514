"""The board tests on a busy machine: the same results, run after run.

    python tests/bench/bench_determinism.py [--runs N] [PYTEST_OPTION ...]

While another process keeps every core busy (a busy loop per core, at the same priority),
this runs the board tests that `cheeseboard test` runs (marked board, not slow, not wall;
flashing's and the emulated Pico's aside) N times in a row (default 3), then the shipped scenarios N
times, and checks that each run gave the same results: every test's outcome (passed, failed,
skipped) and every picture the scenarios' snapshot steps drew of the board. Exit status 1
when they differ or a test fails.

Measured on the unix port (the virtual board, in virtual time, as the tests run it). What this
leaves out: the tests marked wall (`pytest -m wall` lists them), and a board test's own outputs
beyond its outcome (the scenarios' pictures stand for those).
"""

import hashlib
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from table import print_table  # noqa: E402


def board_tests():
    """`cheeseboard test`'s set: it leaves out the tests that keep the wall's clock on purpose
    (marked wall: a person's terminal, Ctrl-C at wall instants, the emulated chip), whose
    outputs beyond their verdict a busy machine may change (bench_load.py runs them)."""
    from cheeseboard.sim.command import quick_set

    return quick_set()


SCENARIOS = ROOT / "tests" / "scenarios"
HOG_LIMIT_S = 3 * 3600  # a busy loop ends by itself after this, whatever befalls this script


def _busy(limit_s):
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        pass


def start_load():
    """A busy loop per core, each in a process of its own: the cores stay busy."""
    hogs = [multiprocessing.Process(target=_busy, args=(HOG_LIMIT_S,), daemon=True)
            for _ in range(os.cpu_count() or 1)]
    for hog in hogs:
        hog.start()
    return hogs


def run_tests(extra, report):
    """(wall seconds, {test id: outcome}) of one pytest run of the board tests."""
    began = time.monotonic()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    "--junitxml", str(report), *board_tests(), *extra, "tests"],
                   cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.monotonic() - began
    outcomes = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = "%s::%s" % (case.get("classname"), case.get("name"))
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        outcomes[name] = kinds[0] if kinds else "passed"
    return seconds, outcomes


def run_scenarios(folder):
    """(wall seconds, {scenario: its line without the time}, {picture: sha256}) of the shipped
    scenarios played from a copy of their folder, every snapshot drawn anew (the pictures the
    board showed)."""
    from cheeseboard.scenario import runner

    folder = folder / "tests" / "scenarios"  # at the depth of the repository's: a scenario
    shutil.copytree(SCENARIOS, folder)  # may name ../../firmware/rules/...
    (folder.parents[1] / "firmware").symlink_to(ROOT / "firmware")
    shutil.rmtree(folder / "snapshots")
    began = time.monotonic()
    results = runner.run_all(sorted(folder.glob("*.yaml")), None,
                             runner.Options(update_snapshots=True))
    seconds = time.monotonic() - began
    lines = {r.path.name: re.sub(r" in [\d.]+s$", "", r.line().replace(str(folder), ""))
             for r in results}
    pictures = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted((folder / "snapshots").glob("*"))}
    return seconds, lines, pictures


def differing(runs):
    """The keys whose value is not the same in every run (a dict per run)."""
    keys = set().union(*runs)
    return sorted(k for k in keys if len({run.get(k) for run in runs}) > 1)


def main(argv):
    runs = 3
    if argv[:1] == ["--runs"]:
        runs, argv = int(argv[1]), argv[2:]
    hogs = start_load()
    rows = []
    same = True
    try:
        with tempfile.TemporaryDirectory(prefix="cheeseboard-determinism-") as tmp:
            tests = []
            for i in range(runs):
                seconds, outcomes = run_tests(argv, Path(tmp) / ("run%d.xml" % i))
                tests.append(outcomes)
                counts = {k: list(outcomes.values()).count(k)
                          for k in ("passed", "failure", "error", "skipped")}
                rows.append(("board tests, run %d of %d" % (i + 1, runs), "%.0f s" % seconds,
                             "%(passed)d passed, %(failure)d failed, %(error)d errors, "
                             "%(skipped)d skipped" % counts))
            scenarios = []
            for i in range(runs):
                seconds, lines, pictures = run_scenarios(Path(tmp) / ("scenarios%d" % i))
                scenarios.append((lines, pictures))
                rows.append(("shipped scenarios, run %d of %d" % (i + 1, runs),
                             "%.0f s" % seconds,
                             "%d passed of %d; %d pictures"
                             % (sum(v.startswith("PASS") for v in lines.values()), len(lines),
                                len(pictures))))
    finally:
        for hog in hogs:
            hog.terminate()
    for what, per_run in (("test outcomes", tests),
                          ("scenario results", [s[0] for s in scenarios]),
                          ("scenario pictures", [s[1] for s in scenarios])):
        differ = differing(per_run)
        same = same and not differ
        rows.append(("%s the same in every run" % what, "yes" if not differ else "NO",
                     "%d compared%s" % (len(set().union(*per_run)),
                                        "; differ: " + ", ".join(differ[:5]) if differ else "")))
    print_table("determinism on a busy machine (%d busy loops; python "
                "tests/bench/bench_determinism.py)" % (os.cpu_count() or 1), rows)
    failed = any(v in ("failure", "error") for run in tests for v in run.values()) or any(
        not v.startswith("PASS") for lines, _ in scenarios for v in lines.values())
    return 0 if same and not failed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
