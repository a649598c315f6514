"""Taking a move back (holding prev): what each game lets go back and what it keeps, a power
cut after a takeback, and random games with takebacks on the real MicroPython VM."""

import os
import subprocess
import sys

import pytest
import takeback_games as tg
from engine_driver import CpuTable, MemoryBoard, choose_options
from mpvm import FIRMWARE, ROOT, run_mp

from cheesefw.engine import play as P
from cheesefw.engine.rng import Rng


@pytest.fixture(autouse=True)
def _in_firmware(monkeypatch):
    monkeypatch.chdir(FIRMWARE)  # the games' tables are read from rules/


def play_until(play, rng, now, wanted, limit=3000):
    """Random choices until wanted(play) after one of them; the time then."""
    for _ in range(limit):
        assert play.wait != "over", "the game ended before the moment looked for"
        now = tg.step(play, rng, now)
        if wanted(play):
            return now
    raise AssertionError("the moment looked for never came")


def hold_prev(play, now):
    """Hold prev: True when a takeback happened (False: refused, nothing changed)."""
    moves, refused = len(play.state.history), play.refused
    play.on_button("prev", "long", now)
    if play.refused == refused + 1:
        assert len(play.state.history) == moves
        return False
    return True


def persons_move_done(play):
    """A person has just moved and the game waits on the next choice, nothing revealed since."""
    return tg.target(play) is not None


# -- what can be taken back -------------------------------------------------------------------

CAN = [
    ("gouda", {"players": 2, "powers": False}, [[1, "beginner"]]),
    ("gouda", {"players": 3, "powers": True}, []),
    ("kitchen", {"cat": "board"}, []),
    ("kalle", {"players": 3}, []),
    ("katz", {"players": 2}, []),
]


@pytest.mark.parametrize("name,options,seats", CAN, ids=[c[0] for c in CAN])
def test_a_persons_move_goes_back_to_the_state_before_it_and_a_power_cut_keeps_it(
        name, options, seats):
    play, flash, rules = tg.start(name, options, seats, 3)
    rng = Rng(11)
    now = 0
    before = None
    for _ in range(3000):  # until a person's move can go back: the state before it is kept
        if play.wait == "decide" and play.state.current_player() not in play.levels:
            before = (tg.crc(play.state), len(play.state.history))
        now = tg.step(play, rng, now)
        if persons_move_done(play) and before and tg.target(play) == before[1]:
            break
    gone = len(play.state.history) - before[1]
    assert gone >= 1 and hold_prev(play, now)
    assert (tg.crc(play.state), len(play.state.history)) == before
    assert play.wait == "decide"
    assert flash.files["journal.txt"][-1].endswith('{"takeback": %d}\n' % before[1])
    assert play.log(0, 1)["takebacks"] == [[before[1], gone]]
    again = tg.resume(flash, rules, seats)  # the power goes off right after the takeback
    assert tg.crc(again.state) == before[0] and again.wait == "decide"
    assert again.undo == play.undo
    assert again.log(0, 1)["takebacks"] == [[before[1], gone]]


def test_the_boards_own_move_goes_back_with_the_persons_move_before_it():
    play, _, _ = tg.start("gouda", {"players": 2, "powers": False}, [[1, "beginner"]], 3)
    assert play.wait == "decide" and play.state.current_player() == 0  # the first mouse placed
    start = tg.crc(play.state)
    play.on_button("ok", "press", 0)
    assert play.wait == "bot"
    play.update(P.BOT_MS + 10)  # the board places its mouse
    assert len(play.state.history) == 2 and play.wait == "decide"
    assert hold_prev(play, P.BOT_MS + 20)
    assert len(play.state.history) == 0 and tg.crc(play.state) == start
    assert not hold_prev(play, P.BOT_MS + 30)  # nothing before the first move


def test_a_takeback_in_a_row_goes_on_back_through_the_persons_moves():
    play, _, _ = tg.start("gouda", {"players": 3, "powers": False}, [], 3)
    for now in (10, 20, 30):  # three placements by three people
        play.on_button("ok", "press", now)
    assert len(play.state.history) == 3
    assert hold_prev(play, 40) and len(play.state.history) == 2
    assert hold_prev(play, 50) and len(play.state.history) == 1
    assert hold_prev(play, 60) and len(play.state.history) == 0
    assert not hold_prev(play, 70)


