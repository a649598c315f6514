"""Alles für die Katz on the virtual board (MicroPython, the Pico's heap): buttons only, and a
power cut in the middle of a game."""

import random

import pytest
from engine_driver import VirtualTable, choose_options, play_with_buttons

pytestmark = pytest.mark.board


def all_moves(board, total):
    return [m for page in range(0, total, 20)
            for m in board.request("log", **{"from": page})["moves"]]


def test_a_power_cut_mid_game_resumes_at_the_last_completed_move(make_vboard, tmp_path):
    flash = tmp_path / "flash"
    board = make_vboard(flash_dir=flash)
    board.wait_protocol()
    table = VirtualTable(board)
    choose_options(table, "katz", {"players": 3})
    for _ in range(60):  # roll and move, turn after turn, until a player is about to choose
        s = table.state()
        if s["moves"] >= 12 and s["wait"] == "decide":
            break
        if s["wait"] == "roll":
            table.press("roll")
            table.wait(800)
        elif s["wait"] == "decide":
            table.press("next")
            table.press("ok")
        else:
            table.wait(200)
    before = table.state()
    assert before["wait"] == "decide" and before["moves"] >= 12
    moves = all_moves(board, before["moves"])
    board.power_cut()
    again = make_vboard(flash_dir=flash)
    again.wait_protocol()
    after = again.request("state")["state"]
    assert after["mode"] == "play" and after["game"] == "katz"
    assert after["moves"] == before["moves"] and after["offer"] == before["offer"]
    assert all_moves(again, after["moves"]) == moves
    assert after["status"] == before["status"]


@pytest.mark.slow
def test_a_whole_three_player_game_with_buttons_only(vboard):
    vboard.wait_protocol()
    table = VirtualTable(vboard)
    choose_options(table, "katz", {"players": 3})
    rng = random.Random(3)
    play_with_buttons(table, lambda s: 0 if rng.random() < 0.7 else rng.randrange(s["choices"]))
    over = table.state()
    assert over["wait"] == "over" and over["winners"]
    assert sum(over["status"]["home"]) + sum(over["status"]["trapped"]) == 12
    assert vboard.request("hello")["heap_free"] > 20000
