"""Alles für die Katz on the board's LEDs and buttons (the engine on CPython, a clock the test
moves): towers, cans empty and full, the die and the clover, the hole per seat, the choices
offered with prev/next, and a whole 3-player game played with the buttons only."""

import json
import random

from engine_driver import PROFILE, ROOT, CpuTable, MemoryBoard, choose_options, play_with_buttons

from cheesefw.engine.draw import BLINK_MS, Painter
from cheesefw.games import katz

RULES = json.loads((ROOT / "firmware/rules/katz.json").read_text())
PALETTE = {k: tuple(v) for k, v in RULES["palette"].items()}
MAP = PROFILE["maps"]["katz"]
OFF = (0, 0, 0)
WHITE = (255, 255, 255)


def px(frame, i):
    return tuple(frame[3 * i:3 * i + 3])


def paint(state, now, offer=None):
    frame = bytearray(3 * PROFILE["led"]["count"])
    Painter(PROFILE, "katz", RULES["palette"]).paint(frame, state.view(), now,
                                                      state.num_players(), offer)
    return frame


def state(players=3, mice=(), roll=None):
    s = katz.State(RULES, {"players": players})
    for i, place, level, trapped in mice:
        s.place[i], s.level[i], s.trapped[i] = place, level, trapped
    if roll is not None:
        s.phase, s.roll = katz.MOVE, roll
    return s


def test_the_track_on_the_matrix_every_space_its_pixel_the_hole_two_a_seat():
    ids = [sp[0] for sp in RULES["spaces"]]
    assert sorted(MAP) == sorted(ids)
    assert all(len(MAP[sid]) == 1 for sid in ids if sid != "hole")
    assert len(MAP["hole"]) == 2 * len(PROFILE["seats"])
    for other in ("esp32", "circuitpython"):
        profile = json.loads((ROOT / "hardware/profiles" / (other + ".json")).read_text())
        assert profile["maps"]["katz"] == MAP


def test_a_tower_shows_its_top_and_the_mice_below_take_turns():
    # f07: player 0 at the bottom, then 1, then 2 on top.
    s = state(mice=[(0, 7, 0, 0), (4, 7, 1, 0), (8, 7, 2, 0)])
    p = MAP["f07"][0]
    assert px(paint(s, BLINK_MS), p) == PALETTE["2"]  # the top, between the turns
    assert px(paint(s, 3 * BLINK_MS), p) == PALETTE["2"]
    below = {px(paint(s, t * 2 * BLINK_MS), p) for t in range(4)}
    assert below == {PALETTE["1"], PALETTE["0"]}  # each mouse below in turn
    alone = state(mice=[(0, 7, 0, 0)])
    assert {px(paint(alone, t * BLINK_MS), p) for t in range(4)} == {PALETTE["0"]}  # steady


def test_empty_and_full_cans_are_told_apart():
    s = state(mice=[(0, 4, 0, 1)])  # caught in f04; f08 still empty
    frame = paint(s, BLINK_MS)
    assert px(frame, MAP["f04"][0]) == PALETTE["trapped"]  # the mouse turned over
    assert px(frame, MAP["f08"][0]) == PALETTE["trap"]
    assert px(frame, MAP["f05"][0]) == PALETTE["empty"]  # a bare yellow field
    assert len({PALETTE["trapped"], PALETTE["trap"], PALETTE["empty"]}) == 3
    # A free mouse on the full can: its colour on top, the caught one below in turn.
    s = state(mice=[(0, 4, 0, 1), (4, 4, 1, 0)])
    assert px(paint(s, BLINK_MS), MAP["f04"][0]) == PALETTE["1"]
    assert px(paint(s, 0), MAP["f04"][0]) == PALETTE["trapped"]


def test_the_die_shows_its_number_or_the_clover():
    die = PROFILE["die"]
    for face in (1, 3, 5):
        frame = paint(state(roll=face), 0)
        assert [px(frame, p) for p in die] == [PALETTE["die"]] * face + [OFF] * (5 - face)
    frame = paint(state(roll="clover"), 0)
    assert [px(frame, p) for p in die] == [PALETTE["clover"]] * 5
    # While a clover move is offered, the die shows the step count chosen.
    s = state(roll="clover")
    frame = paint(s, 0, s.hint(("pantry", 2)))
    assert [px(frame, p) for p in die] == [PALETTE["clover"]] * 2 + [OFF] * 3


