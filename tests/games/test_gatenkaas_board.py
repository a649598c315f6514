"""Gatenkaas on the board: whole games by buttons (CPython engine with its clock), the hand
shown only while its player holds roll, the ghost of the card on offer, the counters, a
power cut, the log. The same on the MicroPython virtual board is in test_vboard_games.py."""

import json
import random

from engine_driver import CpuTable, MemoryBoard, choose_options, load_profile, play_with_buttons

from cheesefw.engine.draw import Painter

PICO16 = load_profile("pico16")


def table(seed=3):
    return CpuTable(MemoryBoard(seed=seed, profile=PICO16))


def test_a_whole_3_player_game_with_buttons_only():
    t = table()
    choose_options(t, "gatenkaas", {"players": 3})
    rng = random.Random(1)
    presses = play_with_buttons(t, lambda s: rng.randrange(min(s["choices"], 40)))
    over = t.state()
    assert over["wait"] == "over" and over["winners"] and presses > 28
    assert over["status"]["pile"] == 0 and over["status"]["hands"] == [0, 0, 0]
    points = over["status"]["points"]
    assert max(points) == points[over["winners"][0]]


def test_the_hand_shows_only_while_its_player_holds_roll():
    t = table()
    choose_options(t, "gatenkaas", {"players": 3})
    s = t.state()
    assert s["wait"] == "decide" and s["private"] is True and "offer" not in s

    def frame_at_blink_on():
        t.wait(500 - t.board.now % 500)
        return bytes(t.frame)

    hidden = frame_at_blink_on()
    t.press("next")
    assert t.state()["refused"] == 1  # nobody sees the choice: refused
    assert frame_at_blink_on() == hidden
    t.hold("roll")
    s = t.state()
    assert s["private"] is False and s["offer"] and s["choices"] > 1
    assert frame_at_blink_on() != hidden  # the ghost of the card on offer
    t.release("roll")
    assert "offer" not in t.state() and frame_at_blink_on() == hidden


def test_open_hands_need_no_button():
    t = table()
    choose_options(t, "gatenkaas", {"players": 2, "hands": "open"})
    s = t.state()
    assert "private" not in s and s["offer"]


def test_the_ghost_shows_the_card_on_offer_over_the_table():
    from cheesefw.games import gatenkaas

    rules = json.loads(MemoryBoard().read_file("rules/gatenkaas.json"))
    s = gatenkaas.State(rules, {"players": 2})
    for c in (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 1):  # seat 1 holds 6, 8, .. and starts
        s.apply_action(c)
    a = gatenkaas.placement(6, 6, 5, 0, 16)  # "o.y / ..o" on the start card
    hint = s.hint(a)
    assert hint["ghost"] == sorted([["g6", "ghost-hole"], ["h6", "ghost"], ["i6", "2"],
                                    ["g7", "ghost"], ["h7", "ghost"], ["i7", "ghost-hole"]])
    painter = Painter(PICO16, "gatenkaas", rules["palette"])
    frame = bytearray(3 * 256)

    def rgb(space):
        i = 3 * PICO16["maps"]["gatenkaas"][space][0]
        return list(frame[i:i + 3])

    pal = rules["palette"]
    # The card stays up 750 ms of each second, long enough to read as a card, not a flicker
    for now in (0, 250, 500, 1000):
        painter.paint(frame, s.view(), now, 2, hint)
        assert (rgb("i6"), rgb("h6"), rgb("g6")) == (pal["2"], pal["ghost"], pal["ghost-hole"])
    painter.paint(frame, s.view(), 750, 2, hint)  # the last quarter: the table beneath
    assert rgb("g6") == pal["0"] and rgb("i6") == pal["1"]


