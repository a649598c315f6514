"""Whole games on the virtual board: MicroPython with the Pico's heap, buttons only."""

import random

import pytest
from engine_driver import VirtualTable, choose_options, play_with_buttons

pytestmark = pytest.mark.board


def test_a_whole_kitchen_game_with_buttons_only(make_vboard):
    vboard = make_vboard(seed=7)  # the same rolls each run
    vboard.wait_protocol()
    table = VirtualTable(vboard)
    choose_options(table, "kitchen", {"short_game": True})
    # Seeded random choices: always the first one can walk a mouse to and fro for ever,
    # since the rulebook lets a mouse come back to a square in a later turn.
    rng = random.Random(3)
    play_with_buttons(table, lambda s: rng.randrange(s["choices"]), max_steps=3000)
    over = table.state()
    assert over["wait"] == "over" and over["winners"] in ([0], [1])
    log = vboard.request("log", **{"from": 0})
    assert log["total"] == over["moves"] and len(log["moves"]) == min(20, over["moves"])
    assert vboard.request("hello")["heap_free"] > 20000


@pytest.mark.slow
# Powers are played through in whole games on CPython (test_engine_play.py), where time is the
# test's: here every reaction window would wait its real five seconds.
@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3, "festival": True}])
def test_a_whole_gouda_game_with_buttons_only(vboard, options):
    vboard.wait_protocol()
    table = VirtualTable(vboard)
    choose_options(table, "gouda", options)
    rng = random.Random(2)
    players = options["players"]
    play_with_buttons(table, lambda s: 0 if rng.random() < 0.8 else rng.randrange(s["choices"]),
                      lambda s: (rng.randrange(players), 0) if rng.random() < 0.2 else None)
    over = table.state()
    assert over["wait"] == "over" and over["winners"]


def test_a_power_cut_mid_game_resumes_at_the_last_completed_move(make_vboard, tmp_path):
    flash = tmp_path / "flash"
    board = make_vboard(flash_dir=flash)
    board.wait_protocol()
    table = VirtualTable(board)
    choose_options(table, "gouda", {"players": 3, "powers": True})
    for i in range(40):  # place mice, roll, react: a few turns' worth of presses ...
        s = table.state()
        if i >= 25 and s["wait"] == "decide":
            break  # ... until the board waits for a player, with no timer running
        if s["wait"] == "window":
            table.wait(5200)  # nobody reacts
        else:
            table.press({"roll": "roll", "rolling": "next"}.get(s["wait"], "ok"))
            table.wait(800 if s["wait"] == "roll" else 0)
    before = table.state()
    assert before["wait"] == "decide" and before["moves"] > 15
    log = board.request("log", **{"from": 0})
    moves = [m for page in range(0, log["total"], 20)
             for m in board.request("log", **{"from": page})["moves"]]
    board.power_cut()
    again = make_vboard(flash_dir=flash)
    again.wait_protocol()
    after = again.request("state")["state"]
    assert after["mode"] == "play" and after["game"] == "gouda"
    assert after["moves"] == before["moves"]  # nothing completed was lost
    resumed = [m for page in range(0, after["moves"], 20)
               for m in again.request("log", **{"from": page})["moves"]]
    assert resumed == moves


def test_a_whole_3_player_gatenkaas_game_with_buttons_only(make_vboard):
    board = make_vboard(profile="pico16")
    board.wait_protocol()
    table = VirtualTable(board)
    choose_options(table, "gatenkaas", {"players": 3})
    assert table.state()["private"] is True  # the hand shows only while roll is held
    rng = random.Random(4)
    play_with_buttons(table, lambda s: rng.randrange(min(s["choices"], 6)))
    over = table.state()
    assert over["wait"] == "over" and over["winners"] and over["status"]["pile"] == 0
    log = board.request("log", **{"from": 0})
    assert log["total"] == over["moves"] and "?" not in log["moves"]  # all shown at the end
    assert board.request("hello")["heap_free"] > 20000