def test_the_mice_in_the_hole_per_seat_two_a_pixel():
    hole = 30
    s = state(mice=[(0, hole, 0, 0), (4, hole, 0, 0), (5, hole, 0, 0), (6, hole, 0, 0),
                    (8, hole, 0, 0), (9, hole, 0, 0), (10, hole, 0, 0), (11, hole, 0, 0)])
    frame = paint(s, 0)
    seat = [[px(frame, p) for p in MAP["hole"][2 * j:2 * j + 2]] for j in range(6)]
    assert seat[0] == [PALETTE["half0"], OFF]  # 1 mouse
    assert seat[1] == [PALETTE["1"], PALETTE["half1"]]  # 3
    assert seat[2] == [PALETTE["2"], PALETTE["2"]]  # 4
    assert seat[3] == seat[4] == seat[5] == [OFF, OFF]  # nobody home / no such player
    # the meter: how many cans are full already
    s = state(mice=[(0, 4, 0, 1), (1, 8, 0, 1)])
    frame = paint(s, 0)
    lit = [p for p in PROFILE["meter"] if px(frame, p) == PALETTE["meter"]]
    assert len(lit) == 2  # 2 of 7 cans on 7 pixels


def test_the_offered_move_blinks_the_tower_and_where_it_ends():
    s = state(mice=[(0, 7, 0, 0)], roll=3)
    offer = s.hint(("f07", 3))
    on, off = paint(s, 0, offer), paint(s, BLINK_MS, offer)
    assert px(on, MAP["f07"][0]) == WHITE and px(on, MAP["f10"][0]) == WHITE
    assert px(off, MAP["f07"][0]) == PALETTE["0"] and px(off, MAP["f10"][0]) == PALETTE["empty"]


def test_prev_and_next_walk_the_moves_and_with_the_clover_the_step_counts():
    table = CpuTable(MemoryBoard(seed=3))
    choose_options(table, "katz", {"players": 3})
    scene = table.engine.scene
    s = scene.state
    s.apply_action("clover")  # as if rolled: the board then offers every count
    scene._advance(table.board.now)
    assert table.state()["wait"] == "decide" and table.state()["choices"] == 5
    offered = []
    for _ in range(5):
        offered.append(table.state()["offer"])
        table.press("next")
    assert offered == [("pantry", k) for k in range(1, 6)]
    table.press("prev")
    table.press("ok")
    assert s.place[0] == 5 and s.roller() == 1


def test_a_whole_three_player_game_with_the_buttons_only():
    table = CpuTable(MemoryBoard(seed=11))
    choose_options(table, "katz", {"players": 3})
    rng = random.Random(4)
    presses = play_with_buttons(table, lambda s: rng.randrange(s["choices"]))
    over = table.state()
    assert over["wait"] == "over" and over["winners"] and presses > 100
    status = over["status"]
    assert sum(status["home"]) + sum(status["trapped"]) == 12


def test_the_board_plays_its_seats_itself():
    table = CpuTable(MemoryBoard(seed=5))
    choose_options(table, "katz", {"players": 2, "seat1": "board"})  # the menu's seat step
    assert table.state()["board"] == [1]
    seen = set()
    for _ in range(3000):
        s = table.state()
        if s["wait"] == "over":
            break
        seen.add((s["turn"], s["wait"]))
        if s["wait"] in ("bot", "rolling"):
            table.wait(1000)
        elif s["wait"] == "roll":
            table.press("roll")
            table.wait(800)
        else:
            assert s["turn"] == 0  # the board never waits for buttons on its own seat
            table.press("ok")
    assert (1, "bot") in seen
    assert table.state()["wait"] == "over" and table.state()["winners"]  # a whole game


def test_a_button_that_means_nothing_now_is_refused_with_the_signal_and_changes_nothing():
    table = CpuTable(MemoryBoard(seed=8))
    choose_options(table, "katz", {"players": 2})
    before = table.state()
    assert before["wait"] == "roll"
    for name in ("ok", "next", "prev"):  # nothing to choose before the roll
        table.press(name)
    after = table.state()
    assert after["refused"] == before["refused"] + 3 and after["moves"] == before["moves"] == 0
    table.press("roll")
    table.wait(800)
    deciding = table.state()
    assert deciding["wait"] == "decide"
    table.press("roll")  # a second roll: no new roll, the engine's look at the towers' mice
    looking = table.state()
    assert looking["wait"] == "look" and looking["moves"] == deciding["moves"] == 1
    table.press("back")
    again = table.state()
    assert again["wait"] == "decide" and again["offer"] == deciding["offer"]
    table.press("back")  # back at a decision means nothing: refused
    again = table.state()
    assert again["refused"] == deciding["refused"] + 1
    assert again["moves"] == deciding["moves"] == 1 and again["offer"] == deciding["offer"]
    frame = table.frame
    table.wait(10)
    assert tuple(frame[3 * PROFILE["status"]:3 * PROFILE["status"] + 3]) == (255, 0, 0)
