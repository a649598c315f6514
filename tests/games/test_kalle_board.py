"""Kalle Kanalratte on the board: the engine with buttons only, what the LEDs and the log show
(never where the rat is), a power cut mid-round, and the board's own players."""

import json
import random

import pytest
from engine_driver import PROFILE, ROOT, CpuTable, MemoryBoard, choose_options

from cheesefw.engine.draw import BLINK_MS, Painter
from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, kalle

RULES = json.loads((ROOT / "firmware/rules/kalle.json").read_text())
MAP = PROFILE["maps"]["kalle"]
WHITE = (255, 255, 255)


def px(frame, i):
    return tuple(frame[3 * i:3 * i + 3])


def pick_some(seed):
    rng = random.Random(seed)
    return lambda s: rng.randrange(min(s["choices"], 5))


def secret_moves(state):
    """History indices of the deals and the rat's hiding, replayed on a fresh state."""
    s = kalle.State(RULES, state.options)
    out = []
    for i, a in enumerate(state.history):
        if s.current_player() == CHANCE or s.is_secret():
            out.append(i)
        s.apply_action(a)
    return out


def full_log(engine):
    total = engine.log(0)["total"]
    return [m for start in range(0, total, 20) for m in engine.log(start)["moves"]]


def test_a_whole_3_player_game_with_buttons_and_the_log_keeps_the_secret():
    table = CpuTable(MemoryBoard(seed=5))
    choose_options(table, "kalle", {"players": 3})
    assert table.state()["game"] == "kalle" and table.state()["wait"] == "decide"
    pick = pick_some(5)
    seen_hides = 0
    for _ in range(5000):  # a game, checking the log at every step of it
        s = table.state()
        if s["wait"] == "over":
            break
        state = table.engine.scene.state
        log = full_log(table.engine)
        for i in secret_moves(state):
            assert log[i] == "?"
        hidden = secret_moves(state)
        assert [m for m in log if m != "?"] == [a for i, a in enumerate(state.history)
                                               if i not in hidden]
        if state.phase == kalle.HIDE:
            seen_hides += 1
        for _ in range(pick(s)):
            table.press("next")
        table.press("ok")
    over = table.state()
    assert over["wait"] == "over" and over["winners"] and seen_hides >= 6
    assert sum(over["status"]["cheese"]) <= 6
    history = table.engine.scene.state.history
    assert full_log(table.engine) == list(history)  # over: everything may be seen


def test_the_board_is_dark_while_the_rat_hides_but_for_the_starters_cursor():
    table = CpuTable(MemoryBoard(seed=2))
    choose_options(table, "kalle", {"players": 2})
    cards = [p for sid in sorted(MAP) for p in MAP[sid]]
    table.press("next")
    table.press("next")  # the cursor on a3
    seen = []
    for _ in range(2):  # one blink period: the cursor on, then off; nothing else shows
        table.wait(BLINK_MS)
        seen.append([p for p in cards if any(px(table.frame, p))])
    assert sorted(seen) == [[], MAP["a3"]]
    assert table.state()["offer"] == "a3"
    table.press("ok")  # hidden: the guard is placed next
    table.wait(BLINK_MS)
    assert table.state()["wait"] == "decide" and table.engine.scene.state.phase == kalle.PLACE
    table.wait(0)
    lids = [px(table.frame, MAP[sid][0]) for sid in sorted(MAP)]
    lid = tuple(RULES["palette"]["lid"])
    assert lids.count(lid) >= 15  # every card a lid (one may blink as the cursor)


def test_the_guard_blinks_and_face_up_animals_show_their_colours():
    s = kalle.State(RULES, {"players": 2})
    while s.current_player() == CHANCE:
        s.apply_action(s.chance_outcomes()[0][0])
    for a in ("a1", "c3", "d4"):
        s.apply_action(a)
    painter = Painter(PROFILE, "kalle", RULES["palette"])
    on, off = bytearray(3 * 64), bytearray(3 * 64)
    painter.paint(on, s.view(), 0, 2)
    painter.paint(off, s.view(), BLINK_MS, 2)
    guard = MAP["d4"][0]
    assert px(on, guard) == tuple(RULES["palette"]["guard"])
    assert px(off, guard) == tuple(RULES["palette"]["newt"])  # the animal under the guard
    assert px(on, MAP["a1"][0]) == px(off, MAP["a1"][0]) == tuple(RULES["palette"]["lid"])
    assert px(on, PROFILE["meter"][0]) == tuple(RULES["palette"]["meter"])  # 1 of 8 turned


def test_the_animals_colours_can_be_told_apart():
    # 16 animals in 8 clearly different colours, two animals a colour (docs/rules.md: only
    # whether a face-up card is the rat matters); the rat, the lid and the guard stand apart.
    palette = RULES["palette"]
    animals = RULES["cards"]["animals"]
    colours = {tuple(palette[a]) for a in animals}
    assert len(colours) == 8
    special = [tuple(palette[k]) for k in ("rat", "lid", "guard")]
    assert not colours & set(special) and len(set(special)) == 3
    for a in colours:
        for b in colours - {a}:
            assert max(abs(x - y) for x, y in zip(a, b, strict=True)) >= 90


