"""The board's cat: legal, and it chases (it catches when it can, it closes in otherwise)."""

import json
import random
from pathlib import Path

from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, TERMINAL, kitchen, kitchen_bot

RULES = json.loads((Path(__file__).resolve().parents[2] / "firmware/rules/kitchen.json")
                   .read_text())

MICE = 0  # the mice's side (the game keeps it a private constant)


def test_the_board_plays_only_the_seats_it_is_asked_to():
    assert kitchen.bot_players({"cat": "board"}) == [kitchen.CAT]
    assert kitchen.bot_players({"mice": "board"}) == [MICE]
    assert kitchen.bot_players({"cat": "board", "mice": "board"}) == [MICE, kitchen.CAT]
    assert kitchen.bot_players({"cat": "player", "mice": "player"}) == []


def test_the_cat_s_choices_are_legal_and_catch_when_a_catch_is_offered():
    rng = random.Random(1)
    bot = Rng(5)
    catches_offered = catches_made = 0
    for _ in range(30):
        s = kitchen.State(RULES, {"cat": "board"})
        while s.current_player() != TERMINAL:
            p = s.current_player()
            if p == CHANCE:
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            elif p == kitchen.CAT:
                legal = s.legal_actions()
                choice = kitchen.bot_move(s, bot)
                assert choice in legal
                prey = {s.board.ids[sq] for sq in s.mice if sq >= 0
                        and sq not in s.board.holes and not s.board.table[sq]}
                if prey & set(legal):
                    catches_offered += 1
                    catches_made += choice in prey
                s.apply_action(choice)
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
    assert catches_offered > 5 and catches_made == catches_offered


def cat_to_move(seed):
    """A random game's first cat move after the cat has taken its table square."""
    s = kitchen.State(RULES, {"cat": "board"})
    rng = random.Random(seed)
    while s.current_player() != kitchen.CAT or s.phase == "place":
        if s.current_player() == CHANCE:
            outcomes = s.chance_outcomes()
            s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return s


def steps_apart(a, b):
    """Squares a and b (ids: column letter, row number) apart, walls aside."""
    return abs(ord(a[0]) - ord(b[0])) + abs(int(a[1:]) - int(b[1:]))


def test_the_cat_closes_in_on_the_nearest_mouse():
    assert steps_apart("a1", "c4") == 5
    board = cat_to_move(0).board
    assert kitchen_bot._distance(board, board.square("a1"), board.square("c4")) == 5
    checked = 0
    for seed in range(20):
        s = cat_to_move(seed)
        legal = [a for a in s.legal_actions() if a != kitchen.STAY]
        prey = [s.board.ids[sq] for sq in s.mice
                if sq >= 0 and sq not in s.board.holes and not s.board.table[sq]]
        if not legal or not prey:
            continue
        choice = kitchen.bot_move(s, Rng(seed), "beginner")
        best = min(min(steps_apart(a, m) for m in prey) for a in legal)
        assert min(steps_apart(choice, m) for m in prey) == best
        checked += 1
    assert checked >= 10


def test_the_board_s_mice_are_legal_and_beat_random_mice_against_a_random_cat():
    def mice_wins(bot_mice):
        rng = random.Random(4)
        bot = Rng(9)
        total = 0
        for _ in range(20):
            s = kitchen.State(RULES, {"mice": "board" if bot_mice else "player"})
            while s.current_player() != TERMINAL:
                p = s.current_player()
                if p == CHANCE:
                    outcomes = s.chance_outcomes()
                    s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                legal = s.legal_actions()
                if p == MICE and bot_mice:
                    choice = kitchen.bot_move(s, bot)
                    assert choice in legal
                else:
                    choice = legal[rng.randrange(len(legal))]
                s.apply_action(choice)
            total += s.winners() == [MICE]
        return total

    assert mice_wins(True) >= mice_wins(False) + 3


def side_wins(mice, cat, games=100):
    """Games won by the mice and by the cat, each side played by the kind given."""
    from cheeseboard.lab.runner import play_one

    won = [0, 0]
    for seed in range(games):
        r = play_one(kitchen, RULES, {}, [mice, cat], seed)
        for side in r["winners"]:
            won[side] += 1
    return won


def test_each_side_of_the_board_beats_a_random_side():
    # Measured over 200 seeded games: random mice against random cat 92 to 108; the board's
    # mice (either level) win 199 or more of 200 against a random cat, its cat all 200.
    for level in ("beginner", "strong"):
        assert side_wins(level, "random", 60)[MICE] >= 55
        assert side_wins("random", level, 60)[kitchen.CAT] >= 55


def test_the_strong_level_beats_the_beginner_on_both_sides():
    # Measured over 200 seeded games against the beginner cat: beginner mice win 51, strong
    # mice 100; against beginner mice: the beginner cat wins 149, the strong cat 170.
    assert side_wins("strong", "beginner", 200)[MICE] >= \
        side_wins("beginner", "beginner", 200)[MICE] + 30
    assert side_wins("beginner", "strong", 200)[kitchen.CAT] >= \
        side_wins("beginner", "beginner", 200)[kitchen.CAT] + 10


def test_a_step_of_thinking_parses_at_most_two_square_ids():
    # A square id parsed back costs a Pico some 200 us: at an arrow the cat may stand on some 30
    # squares, and their ids parsed in one step held a tick 10 ms (the engine steps the thinking
    # a slice of a tick at a time: tests/engine/test_engine_slices.py counts the lines).
    rng = random.Random(3)
    parsed = [0]
    worst = {}
    for _ in range(40):
        s = kitchen.State(RULES, {})

        def counted(sid, what="square", square=s.board.square):
            parsed[0] += 1
            return square(sid, what)

        s.board.square = counted
        while s.current_player() != TERMINAL:
            if s.current_player() == CHANCE:
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            for level in ("strong", "beginner"):
                thinking = kitchen_bot.think(s, Rng(rng.randrange(1000)), level)
                while True:
                    parsed[0] = 0
                    try:
                        next(thinking)
                    except StopIteration:
                        break
                    finally:
                        key = (s.phase, s.side, level)
                        worst[key] = max(worst.get(key, 0), parsed[0])
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    assert ("free", kitchen.CAT, "strong") in worst and ("free", kitchen.CAT, "beginner") in worst
    assert max(worst.values()) <= 2, {k: n for k, n in worst.items() if n > 2}
