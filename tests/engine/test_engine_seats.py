"""The menu lets each seat be a person or the board; the board then plays those seats,
reactions included, and keeps them after a power cut. On CPython with a clock the test
moves (tests/support/engine_driver.py)."""

import random

from engine_driver import PROFILE, CpuTable, MemoryBoard, choose_options, play_with_buttons

from cheesefw.engine.core import Engine
from cheesefw.engine.draw import BLINK_MS
from cheesefw.engine.menu import _SEAT_COLOURS as SEAT_COLOURS  # (a private constant on the board)
from cheesefw.games import load


def menu_steps(table, game, options):
    """Walk the menu to the end, noting each step's name."""
    seen = []
    while table.state()["value"] != game:
        table.press("next")
    table.press("ok")
    while table.state()["mode"] == "menu":
        s = table.state()
        seen.append(s["step"])
        want = options.get(s["step"], s["choices"][0])
        while table.state()["value"] != want:
            table.press("next")
        table.press("ok")
    return seen


def test_after_the_options_each_seat_is_a_person_or_the_board():
    table = CpuTable(MemoryBoard(seed=3))
    steps = menu_steps(table, "gouda", {"players": 3, "seat1": "board", "seat2": "beginner"})
    assert steps[-3:] == ["seat0", "seat1", "seat2"]
    assert steps[:-3] == [key for key, _ in load("gouda").OPTIONS]
    state = table.state()
    assert state["mode"] == "play" and state["board"] == [1, 2]
    assert table.engine.scene.levels == {1: "strong", 2: "beginner"}


def test_the_board_plays_its_seats_and_the_people_theirs():
    table = CpuTable(MemoryBoard(seed=8))
    choose_options(table, "gouda", {"players": 3, "seat0": "board", "seat2": "board"})
    rng = random.Random(2)
    turns_offered = set()

    def pick(state):
        turns_offered.add(state["turn"])
        return rng.randrange(state["choices"])

    play_with_buttons(table, pick)
    assert table.state()["wait"] == "over"
    assert turns_offered == {1}  # buttons were asked only for the person's seat


def test_the_kitchen_asks_who_plays_each_side_once_seat_by_seat():
    """Not "cat = player" and then the cat's seat again: its sides are its seats."""
    table = CpuTable(MemoryBoard(seed=4))
    steps = menu_steps(table, "kitchen", {"seat1": "board"})
    assert steps == ["short_game", "seat0", "seat1"]  # the mice's seat, the cat's
    assert table.state()["board"] == [1]


def test_the_board_reacts_in_a_window_with_its_powers():
    played = 0
    for seed in range(4):
        table = CpuTable(MemoryBoard(seed=seed))
        choose_options(table, "gouda", {"players": 2, "powers": True, "markers": "series",
                                         "seat1": "board"})
        play_with_buttons(table, lambda s: 0)  # the person never reacts
        history = list(table.engine.scene.state.history)
        played += sum(1 for a in history if a[0] == "play" and a[1] == 1)
        assert not [a for a in history if a[0] == "play" and a[1] == 0]
    assert played >= 4


def test_a_game_with_board_seats_resumes_with_them_after_a_power_cut():
    board = MemoryBoard(seed=6)
    table = CpuTable(board)
    choose_options(table, "gouda", {"players": 2, "seat1": "board"})
    for _ in range(6):
        table.press("ok")
        table.wait(2000)
    moves = table.state()["moves"]
    again = CpuTable(board)  # the power comes back: a new engine on the same flash
    assert again.state()["board"] == [1] and again.state()["moves"] == moves


def test_back_from_the_first_seat_returns_to_the_last_option():
    table = CpuTable(MemoryBoard())
    table.press("ok")  # gouda
    while table.state()["step"] != "seat0":
        table.press("ok")
    table.press("back")
    assert table.state()["step"] == "extra_cheese"
    table.press("ok")
    assert table.state()["step"] == "seat0"


def test_the_seat_lights_show_each_choice_and_the_seat_in_question_blinks():
    board = MemoryBoard()
    engine = Engine(board)
    frame = bytearray(3 * board.pixel_count)
    seats = PROFILE["seats"]

    def pixel(i):
        return tuple(frame[3 * i:3 * i + 3])

    def press(name):
        board.now += 10
        engine.on_button(name, "press", board.now)

    press("ok")  # gouda, then its options at their defaults
    while engine.describe()["step"] != "seat0":
        press("ok")
    press("next")  # seat 0: the board
    at = (board.now // (2 * BLINK_MS) + 1) * 2 * BLINK_MS  # the start of a blink's "on" half
    engine.update(at)
    engine.draw(frame)
    assert pixel(seats[0]) == SEAT_COLOURS[1]
    assert engine.update(at + BLINK_MS)  # the blink turns: redraw
    engine.draw(frame)
    assert pixel(seats[0]) == (0, 0, 0)
    press("ok")  # seat 0 taken; seat 1 on offer as a person
    engine.update(at + 2 * BLINK_MS)
    engine.draw(frame)
    assert pixel(seats[0]) == SEAT_COLOURS[1] and pixel(seats[1]) == SEAT_COLOURS[0]
