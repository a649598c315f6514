"""The installed `cheeseboard` command, run as a user runs it: a subprocess started in a folder
outside the repository, with its own user data folder (so the default virtual board is the
test's, not the developer's)."""

import os
import subprocess
import sys
import time
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


def wait_for_group(proc, size, timeout=120.0):
    """Wait until proc's session (started with start_new_session) holds size processes: its
    workers are up. A condition, not a time: a busy machine brings them up later."""
    deadline = time.monotonic() + timeout
    while len(group_members(proc.pid)) < size:
        assert proc.poll() is None, "the command ended before its workers came up"
        assert time.monotonic() < deadline, "no %d processes within %d s" % (size, timeout)
        time.sleep(0.05)


def group_members(pgid):
    """The ids of the running processes in process group pgid."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(stat.parent.name))
    return members