def test_a_button_that_is_not_the_starters_during_the_hiding_is_refused():
    table = CpuTable(MemoryBoard(seed=3))
    choose_options(table, "kalle", {"players": 3})
    before = table.state()
    table.press("roll")
    after = table.state()
    assert after["refused"] == before["refused"] + 1 and after["moves"] == before["moves"]


def test_a_power_cut_mid_round_resumes_with_the_rat_where_it_was():
    board = MemoryBoard(seed=9)
    table = CpuTable(board)
    choose_options(table, "kalle", {"players": 3})
    pick = pick_some(9)
    checked = 0
    for _ in range(400):
        s = table.state()
        if s["wait"] == "over":
            break
        for _ in range(pick(s)):
            table.press("next")
        table.press("ok")
        state = table.engine.scene.state
        if state.phase in (kalle.SEARCH, kalle.SWAP) and state.uncovered:
            resumed = CpuTable(MemoryBoard(dict(board.files), seed=1)).engine.scene.state
            assert resumed.rat() == state.rat() and resumed.to_dict() == state.to_dict()
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("level", ["strong", "beginner"])
def test_the_board_players_play_only_legal_moves(level):
    for seed in range(40):
        rng = Rng(seed)
        s = kalle.State(RULES, {"players": 2 + seed % 4})
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply_action(rng.choose(s.chance_outcomes()))
            else:
                a = kalle.bot_move(s, rng, level)
                assert a in s.legal_actions()
                s.apply_action(a)


def _cheese_of_seat_0(level, games=60):
    total = 0
    for seed in range(games):
        rng = Rng(seed)
        s = kalle.State(RULES, {"players": 3})
        while not s.is_terminal():
            p = s.current_player()
            if p == CHANCE:
                s.apply_action(rng.choose(s.chance_outcomes()))
            elif p == 0 and level:
                s.apply_action(kalle.bot_move(s, rng, level))
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.below(len(legal))])
        total += s.cheese[0]
    return total


def test_the_board_players_beat_random_play():
    random_seat = _cheese_of_seat_0(None)
    assert _cheese_of_seat_0("beginner") > random_seat * 1.5
    assert _cheese_of_seat_0("strong") > random_seat * 2


def test_the_searcher_never_looks_where_the_rat_is():
    # The same public position with the rat under another lid: the same choice.
    for seed in range(30):
        rng = Rng(seed)
        s = kalle.State(RULES, {"players": 3})
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply_action(rng.choose(s.chance_outcomes()))
                continue
            if s.phase in (kalle.SEARCH, kalle.PLACE, kalle.LAST) and s.rat() >= 0:
                twin = kalle.State.from_dict(RULES, s.to_dict())
                rat = twin.rat()
                other = [sq for sq in range(16) if not twin.up[sq] and sq != rat][seed % 5]
                twin.cards[rat], twin.cards[other] = twin.cards[other], twin.cards[rat]
                a, b = Rng(seed), Rng(seed)
                assert kalle.bot_move(s, a) == kalle.bot_move(twin, b)
            s.apply_action(kalle.bot_move(s, rng))


def test_the_board_plays_a_seat_with_the_engine():
    table = CpuTable(MemoryBoard(seed=4))
    choose_options(table, "kalle", {"players": 2, "seat1": "board"})
    bot_turns = 0
    pick = pick_some(4)
    for _ in range(3000):
        s = table.state()
        if s["wait"] == "over":
            break
        if s["wait"] == "bot":
            assert s["turn"] == 1
            bot_turns += 1
            table.wait(900)
        else:
            assert s["turn"] == 0
            for _ in range(pick(s)):
                table.press("next")
            table.press("ok")
    assert table.state()["wait"] == "over" and bot_turns > 10
    log = full_log(table.engine)
    assert "?" not in log  # over: the hiding may be seen now


def test_packed_maps_unpack_to_the_profiles_maps_and_the_painter_reads_them():
    # The board keeps every game's map packed (profile_file.pack_maps), so that a game's
    # overlay costs the others' play little heap; the painter and the menu read them as the
    # dicts they were.
    from cheesefw import profile_file
    from cheesefw.engine.draw import PackedMap

    profile = json.loads(json.dumps(PROFILE))
    for game in profile["maps"]:
        for space in profile["maps"][game]:
            profile["maps"][game][space] = bytes(profile["maps"][game][space])
    plain = {g: dict(m) for g, m in profile["maps"].items()}
    profile_file.pack_maps(profile)
    for game in plain:
        packed = profile["maps"][game]
        assert type(packed) is PackedMap
        assert sorted(p for px in packed.values() for p in px) == sorted(
            p for px in plain[game].values() for p in px)
        assert packed.unpack() == plain[game]
    painter = Painter(profile, "kalle", RULES["palette"])
    assert painter.map is profile["maps"]["kalle"]  # walked packed, as the profile has it
    assert {s: painter.pixels_of(s) for s in painter.map.ids()} == plain["kalle"]
    assert painter.pixels_of("no such space") == ()
