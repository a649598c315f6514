"""A shipped scenario on the emulated Pico, again and again on a busy machine: the same verdict.

    python tests/bench/bench_pico_scenario.py [--runs N] [FILE]

Each run is `cheeseboard scenario run --target pico FILE` (default: Gouda's first turn, whose
presses, lights and dice all count) beside a busy loop per core. The emulated chip keeps its
own clock and the host sends its presses on the wall's, so this is where a busy machine could
lose a press or change a roll. It prints each run's verdict and wall time, and how many passed;
exit status 1 when one did not.

Measured in wall seconds on this machine's cores (the verdict must not depend on them).
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from bench_determinism import start_load  # noqa: E402
from table import print_table  # noqa: E402

DEFAULT = ROOT / "tests" / "scenarios" / "gouda-first-turn.yaml"


def main(argv):
    runs = 5
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if argv[:1] == ["--runs"]:
        runs, argv = int(argv[1]), argv[2:]
    scenario = Path(argv[0]) if argv else DEFAULT
    rows, passed = [], 0
    with tempfile.TemporaryDirectory(prefix="cheeseboard-pico-scenario-") as out:
        for i in range(runs):
            hogs = start_load()
            began = time.monotonic()
            try:
                run = subprocess.run([sys.executable, "-m", "cheeseboard", "scenario", "run",
                                      "--target", "pico", "--out", out, str(scenario)],
                                     capture_output=True, text=True, timeout=1800)
            finally:
                for hog in hogs:
                    hog.terminate()
            said = (run.stdout + run.stderr).strip().split("\n")[0]
            passed += run.returncode == 0
            rows.append(("run %d of %d" % (i + 1, runs), "%.0f s" % (time.monotonic() - began),
                         said[:160]))
    rows.append(("passed", "%d of %d" % (passed, runs), "target: all"))
    print_table("%s on the emulated Pico beside a busy loop per core "
                "(python tests/bench/bench_pico_scenario.py)" % scenario.name, rows)
    return 0 if passed == runs else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
