"""The host side of the virtual board: its command line, its terminal view, the limiter."""

import json
import subprocess
import sys

import pytest
from led_power import estimate_ma
from vboard import DEFAULT_CLOCK

from cheeseboard import paths
from cheeseboard.sim import view
from cheeseboard.sim.control import SimLink
from cheesefw import render
from cheesefw.games import GAMES

PROFILE = paths.load_profile("pico")


def test_headless_prints_the_console_path_and_nothing_else(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "cheeseboard", "sim", "--headless", "--flash", str(tmp_path / "f"),
         "--clock", DEFAULT_CLOCK], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        first = proc.stdout.readline().decode()
        link = SimLink(str(tmp_path / "f") + ".sock", virtual=DEFAULT_CLOCK == "virtual")
        link.wait_frame(0)  # booted to its menu
        link.sleep(1.0)  # and a second of the board's time playing it
        link.close()
    finally:
        proc.terminate()  # (a failure above leaves no simulator running)
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


def view_cells(text):
    """The terminal view's board as [line][column] -> (rgb, the cell's text)."""
    import re

    board_lines = text.split("\x1b[H\x1b[2J")[1].split("\r\n")[1:1 + 2 * 8]
    grid = []
    for line in board_lines:
        cells = re.findall(r"\x1b\[48;2;(\d+);(\d+);(\d+)m\x1b\[\d+m([^\x1b]*)", line)
        grid.append([((int(r), int(g), int(b)), t) for r, g, b, t in cells])
    return grid


def test_the_view_lays_pixels_out_as_the_overlay_lies_pixel_0_at_the_bottom_left():
    frame = bytearray(3 * 64)
    frame[3 * 8:3 * 8 + 3] = bytes((255, 10, 0))  # pixel 8: the second row runs back, column 7
    frame[0:3] = bytes((1, 2, 3))
    grid = view_cells(view.draw(frame, PROFILE, game="kitchen"))
    assert len(grid) == 16 and all(len(row) == 8 for row in grid)
    assert grid[12][7][0] == grid[13][7][0] == (255, 10, 0)  # two lines per pixel
    assert grid[14][0][0] == (1, 2, 3)
    assert grid[0][0][0] == view.DARK  # unlit: dark grey, so that its label shows


def test_the_view_writes_each_space_id_and_name_in_its_cells_with_a_legend_and_keys():
    text = view.draw(None, PROFILE, game="gouda")
    grid = view_cells(text)
    assert grid[14][2][1].strip() == "jug" and grid[14][3][1].strip() == ""  # pixels 2, 3
    assert "big jug" in grid[15][2][1] + grid[15][3][1]
    assert "table" in "".join(t for _, t in grid[2])  # the top row of the overlay: 49-52
    assert grid[0][0][1].strip() == "seat 1" and grid[0][7][1].strip() == "status"
    for word in ("player 1", "cheese", "die:", "status: red", "keys now (menu)"):
        assert word in text, word
    assert "keys now (game)" in view.draw(None, PROFILE, game="gouda", playing=True)


def test_the_view_knows_the_game_from_the_journal_or_the_menus_lit_spaces(tmp_path):
    frame = bytearray(3 * 64)
    for pixels in PROFILE["maps"]["kitchen"].values():
        for p in pixels:
            frame[3 * p] = 40
    offered = [g for g in GAMES if g in PROFILE["maps"]]
    frame[3 * PROFILE["seats"][offered.index("kitchen")]] = 255  # the game on offer's seat
    assert view.game_shown(PROFILE, frame, tmp_path) == ("kitchen", False)
    frame[3 * PROFILE["seats"][offered.index("kitchen")]] = 0  # Katz covers the same pixels
    frame[3 * PROFILE["seats"][offered.index("katz")]] = 255
    assert view.game_shown(PROFILE, frame, tmp_path) == ("katz", False)
    (tmp_path / "journal.txt").write_text('00000000 {"game": "gouda", "seed": 1}\n')
    assert view.game_shown(PROFILE, frame, tmp_path) == ("gouda", True)


@pytest.mark.parametrize("budget", [100, 500, 3000])
def test_the_power_limiter_keeps_an_all_white_frame_within_budget(budget):
    led = dict(PROFILE["led"], budget_ma=budget)
    limiter = render.PowerLimiter(led)
    white = bytearray([255] * 3 * led["count"])
    out = bytearray(len(white))
    limiter.limit(white, out)
    assert estimate_ma(led, out) <= budget
    full = estimate_ma(led, white)
    if full > budget:
        # dimmed no more than needed: within one brightness step per channel
        one_step = 3 * led["count"] * led["ma_full_white"] / 765
        assert estimate_ma(led, out) >= budget - one_step - 1
    else:
        assert out == white


def test_profile_on_the_flash_is_the_hardware_profile(tmp_path):
    from cheeseboard.sim import flash

    folder = flash.prepare(PROFILE, tmp_path / "f")
    slot = folder / json.loads((folder / "slot.json").read_text())["active"]
    assert json.loads((slot / "profile.json").read_text()) == PROFILE
    # as a flashed board has it: the loader as source, every module compiled to .mpy
    assert (folder / "main.py").exists() and (slot / "cheesefw" / "app.mpy").exists()
    assert sorted(p.name for p in folder.rglob("*.py")) == ["boot.py", "main.py", "recover.py"]
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


def test_the_views_questions_wait_for_the_firmwares_answers(tmp_path):
    """A firmware that does not read its side channel (at the REPL) is not asked again and
    again: unread questions would fill the pipe and block the view."""
    from cheeseboard.sim.board import VirtualBoard

    board = VirtualBoard(tmp_path / "flash", PROFILE["heap"])
    sent = []
    board._send_side = sent.append
    try:
        for _ in range(10):
            board.ask_state()
        assert sent == [b"D", b"D"]
        board._side_message(b'D {"state": {"mode": "menu"}, "stuck": []}')
        assert board.described["state"] == {"mode": "menu"}
        board.ask_state()
        assert len(sent) == 3
    finally:
        board.stop()


def test_cheeseboard_test_runs_on_every_core_unless_told_otherwise():
    from cheeseboard.sim.command import _on_every_core

    every = ["-n", "auto", "--dist", "worksteal"]
    assert _on_every_core(["-k", "kitchen"], listing=set()) == every
    assert _on_every_core(["-n", "0"], listing=set()) == []  # the person chose
    assert _on_every_core(["-n4"], listing=set()) == []
    assert _on_every_core(["-p", "no:xdist"], listing=set()) == []
    assert _on_every_core(["--co"], listing={"--co"}) == []  # a listing: no workers to start
