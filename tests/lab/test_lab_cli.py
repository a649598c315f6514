"""`cheeseboard lab` refuses bad input as a user meets it: the installed command, run from a
folder outside the repository; one line naming what is wrong, non-zero, no traceback, and
nothing written to --out."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from installed import assert_clear_refusal, run, start, user_env, wait_for_group

ROOT = Path(__file__).resolve().parents[2]


def bad_table(home):
    t = json.loads((ROOT / "firmware/rules/gouda.json").read_text())
    t["dice"]["n"] = 9  # a board has at most 5 dice
    path = Path(home) / "bad.json"
    Path(home).mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(t))
    return str(path)


CASES = [
    (["chess"], ["unknown game", "gouda"]),
    (["gouda", "--option", "colour=blue"], ["colour", "players"]),
    (["gouda", "--option", "players=9"], ["players", "expected one of"]),
    (["gouda", "--option", "players"], ["KEY=VALUE"]),
    (["gouda", "--games", "0"], ["--games", "at least 1"]),
    (["gouda", "--players", "genius"], ["genius", "random"]),
    (["kitchen", "--option", "short_game=maybe"], ["short_game", "true"]),
    (["katz", "--option", "board=1"], ["board", "players"]),  # the menu's seat step now
    (["gouda", "--rules", "BAD"], ["dice.n"]),
    (["gouda", "--rules", "missing.json"], ["missing.json", "cannot read"]),
    (["gouda", "--against-option", "powers=often"], ["powers"]),
    (["gouda", "--games", "3", "--dask", "tcp://127.0.0.1:9"], ["Dask", "127.0.0.1:9"]),
]


@pytest.mark.parametrize("args,words", CASES)
def test_bad_input_is_one_clear_line_and_writes_nothing(tmp_path, args, words):
    home = tmp_path / "home"
    args = [bad_table(home) if a == "BAD" else a for a in args]
    result = run(home, "lab", *args, "--out", "out", timeout=120)
    assert_clear_refusal(result, *words)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (home / "out").exists()


def test_a_small_sweep_from_outside_the_repository_writes_its_report(tmp_path):
    home = tmp_path / "home"
    result = run(home, "lab", "kitchen", "--games", "4", "--jobs", "1", timeout=180)
    assert result.returncode == 0, result.stderr
    assert "\r" not in result.stderr  # no progress bar when the output is not a terminal
    report = json.loads((home / "lab-kitchen" / "report.json").read_text())
    assert report["games"] == 4 and sum(report["wins"]) == 4


def test_without_matplotlib_the_lab_gives_a_command_that_works_from_here(tmp_path):
    """The interpreter the installed command runs on, with pip: from any folder (not an
    editable install that works from the repository's root alone)."""
    import os
    import subprocess

    from installed import CHEESEBOARD, user_env

    hidden = tmp_path / "no-matplotlib" / "matplotlib"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text("raise ImportError('not installed here')\n")
    env = dict(user_env(tmp_path), PYTHONPATH=str(hidden.parent))
    result = subprocess.run([CHEESEBOARD, "lab", "gouda", "--games", "2"], cwd=str(tmp_path),
                            env=env, capture_output=True, text=True, timeout=120)
    assert_clear_refusal(result, "matplotlib")
    said = result.stderr.strip()
    command = said.split("matplotlib: ", 1)[1].split(" (")[0].split()
    assert os.access(command[0], os.X_OK) and command[1:4] == ["-m", "pip", "install"], said
    assert any(word.strip("'").startswith("matplotlib") for word in command[4:]), said
    assert "-e" not in command and ".[lab]" not in said, said


@pytest.mark.wall  # a Ctrl-C while the workers play
def test_ctrl_c_on_several_workers_ends_at_once_with_one_line_and_writes_nothing(tmp_path):
    # Games enough for minutes of play: an interrupt must not wait for the batches not begun.
    proc = start(tmp_path, "lab", "gouda", "--games", "200000", "--jobs", "2", "--out", "out",
                 text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait_for_group(proc, 3)  # the lab and its two workers
    except AssertionError:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole foreground group
    assert_interrupted(proc, tmp_path / "out")


def assert_interrupted(proc, out, timeout=60):
    """The lab ended on the Ctrl-C at once: status 130, one line, no report written."""
    try:
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("the lab played on for %d s after a Ctrl-C" % timeout) from None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert len(err.strip().splitlines()) == 1 and "interrupted" in err, err
    assert not out.exists()


# The lab, with a terminal's Ctrl-C at the worst instant: as Python runs its callbacks at the
# start of a worker (logging's, threading's among them), in the lab or in the worker itself,
# where an interrupt raised is only reported.
CTRL_C_AT_A_WORKER_S_START = """
import os, signal, sys
from cheeseboard.__main__ import main
pressed = []
def ctrl_c_once():
    if not pressed:
        pressed.append(True)
        os.killpg(0, signal.SIGINT)
os.register_at_fork(%s=ctrl_c_once)
sys.argv[0] = "cheeseboard"
sys.exit(main())
"""


@pytest.mark.parametrize("where", ["after_in_parent", "after_in_child"])
def test_a_ctrl_c_as_a_worker_starts_ends_the_lab_with_one_line(tmp_path, where):
    proc = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_AT_A_WORKER_S_START % where, "lab", "gouda", "--games",
         "200000", "--jobs", "2", "--out", "out"], cwd=str(tmp_path), env=user_env(tmp_path),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert_interrupted(proc, tmp_path / "out", timeout=120)