def test_the_die_rolling_is_called_off_by_a_takeback_and_nothing_is_drawn():
    play, _, _ = tg.start("katz", {"players": 2}, [], 3)
    rng = Rng(5)
    now = play_until(play, rng, 0, persons_move_done)
    assert play.wait == "roll"
    moves = len(play.state.history)
    play.on_button("roll", "press", now)
    assert play.wait == "rolling"
    assert hold_prev(play, now + 100)
    assert len(play.state.history) < moves and play.wait == "decide"


# -- what cannot ------------------------------------------------------------------------------

def _rolled(play):
    return play.wait == "decide" and len(play.state.history) >= 3  # a roll, a move, a roll


def _power_played(play):
    last = play.state.history[-1] if len(play.state.history) else None
    return type(last) is tuple and last[0] == "play" and play.wait in ("decide", "window", "bot")


def _turned(play):
    return getattr(play.state, "turned", None) is not None and play.wait in (
        "decide", "roll", "window", "bot")


def _drawn(play):
    return play.wait == "decide" and len(play.state.history) > 13 and \
        tg.target(play) is None  # (2 hands of 5 dealt, the lot, a placement, a draw)


CANNOT = [
    # a die rolled: the mouse that moved on the roll before it stays moved
    ("katz", {"players": 2}, [], _rolled, "the die rolled after it"),
    # a power played in a window: its marker was turned face up
    ("gouda", {"players": 3, "powers": True}, [], _power_played, "a power played after it"),
    # a tile turned over by the move: its kind is public now
    ("kitchen", {"cat": "board"}, [], _turned, "the tile it turned"),
    # a gully card turned over by the guard
    ("kalle", {"players": 3}, [], _turned, "the card it turned"),
    # a card drawn from the pile after each placement
    ("gatenkaas", {"players": 2, "hands": "open"}, [], _drawn, "the card drawn after it"),
]


@pytest.mark.parametrize("name,options,seats,moment,why", CANNOT, ids=[c[0] for c in CANNOT])
def test_nothing_goes_back_past_what_was_revealed(name, options, seats, moment, why):
    play, flash, _ = tg.start(name, options, seats, 4)
    now = play_until(play, Rng(9), 0, moment)
    shown = tg.crc(play.state)
    lines = len(flash.files["journal.txt"])
    assert not hold_prev(play, now), why
    assert tg.crc(play.state) == shown and len(flash.files["journal.txt"]) == lines


def _laid_on_an_empty_pile(play):
    s = play.state
    return play.wait == "decide" and len(s.history) > 13 and not s.pile() and (
        s.history[-1] >= 1 << 10)  # a card laid or set aside (a card drawn is its number)


@pytest.mark.parametrize("hands, goes_back", [("open", True), ("hidden", False)])
def test_a_gatenkaas_card_laid_goes_back_into_a_hand_only_where_hands_are_open(hands, goes_back):
    # With the pile empty no card is drawn after a placement; but every player saw the card
    # laid, and a hidden hand must not take back a card the others have seen (docs/rules.md)
    play, flash, _ = tg.start("gatenkaas", {"players": 2, "hands": hands}, [], 4)
    now = play_until(play, Rng(9), 0, _laid_on_an_empty_pile)
    shown = tg.crc(play.state)
    assert hold_prev(play, now) == goes_back
    if not goes_back:
        assert tg.crc(play.state) == shown
        assert play.why == "a roll or a card shown since the last move, or no move yet"


def test_nothing_to_take_back_before_the_first_move():
    play, _, _ = tg.start("katz", {"players": 2}, [], 3)
    assert play.wait == "roll" and not hold_prev(play, 0)
    assert play.signal == "refused"


def test_a_finished_game_takes_nothing_back():
    play, _, _ = tg.start("katz", {"players": 2}, [[0, "strong"], [1, "strong"]], 3)
    now = 0
    while play.wait != "over":
        now += 2000
        play.update(now)
    assert not hold_prev(play, now)


# -- through the buttons, the engine and a power cut -------------------------------------------

