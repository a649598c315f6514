"""The installed `cheeseboard` command, run as a user runs it: a subprocess started in a folder
outside the repository, with its own user data folder (so the default virtual board is the
test's, not the developer's)."""

import os
import subprocess
import sys
from pathlib import Path

CHEESEBOARD = str(Path(sys.executable).parent / "cheeseboard")


def user_env(home):
    """The environment of a user whose data folder is under home."""
    env = dict(os.environ)
    env["XDG_DATA_HOME"] = str(Path(home) / "data")
    env.pop("PYTHONPATH", None)  # nothing of the test run leaks into the command
    return env


def run(home, *args, timeout=60, **kwargs):
    """Run `cheeseboard ARGS...` in the folder home; the CompletedProcess, text mode."""
    Path(home).mkdir(parents=True, exist_ok=True)
    return subprocess.run([CHEESEBOARD, *args], cwd=str(home), env=user_env(home), text=True,
                          capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL,
                          **kwargs)


def start(home, *args, **kwargs):
    """Start `cheeseboard ARGS...` in the folder home; the Popen (pipes for stdout/stderr)."""
    Path(home).mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([CHEESEBOARD, *args], cwd=str(home), env=user_env(home),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, **kwargs)


def assert_clear_refusal(result, *words):
    """A refusal a person can act on: non-zero, no traceback, the words in what it says."""
    assert result.returncode != 0, result
    assert "Traceback" not in result.stderr, result.stderr
    said = result.stdout + result.stderr
    for word in words:
        assert word in said, said