def test_the_die_pixels_tell_which_hand_card_is_on_offer():
    # Cards 16 (".o. / p.o") and 24 ("o.p / .o.") are alike but for a half turn: laid on the
    # same cells they give the same ghost, so only the die pixels tell the two choices apart.
    from cheesefw.games import gatenkaas

    rules = json.loads(MemoryBoard().read_file("rules/gatenkaas.json"))
    s = gatenkaas.State(rules, {"players": 2})
    for c in (5, 16, 7, 24, 9, 10, 11, 12, 13, 14, 1):  # seat 1 holds 10, 12, 14, 16, 24
        s.apply_action(c)
    assert s.hand(1) == [10, 12, 14, 16, 24]
    ghosts = {repr(s.hint(a)["ghost"]): a for a in s.legal_actions() if a >> 10 == 24}
    alike = [(a, ghosts[repr(s.hint(a)["ghost"])]) for a in s.legal_actions()
             if a >> 10 == 16 and repr(s.hint(a)["ghost"]) in ghosts]
    assert alike
    painter = Painter(PICO16, "gatenkaas", rules["palette"])
    grey = rules["palette"]["ghost"]
    die = PICO16["die"]

    def pips(hint):
        frame = bytearray(3 * 256)
        painter.paint(frame, s.view(), 0, 2, hint)
        lit = [list(frame[3 * p:3 * p + 3]) for p in die]
        assert set(map(tuple, lit)) <= {tuple(grey), (0, 0, 0)}
        return sum(rgb == grey for rgb in lit)

    a, b = alike[0]
    assert (pips(s.hint(a)), pips(s.hint(b))) == (4, 5)
    assert pips(s.hint(s.legal_actions()[0])) == 1  # card 10, the first of the hand


def test_cheese_tallies_and_the_pile_meter():
    from cheesefw.games import gatenkaas

    rules = json.loads(MemoryBoard().read_file("rules/gatenkaas.json"))
    s = gatenkaas.State(rules, {"players": 2})
    for c in (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 1):  # seat 1 holds 6, 8, .. and starts
        s.apply_action(c)
    s.cheese = [3, 10]
    marks = dict(s.view()["marks"])
    assert [marks.get("t0" + k) for k in "abcd"] == ["0", "0", "0", None]
    assert [marks.get("t1" + k) for k in "abch"] == ["lap", "lap", "1", "1"]  # 10 = 8 + 2
    assert s.view()["status"]["meter"] == [18, 29]


def test_a_power_cut_resumes_at_the_last_move_and_the_log_hides_the_deal():
    board = MemoryBoard(seed=5, profile=PICO16)
    t = CpuTable(board)
    choose_options(t, "gatenkaas", {"players": 3})
    for _ in range(4):
        t.hold("roll")
        t.press("next")
        t.press("ok")
        t.release("roll")
    before = t.state()
    log = t.engine.log(0)
    assert log["moves"][:15] == ["?"] * 15  # the deal: hidden until the game is over
    again = CpuTable(MemoryBoard(files=board.files, seed=5, profile=PICO16))
    after = again.state()
    assert after["mode"] == "play" and after["moves"] == before["moves"] > 20
    assert after["status"] == before["status"]
    assert again.engine.log(0) == log


def test_a_long_press_of_next_jumps_to_the_next_cards_placements():
    t = table()
    choose_options(t, "gatenkaas", {"players": 2, "hands": "open"})
    scene = t.engine.scene
    cards = sorted({a >> 10 for a in scene.choices})
    assert len(cards) >= 2 and scene.choices[scene.cursor] >> 10 == cards[0]
    t.press("next")  # a long press begins as a press
    t.board.now += 800
    t.engine.on_button("next", "long", t.board.now)
    assert scene.choices[scene.cursor] >> 10 == cards[1]
    first = [a for a in scene.choices if a >> 10 == cards[1]][0]
    assert scene.choices[scene.cursor] == first
    for _ in cards[2:]:  # on through the other cards, then round to the first card's first
        t.engine.on_button("next", "long", t.board.now)
    t.engine.on_button("next", "long", t.board.now)
    assert scene.choices[scene.cursor] == scene.choices[0]


def test_the_board_plays_every_seat_it_is_given_to_the_end():
    t = table(seed=8)  # both seats the board's, as the menu's seat step gives them
    choose_options(t, "gatenkaas", {"players": 2, "seat0": "board", "seat1": "board"})
    for _ in range(200):
        if t.state()["wait"] == "over":
            break
        assert t.state()["wait"] == "bot"
        t.wait(900)
    over = t.state()
    assert over["wait"] == "over" and over["status"]["hands"] == [0, 0]
