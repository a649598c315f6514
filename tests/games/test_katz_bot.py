"""The board's player in Alles für die Katz: legal moves only, the rulebook's tips, and it
beats a random player clearly over many seeded games."""

import json
from pathlib import Path

import pytest

from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, katz, katz_bot

RULES = json.loads((Path(__file__).resolve().parents[2] / "firmware/rules/katz.json").read_text())


def lands_in_empty_can(s, action):
    dest = s.track.place(action[0]) + action[1]
    return dest <= s.track.n and s.track.trap[dest] and not s.tower(dest)


def play(seed, levels, checks=None):
    """A seeded game; levels[seat] is "random" or a bot level. Returns the final state."""
    rng = Rng(seed)
    s = katz.State(RULES, {"players": len(levels)})
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply_action(rng.choose(s.chance_outcomes()))
            continue
        legal = s.legal_actions()
        level = levels[s.turn]
        a = legal[rng.below(len(legal))] if level == "random" else katz.bot_move(s, rng, level)
        if checks is not None and level != "random":
            checks(s, legal, a)
        s.apply_action(a)
    return s


def win_rate(players, level, games, against="random"):
    wins = 0
    for seed in range(games):
        seat = seed % players
        levels = [against] * players
        levels[seat] = level
        wins += seat in play(seed, levels).winners()
    return wins / games


def test_only_legal_moves_and_never_into_an_empty_can_when_it_can_step_round():
    seen = {"forced": 0, "avoided": 0}

    def checks(s, legal, a):
        assert a in legal
        safe = [b for b in legal if not lands_in_empty_can(s, b)]
        if safe:
            assert a in safe  # "...musst nicht in eine Falle ziehen"; the clover steps round
            seen["avoided"] += len(safe) < len(legal)
        else:
            seen["forced"] += 1

    for seed in range(40):
        play(seed, ["strong", "beginner", "random"][: 2 + seed % 2] + ["strong"], checks)
    assert seen["avoided"] > 50 and seen["forced"] > 0


def test_the_strong_player_beats_random_players_clearly():
    assert win_rate(2, "strong", 60) > 0.8  # a fair share is 0.5
    assert win_rate(3, "strong", 60) > 0.6  # 0.33
    assert win_rate(3, "beginner", 45) > 0.5


def test_the_strong_player_beats_the_beginner():
    assert win_rate(2, "strong", 80, against="beginner") > 0.6


@pytest.mark.slow
def test_over_many_games():
    assert win_rate(2, "strong", 600) > 0.85
    assert win_rate(4, "strong", 600) > 0.55  # 0.25
    assert win_rate(2, "strong", 600, against="beginner") > 0.65


def position(mice, turn=0, roll=1, players=2):
    s = katz.State(RULES, {"players": players})
    for i, (place, level) in mice.items():
        s.place[i], s.level[i] = place, level
    s.turn, s.phase, s.roll = turn, katz.MOVE, roll
    return s


def test_it_leaves_the_next_player_exactly_one_free_mouse():
    # Player 1: mice 4 and 5 on f10 and f20, 6 and 7 home. Covering f10 leaves them one.
    s = position({0: (8, 0), 1: (15, 0), 2: (30, 0), 3: (30, 0), 4: (10, 0), 5: (20, 0),
                  6: (30, 0), 7: (30, 0)}, roll=2)
    assert katz.bot_move(s, Rng(1)) == ("f08", 2)


def test_a_covered_mouse_counts_no_danger():
    # "Eine blockierte Maus kann nicht in eine Falle laufen": on f07 the cans f08 and f12 are
    # within a roll; under another mouse they are no danger to it.
    free = position({0: (7, 0), 1: (30, 0), 2: (30, 0), 3: (30, 0)})
    assert katz_bot.danger(free, 0) == 2 * katz_bot._DANGER
    covered = position({0: (7, 0), 4: (7, 1), 1: (30, 0), 2: (30, 0), 3: (30, 0)})
    assert katz_bot.danger(covered, 0) == 0


def test_it_races_to_the_hole_once_the_cans_ahead_are_full():
    # "Brich möglichst spät zum Mauseloch auf. Je mehr Dosen schon eine Maus enthalten, desto
    # sicherer ist die Strecke." Mice on f02 and f17, a 4: with the cans f23 and f26 empty the
    # board moves the mouse behind; once both hold a mouse it sends the front one on.
    empty = position({0: (17, 0), 1: (2, 0), 2: (30, 0), 3: (30, 0)}, roll=4)
    assert katz.bot_move(empty, Rng(2)) == ("f02", 4)
    full = position({0: (17, 0), 1: (2, 0), 2: (30, 0), 3: (30, 0), 4: (23, 0), 5: (26, 0)},
                    roll=4)
    full.trapped[4] = full.trapped[5] = 1
    assert katz.bot_move(full, Rng(2)) == ("f17", 4)


def test_the_same_seed_replays_the_same_choices():
    a = play(5, ["strong", "beginner", "strong"])
    b = play(5, ["strong", "beginner", "strong"])
    assert list(a.history) == list(b.history)


def test_the_positions_it_weighs_do_not_read_the_options_again(monkeypatch):
    """Each move it weighs is a copy of the state (after_move) with the game's options as
    read: reading them again imports the table reader anew on a board (25 ms a copy on a
    Pico), dozens of times a decision."""
    from cheesefw import table_fields

    rng = Rng(3)
    s = katz.State(RULES, {"players": 4})
    s.apply_action(rng.choose(s.chance_outcomes()))

    def read_again(*args):
        raise AssertionError("the options read again")

    monkeypatch.setattr(table_fields, "choose_options", read_again)
    assert katz.bot_move(s, rng, "strong") in s.legal_actions()
    assert s.after_move(s.legal_actions()[0]).options is s.options
