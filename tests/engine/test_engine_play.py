"""The engine plays whole games with the buttons only, refuses what means nothing, resumes.

These run the real engine and game modules on CPython with a clock the test moves
(tests/support/engine_driver.py); test_vboard_games.py plays on the MicroPython VM.
"""

import random

import pytest
from engine_driver import CpuTable, MemoryBoard, choose_options, play_with_buttons

from cheesefw.engine.play import ROLL_MS, WINDOW_MS


def random_players(seed, seats):
    rng = random.Random(seed)

    def pick(state):
        return rng.randrange(state["choices"])

    def react(state):
        return (rng.randrange(seats), rng.randrange(3)) if rng.random() < 0.3 else None

    return pick, react


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("powers,festival", [(False, False), (True, False), (True, True)])
def test_whole_gouda_games_with_buttons_only(players, powers, festival):
    table = CpuTable(MemoryBoard(seed=players * 7 + powers))
    choose_options(table, "gouda", {"players": players, "powers": powers, "festival": festival})
    state = table.state()
    assert state["mode"] == "play" and state["options"]["players"] == players
    pick, react = random_players(players, players)
    play_with_buttons(table, pick, react)
    over = table.state()
    assert over["wait"] == "over" and len(over["winners"]) >= 1
    assert over["moves"] > players * 5  # at least every mouse was placed
    table.press("ok")  # back to the menu, the journal cleared
    assert table.state()["mode"] == "menu"
    assert "journal.txt" not in table.board.files


@pytest.mark.parametrize("short", [False, True])
def test_whole_kitchen_games_with_buttons_only(short):
    table = CpuTable(MemoryBoard(seed=11 + short))
    choose_options(table, "kitchen", {"short_game": short})
    pick, react = random_players(3, 2)
    play_with_buttons(table, pick, react)
    assert table.state()["winners"] in ([0], [1])


def start(game="gouda", seed=5, **options):
    table = CpuTable(MemoryBoard(seed=seed))
    choose_options(table, game, options)
    return table


def test_a_button_that_means_nothing_now_is_refused_and_changes_nothing():
    table = start(players=2)
    before = table.state()
    assert before["wait"] == "decide"
    table.press("roll")  # no die to roll while a mouse is being placed
    table.press("back")
    after = table.state()
    assert after["refused"] == before["refused"] + 2
    assert {k: v for k, v in after.items() if k != "refused"} == {
        k: v for k, v in before.items() if k != "refused"}


def until(table, wait, pick=0):
    for _ in range(500):
        if table.state()["wait"] == wait:
            return
        if table.state()["wait"] == "decide":
            for _ in range(pick):
                table.press("next")
            table.press("ok")
        elif table.state()["wait"] == "roll":
            table.press("roll")
            table.wait(ROLL_MS + 10)
        else:
            table.wait(WINDOW_MS + 100)
    raise AssertionError("never reached %s" % wait)


def test_buttons_during_the_roll_animation_are_refused():
    table = start(players=2)
    until(table, "roll")
    moves = table.state()["moves"]
    table.press("roll")
    assert table.state()["wait"] == "rolling"
    for name in ("roll", "ok", "next"):
        table.press(name)
    s = table.state()
    assert s["wait"] == "rolling" and s["refused"] == 3 and s["moves"] == moves
    table.wait(ROLL_MS)
    assert table.state()["moves"] > moves  # the dice were applied after the animation


def test_a_power_out_of_turn_is_refused_and_a_seat_with_one_may_play_it():
    table = start(players=3, powers=True)
    until(table, "window")
    game = table.engine.scene.state
    plays = {game.action_player(a) for a in game.legal_actions() if a != "pass"}
    idle = [seat for seat in range(3) if seat not in plays]
    moves = table.state()["moves"]
    if idle:  # a seat with no power it may play now: refused, and nothing changes
        table.press("ok")
        for _ in range(idle[0]):
            table.press("next")
        refused = table.state()["refused"]
        table.press("ok")
        s = table.state()
        assert s["refused"] == refused + 1 and s["wait"] == "seat" and s["moves"] == moves
        table.press("back")
    assert plays, "with 3 markers each someone can react after the first roll"
    seat = min(plays)
    table.press("ok")
    for _ in range(seat):
        table.press("next")
    table.press("ok")
    assert table.state()["wait"] == "react"
    offered = table.state()["offer"]
    assert game.action_player(offered) == seat
    table.press("ok")
    assert table.state()["moves"] == moves + 1
    assert list(game.history)[-1] == offered


