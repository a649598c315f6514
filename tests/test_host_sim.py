"""The host side of the virtual board: its command line, its terminal view, the limiter."""

import json
import subprocess
import sys
import time

import pytest

from cheeseboard import paths
from cheeseboard.sim import view
from cheesefw import render

PROFILE = paths.load_profile("pico")


def test_headless_prints_the_console_path_and_nothing_else(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "cheeseboard", "sim", "--headless", "--flash", str(tmp_path / "f")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline().decode()
    time.sleep(1.0)
    proc.terminate()
    rest, err = proc.communicate(timeout=10)
    assert first.startswith("/dev/pts/")
    assert rest == b""
    assert b"side channel:" in err  # the rest of what it says goes to stderr


def test_an_unknown_profile_is_a_clear_error():
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "sim", "--profile", "nope"],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 1
    assert "cheeseboard: no hardware profile 'nope': expected one of circuitpython, esp32, pico" \
        in r.stderr


def test_the_view_lays_pixels_out_as_the_serpentine_matrix_is_wired():
    pos = view.pixel_positions(PROFILE)
    assert pos[0] == (0, 0) and pos[7] == (7, 0)
    assert pos[8] == (7, 1) and pos[15] == (0, 1)  # the second row runs back
    assert len(set(pos)) == PROFILE["led"]["count"]


def test_the_view_draws_each_pixel_in_its_colour_at_its_place():
    frame = bytearray(3 * 64)
    frame[3 * 8:3 * 8 + 3] = bytes((255, 10, 0))  # pixel 8 sits at (7, 1)
    text = view.draw(frame, PROFILE)
    rows = text.split("\x1b[H\x1b[2J")[1].split("\r\n")
    cells = rows[1].split("\x1b[48;2;")
    assert cells[8].startswith("255;10;0m")
    assert cells[1].startswith("0;0;0m")


@pytest.mark.parametrize("budget", [100, 500, 3000])
def test_the_power_limiter_keeps_an_all_white_frame_within_budget(budget):
    led = dict(PROFILE["led"], budget_ma=budget)
    limiter = render.PowerLimiter(led)
    white = bytearray([255] * 3 * led["count"])
    out = bytearray(len(white))
    limiter.limit(white, out)
    assert limiter.estimate_ma(out) <= budget
    full = limiter.estimate_ma(white)
    if full > budget:
        # dimmed no more than needed: within one brightness step per channel
        one_step = 3 * led["count"] * led["ma_full_white"] / 765
        assert limiter.estimate_ma(out) >= budget - one_step - 1
    else:
        assert out == white


def test_profile_on_the_flash_is_the_hardware_profile(tmp_path):
    from cheeseboard.sim import flash

    folder = flash.prepare(PROFILE, tmp_path / "f")
    slot = folder / json.loads((folder / "slot.json").read_text())["active"]
    assert json.loads((slot / "profile.json").read_text()) == PROFILE
    # as a flashed board has it: the loader as source, every module compiled to .mpy
    assert (folder / "main.py").exists() and (slot / "cheesefw" / "app.mpy").exists()
    assert sorted(p.name for p in folder.rglob("*.py")) == ["boot.py", "main.py"]
    assert (slot / "rules" / "gouda.json").exists()
    assert not list(folder.rglob("__pycache__"))
    source = flash.prepare(PROFILE, tmp_path / "g", source=True)
    assert (source / "slot_a" / "cheesefw" / "app.py").exists()


def test_cheeseboard_test_runs_the_board_tests_with_a_summary():
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "test", "-k",
                        "main_py_runs_at_power_on"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 passed" in r.stdout
    assert "the firmware passes on the virtual board" in r.stdout
