"""Kalle Kanalratte on the virtual board: MicroPython with the Pico's heap, buttons only."""

import json
import random

import pytest
from engine_driver import ROOT, VirtualTable, choose_options, play_with_buttons

from cheeseboard.board.protocol import ProtocolError
from cheeseboard.rules import sync
from cheesefw.games import as_action, kalle

pytestmark = pytest.mark.board
RULES = json.loads((ROOT / "firmware/rules/kalle.json").read_text())


def pick_some(seed):
    rng = random.Random(seed)
    return lambda s: rng.randrange(min(s["choices"], 3))


def whole_log(board, total):
    return [m for page in range(0, total, 20)
            for m in board.request("log", **{"from": page})["moves"]]


def replay(options, moves):
    s = kalle.State(RULES, options)
    for m in moves:
        s.apply_action(as_action(m))
    return s


def journal_moves(flash):
    lines = (flash / "journal.txt").read_text().splitlines()
    return [json.loads(line[9:]) for line in lines[1:]]


def test_a_whole_3_player_game_with_buttons_only(vboard):
    vboard.wait_protocol()
    table = VirtualTable(vboard)
    choose_options(table, "kalle", {"players": 3})
    pick = pick_some(3)
    rounds_seen = set()

    def choose(s):
        rounds_seen.add(s["status"]["round"])
        if len(rounds_seen) == 2 and s["status"]["round"] == 2:
            # mid-game: the deals and the hidings are "?" in the log
            log = whole_log(vboard, s["moves"])
            assert log[:16] == ["?"] * 16 and log[16] == "?" and log[17] != "?"
        return pick(s)

    play_with_buttons(table, choose)
    over = table.state()
    assert over["wait"] == "over" and over["winners"] and rounds_seen == set(range(1, 7))
    assert sum(over["status"]["cheese"]) <= 6
    log = whole_log(vboard, over["moves"])
    assert "?" not in log  # the game is over: everything may be seen
    s = replay({"players": 3}, log)  # the board played the rules the module plays
    assert s.is_terminal() and s.cheese == over["status"]["cheese"]
    assert vboard.request("hello")["heap_free"] > 20000


def test_a_power_cut_mid_round_resumes_with_the_rat_where_it_was(make_vboard, tmp_path):
    flash = tmp_path / "flash"
    board = make_vboard(flash_dir=flash)
    board.wait_protocol()
    table = VirtualTable(board)
    choose_options(table, "kalle", {"players": 2})
    pick = pick_some(7)
    for _ in range(300):  # hide, place, search and swap until two cards are face up in a round
        s = table.state()
        if s["status"]["uncovered"] >= 2 and s["wait"] == "decide" and "result" not in s["status"]:
            break
        for _ in range(pick(s)):
            table.press("next")
        table.press("ok")
    before = table.state()
    assert before["status"]["uncovered"] >= 2 and "result" not in before["status"]
    done = journal_moves(flash)
    rat = replay({"players": 2}, done).rat()
    assert rat >= 0
    board.power_cut()
    again = make_vboard(flash_dir=flash)
    again.wait_protocol()
    after = again.request("state")["state"]
    assert after["game"] == "kalle" and after["moves"] == before["moves"]
    assert after["status"] == before["status"]
    # Play the game out: once it is over the log shows the hiding, and the rat of the resumed
    # game is the rat hidden before the cut.
    play_with_buttons(VirtualTable(again), pick_some(8))
    over = again.request("state")["state"]
    log = whole_log(again, over["moves"])
    assert log[:len(done)] == done
    assert replay({"players": 2}, log[:len(done)]).rat() == rat


@pytest.mark.parametrize("change,field", [
    (lambda t: t["grid"].update(steps=[[1, 1]]), "grid.steps"),  # not connected
    (lambda t: t["cards"]["animals"].pop(), "cards.animals"),  # 15 animals for 16 cards
    (lambda t: t["rounds"].update({"2": 7}), "rounds.2"),  # out of range
])
def test_a_bad_table_is_refused_by_the_board_with_the_field_named(vboard, change, field):
    vboard.wait_protocol()
    before = sync.board_tables(vboard.client)["kalle"]["sha256"]
    bad = json.loads(json.dumps(RULES))
    change(bad)
    with pytest.raises(ProtocolError, match=field.replace(".", r"\.")):
        sync.push(vboard.client, "kalle", json.dumps(bad).encode())
    assert sync.board_tables(vboard.client)["kalle"]["sha256"] == before