def test_a_power_cut_at_any_move_resumes_at_the_last_completed_move():
    board = MemoryBoard(seed=3)
    table = CpuTable(board)
    choose_options(table, "gouda", {"players": 3, "powers": True})
    pick, react = random_players(9, 3)
    rng = random.Random(1)
    checked = 0
    while table.state()["wait"] != "over" and checked < 40:
        for _ in range(rng.randrange(1, 12)):
            s = table.state()
            if s["wait"] == "over":
                break
            if s["wait"] == "decide":
                table.press("ok")
            elif s["wait"] == "roll":
                table.press("roll")
                table.wait(ROLL_MS + 10)
            else:
                table.wait(WINDOW_MS + 10)
        before = table.engine.scene.state.to_dict()
        done = list(table.engine.scene.state.history)
        # Power cut: a new engine from the same flash, possibly with a torn last line.
        files = dict(board.files)
        if rng.random() < 0.5 and files.get("journal.txt"):
            files["journal.txt"] = files["journal.txt"][:-rng.randrange(1, 6)]
            torn = True
        else:
            torn = False
        resumed = CpuTable(MemoryBoard(files, seed=99))
        after = resumed.engine.scene.state
        if torn:  # the move being written is lost, nothing before it
            assert list(after.history) == done[:-1]
        else:
            assert after.to_dict() == before
        checked += 1
    assert checked > 5


def test_an_unreadable_journal_starts_at_the_menu():
    board = MemoryBoard({"journal.txt": b"\x00garbage\nmore"})
    assert CpuTable(board).state()["mode"] == "menu"


def test_the_board_plays_the_cat_and_refuses_buttons_while_it_thinks():
    table = CpuTable(MemoryBoard(seed=8))
    choose_options(table, "kitchen", {"seat1": "board"})
    seen_bot = 0
    rng = random.Random(8)
    for _ in range(3000):
        s = table.state()
        if s["wait"] == "over":
            break
        if s["wait"] == "bot":
            assert s["turn"] == 1  # only the cat's seat is the board's
            seen_bot += 1
            moves, refused = s["moves"], s["refused"]
            # The players cannot move the board's cat (pressed with no time passing: the
            # board's own move may fall due in any later tick, however the thinking went).
            table.engine.on_button("ok", "press", table.board.now)
            after = table.state()
            assert after["refused"] == refused + 1 and after["moves"] == moves
            table.wait(900)
        elif s["wait"] == "decide":
            assert s["turn"] == 0  # the children play the mice
            for _ in range(rng.randrange(s["choices"])):
                table.press("next")
            table.press("ok")
        elif s["wait"] == "roll":
            table.press("roll")
            table.wait(800)
        else:
            table.wait(300)
    assert table.state()["wait"] == "over" and seen_bot > 3


def test_the_board_cat_beats_random_mice_more_often_than_a_random_cat():
    def cat_wins(cat):
        wins = 0
        for seed in range(12):
            table = CpuTable(MemoryBoard(seed=seed))
            choose_options(table, "kitchen", {"seat1": cat})
            rng = random.Random(seed)
            play_with_buttons(table, lambda s, rng=rng: rng.randrange(s["choices"]))
            wins += table.state()["winners"] == [1]
        return wins

    assert cat_wins("board") >= cat_wins("person") + 3


def test_the_board_rolls_for_the_seats_it_plays_and_can_play_itself():
    table = CpuTable(MemoryBoard(seed=3))
    choose_options(table, "kitchen", {"seat0": "board", "seat1": "board"})
    assert play_with_buttons(table, lambda s: 0) == 0  # not one button pressed
    assert table.state()["winners"] in ([0], [1])
    table = CpuTable(MemoryBoard(seed=4))
    choose_options(table, "kitchen", {"seat1": "board"})
    for _ in range(300):
        s = table.state()
        if s["wait"] == "over":
            break
        if s["wait"] == "roll":  # only the children's rolls wait for the roll button
            assert table.engine.scene.state.roller() == 0
            table.press("roll")
            table.wait(800)
        elif s["wait"] == "decide":
            table.press("ok")
        else:
            table.wait(900)


def test_the_log_hides_the_deal_until_the_game_is_over():
    board = MemoryBoard(seed=6)
    table = CpuTable(board)
    choose_options(table, "kitchen", {"short_game": True})
    history = list(table.engine.scene.state.history)
    page = table.engine.log(0)
    assert len(history) >= 20 and page["total"] == len(history)
    assert page["moves"] == ["?"] * 20  # the face-down layout is not for a laptop's eyes
    resumed = CpuTable(MemoryBoard(dict(board.files), seed=1))  # also after a power cut
    assert resumed.engine.log(0)["moves"] == ["?"] * 20
    play_with_buttons(table, lambda s: 0)
    assert table.engine.log(0)["moves"] == history[:20]  # over: everything may be seen


def test_a_game_that_runs_out_of_heap_before_its_play_is_made_brings_the_menu_back(monkeypatch):
    # The heap can run out anywhere in a game's start: here in its painter, before the play
    # exists. The menu comes back and says so, and the board plays on (it had fallen, once).
    from cheesefw.engine import core

    def no_heap(*args):
        raise MemoryError

    table = CpuTable(MemoryBoard())
    with monkeypatch.context() as m:
        m.setattr(core, "Painter", no_heap)
        while table.state()["value"] != "kalle":
            table.press("next")
        while table.engine.menu.refused is None:  # its options, then the start
            table.press("ok")
    state = table.state()
    assert state["mode"] == "menu"
    assert "not enough heap" in table.engine.menu.refused
    choose_options(table, "kalle", {})
    assert table.state()["mode"] == "play"
