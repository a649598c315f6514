"""`cheeseboard sim --seed N`, and the protocol's `seed` request: the board's die made
repeatable, so a game replays."""

import json

import pytest
from engine_driver import VirtualTable, choose_options

from cheeseboard.board.protocol import ProtocolError

pytestmark = pytest.mark.board


def journal_seed(flash_dir):
    header = (flash_dir / "journal.txt").read_text().split("\n")[0]
    return json.loads(header[9:])["seed"]


def two_games(board):
    """The seeds of two kitchen games started one after the other."""
    table = VirtualTable(board)
    choose_options(table, "kitchen", {})
    first = journal_seed(board.flash_dir)
    board.link.press("back", hold_ms=1000)  # abandon: back to the menu
    table.wait(1200)
    choose_options(table, "kitchen", {})
    return first, journal_seed(board.flash_dir)


def test_a_seeded_board_gives_each_game_the_same_seed_after_every_power_on(make_vboard, tmp_path):
    seeds = []
    for run in range(2):
        board = make_vboard(flash_dir=tmp_path / ("flash%d" % run), seed=1234)
        board.wait_protocol()
        seeds.append(two_games(board))
        board.stop()
    assert seeds[0] == seeds[1]  # the same seeds in the same order, run after run
    assert seeds[0][0] == 1234 and seeds[0][1] != 1234  # and each game its own


def test_the_seed_request_gives_the_games_the_seeds_the_simulators_seed_gives(make_vboard,
                                                                                tmp_path):
    # A board whose chip seeds its die from noise (an emulated Pico) is given the scenario's
    # seed this way: its games must be those of a virtual board started with that seed.
    board = make_vboard(flash_dir=tmp_path / "asked")
    board.wait_protocol()
    assert board.request("seed", seed=1234)["seed"] == 1234
    asked = two_games(board)
    board.stop()
    given = make_vboard(flash_dir=tmp_path / "given", seed=1234)
    given.wait_protocol()
    assert asked == two_games(given)
    for bad in (-1, 2 ** 30, "7", None):
        with pytest.raises(ProtocolError, match="seed: expected an integer 0..1073741823"):
            given.request("seed", seed=bad)


def test_a_seed_the_random_source_cannot_hold_is_refused(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "cheeseboard", "sim", "--seed", "-1", "--flash",
                        str(tmp_path / "f")], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "expected a seed from 0 to 1073741823" in r.stderr