def test_holding_prev_on_the_board_takes_back_and_a_power_cut_resumes_there():
    board = MemoryBoard(seed=5)
    t = CpuTable(board)
    choose_options(t, "gouda", {"players": 3, "powers": False})
    t.press("ok")
    t.press("ok")  # two mice placed by two people
    assert t.state()["moves"] == 2
    t.press("prev")  # a long press begins as a press
    board.now += 800
    t.engine.on_button("prev", "long", board.now)
    assert t.state()["moves"] == 1 and t.state()["wait"] == "decide"
    assert '{"takeback": 1}' in board.files["journal.txt"].decode()
    log = t.engine.log(0)
    assert log["takebacks"] == [[1, 1]] and log["total"] == 1
    again = CpuTable(MemoryBoard(files=board.files, seed=5))  # the power went off
    assert again.state() == t.state()
    assert again.engine.log(0) == log
    again.press("ok")
    assert again.state()["moves"] == 2


def test_the_log_command_shows_where_moves_were_taken_back(monkeypatch, capsys):
    from cheeseboard import cli
    from cheeseboard.board import command

    class Client:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def request(self, cmd, **kw):
            return {"from": 0, "total": 3, "moves": [1, 2, 3], "takebacks": [[1, 2], [3, 1]]}

    monkeypatch.setattr(command, "open_client", lambda port: Client())
    assert cli.main(["log"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "0: 1", "   taken back: 2 moves after move 0", "1: 2", "2: 3",
        "   taken back: 1 move after move 2"]


# -- random games, on the real MicroPython VM --------------------------------------------------

def test_random_games_with_takebacks_reach_the_states_of_games_without_them_on_micropython():
    """Every game, two seeds each, about one choice in four a held prev: each takeback lands on
    the state the game had, a power cut resumes the game, and the final history alone gives the
    final state; the same games, to the byte, on MicroPython as on CPython. (A 1 MB heap: the
    test's own checks keep states and histories beside the game's.)"""
    code = "import takeback_games as t; t.main()"
    here = ROOT / "tests" / "engine"
    on_mp = run_mp(code, heap=1024 * 1024, path=[here], timeout=600).splitlines()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FIRMWARE), str(here)]))
    on_cpython = subprocess.run([sys.executable, "-c", code], cwd=str(FIRMWARE), env=env,
                                capture_output=True, text=True, check=True).stdout.splitlines()
    assert on_mp == on_cpython and len(on_mp) == 2 * len(tg.GAMES)
    for line in on_mp:
        assert int(line.split()[3]) >= 1, line  # each game took something back


def test_the_terminal_views_takeback_key_holds_prev_past_the_long_press():
    from cheeseboard.sim import view
    from cheesefw.buttons import DEBOUNCE_MS, LONG_MS

    presses = view.KeyPresses()
    presses.push("prev", view.TAKEBACK_MS)
    presses.push("ok")
    assert presses.due(0.0) == ("prev", view.TAKEBACK_MS)
    assert view.TAKEBACK_MS >= LONG_MS + DEBOUNCE_MS + 50  # (a 10 ms tick's worth to spare)
    assert presses.due(view.TAKEBACK_MS / 1000) is None  # not before prev is let go
    assert presses.due(1.0) == ("ok", view.PRESS_MS)
    assert any("u take back" in line for line in view.KEYS_PLAY)


def test_a_takeback_without_the_heap_for_it_is_refused_and_loses_nothing(monkeypatch):
    play, flash, _ = tg.start("gouda", {"players": 2, "powers": False}, [[1, "beginner"]], 3)
    play.on_button("ok", "press", 0)
    assert play.wait == "bot"
    thinking = play.thinking

    def no_heap():
        raise MemoryError

    monkeypatch.setattr(play, "tables", no_heap)  # the rule table, read again to rebuild
    shown, lines = tg.crc(play.state), len(flash.files["journal.txt"])
    assert not hold_prev(play, 10)
    assert tg.crc(play.state) == shown and len(flash.files["journal.txt"]) == lines
    assert play.wait == "bot" and play.thinking is thinking  # the board still plays its move
    play.update(P.BOT_MS + 10)
    assert len(play.state.history) == 2 and tg.target(play) == 0
