"""The Makefile's two commands for a newcomer pass on what they are given."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

if not shutil.which("make"):
    pytest.skip("no make here", allow_module_level=True)


def planned(*args):
    """The command `make` would run last (make -n: nothing is run)."""
    out = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), *args],
                         capture_output=True, text=True, check=True).stdout
    return out.strip().splitlines()[-1]


def test_make_play_passes_fresh_seed_flash_and_any_other_option():
    line = planned("play", "FRESH=1", "SEED=7", "FLASH=/tmp/board", "ARGS=--source --heap 90000")
    assert line.endswith("cheeseboard sim --profile pico --fresh --seed 7 --flash /tmp/board "
                         "--source --heap 90000"), line
    assert planned("play").endswith("cheeseboard sim --profile pico"), planned("play")


def test_make_web_opens_the_profile_asked_for():
    assert planned("web", "PROFILE=pico16").endswith("cheeseboard web --open --profile pico16")
