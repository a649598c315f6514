"""Kalle Kanalratte over many random legal games, on CPython and on MicroPython: invariants at
every step, the rat's place never in view() or hint(), every game ends, the same seeded game on
both VMs."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mpvm import FIRMWARE, run_mp
from seed_parts import PARTS, seed_of_part, slow_in_parts

from cheesefw.games import CHANCE, TERMINAL, kalle

RULES = json.loads((Path(__file__).resolve().parents[2] / "firmware/rules/kalle.json").read_text())
CARDS = 17


class Lcg:
    """A 30-bit linear congruential chooser: the same picks on every VM."""

    def __init__(self, seed):
        self.x = seed & 0x3FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 10) % n


def choose(s, rng):
    if s.current_player() == CHANCE:
        outcomes = s.chance_outcomes()
        return outcomes[rng.below(len(outcomes))][0]
    actions = s.legal_actions()
    return actions[rng.below(len(actions))]


def bound(s):
    """Actions a game can take at most: per round the deal, hide, place, every search and swap
    up to the search limit, the guesses and NEXT."""
    return s.rounds * (16 + 2 + 2 * RULES["search_limit"] + 5 + 1)


def with_rat_moved(s):
    """A twin of s in which only the rat lies elsewhere (under another face-down card), or None
    when the rat is not hidden on the grid."""
    rat = s.rat()
    if rat < 0 or s.phase in (kalle.SHOW, kalle.OVER):
        return None
    other = [sq for sq in range(s.grid.n) if not s.up[sq] and sq != rat]
    # A copy of every field but the table's (shared, as play never changes it): the replay of
    # the history it stands for would cost a game's length at every step.
    twin = copy.deepcopy(s, {id(s.grid): s.grid, id(s.rules_for_tests): s.rules_for_tests})
    x = other[len(s.history) % len(other)]
    twin.cards[rat], twin.cards[x] = twin.cards[x], twin.cards[rat]
    return twin


def check_invariants(s):
    g = s.grid
    n = g.n
    if s.phase not in (kalle.DEAL,):
        # The 17 gully cards: 16 on the grid, one in the starter's hand; exactly one rat.
        assert sorted(list(s.cards) + [s.hand]) == list(range(CARDS))
        assert list(s.cards).count(kalle.RAT) + (s.hand == kalle.RAT) == 1
        if s.phase != kalle.HIDE:
            assert s.hand != kalle.RAT and 0 <= s.rat() < n, "the rat is not hidden on the grid"
    if s.phase in (kalle.SEARCH, kalle.SWAP, kalle.LAST, kalle.GUESS):
        assert 0 <= s.guard < n, "the guard is off the grid"
    assert s.uncovered <= RULES["uncover"] and sum(s.up) <= RULES["uncover"] + 5
    if s.phase != kalle.SHOW and s.rat() >= 0:
        assert not s.up[s.rat()], "the rat face up while the round goes on"
    view = s.view()
    assert json.loads(json.dumps(view)) == view
    assert view["marks"] == sorted(view["marks"]) and view["pieces"] == sorted(view["pieces"])
    if s.phase != kalle.SHOW:
        assert "rat" not in json.dumps(view), "the rat's card in the view"
        assert {k for _, k in view["marks"]} <= set(s.names[1:]) | {"lid"}
    twin = with_rat_moved(s)
    if twin is not None:  # what the board shows and offers does not depend on where the rat is
        assert twin.view() == view and twin.legal_actions() == s.legal_actions()
        for a in s.legal_actions():
            assert twin.hint(a) == s.hint(a)


def check_node(s):
    player = s.current_player()
    if player == CHANCE:
        outcomes = s.chance_outcomes()
        assert s.legal_actions() == [] and outcomes
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert s.hint(outcomes[0][0])["text"] == "deal"
    elif player == TERMINAL:
        assert s.legal_actions() == [] and s.winners()
    else:
        actions = s.legal_actions()
        assert actions and len(set(actions)) == len(actions)
        for a in actions:
            hint = s.hint(a)
            assert hint["spaces"] == sorted(hint["spaces"]) and isinstance(hint["text"], str)


def play(seed, options, rules, every_step=True):
    rng = Lcg(seed)
    s = kalle.State(rules, options)
    s.rules_for_tests = rules
    rounds_scored = 0
    while not s.is_terminal():
        if every_step:
            check_invariants(s)
            check_node(s)
        phase = s.phase
        s.apply_action(choose(s, rng))
        if phase != kalle.SHOW and s.phase == kalle.SHOW and s.result in ("found", "kept"):
            rounds_scored += 1
        assert len(s.history) <= bound(s), "the game did not end within its bound"
    check_node(s)
    # Cheese handed out: one for each round in which the rat was found or the starter was right
    # (a wrong guess gives none), so never more than the rounds played.
    assert sum(s.cheese) == rounds_scored <= s.rounds == s.round
    assert s.round == s.players * rules["rounds"][str(s.players)]
    most = max(s.cheese)
    assert s.winners() == [p for p in range(s.players) if s.cheese[p] == most]
    again = kalle.State.from_dict(rules, json.loads(json.dumps(s.to_dict())))
    assert again == s
    return s


GAME = {
    "seed": st.integers(0, 2**30 - 1),
    "players": st.sampled_from([2, 3, 4, 5]),
    "last_chance": st.booleans(),
    "must_swap": st.booleans(),
}


def _game(seed, players, last_chance, must_swap, every_step):
    rules = copy.deepcopy(RULES)
    rules["house"].update(last_chance=last_chance, must_swap=must_swap)
    play(seed, {"players": players}, rules, every_step)


def one_game(seed, players, last_chance, must_swap):
    _game(seed, players, last_chance, must_swap, True)


def to_the_end(seed, players, last_chance, must_swap):
    _game(seed, players, last_chance, must_swap, False)


def hypothesis_test(examples, body):
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )(given(**GAME)(body))


test_random_games_keep_every_invariant_at_every_step = hypothesis_test(10, one_game)
test_random_games_end_with_the_cheese_handed_out = hypothesis_test(150, to_the_end)
# `make test-slow`: thousands; the every-step games in parts that run side by side.


def one_game_in_part(part, seed, players, last_chance, must_swap):
    one_game(seed_of_part(seed, part, 2**30), players, last_chance, must_swap)


test_thousands_of_games_keep_every_invariant = slow_in_parts(
    hypothesis_test(1000 // PARTS, one_game_in_part))
test_thousands_of_games_end = pytest.mark.slow(hypothesis_test(5000, to_the_end))


# -- the same on MicroPython ------------------------------------------------------------------

GAMES_ON_VM = """
import json
from cheesefw.engine.rng import Rng
from cheesefw.games import kalle, CHANCE

def game(seed, players, house, show):
    rules = json.load(open("rules/kalle.json"))
    rules["house"].update(house)
    s = kalle.State(rules, {"players": players})
    x = seed
    scored = 0
    bot = Rng(seed)  # seat 0 is the board's player, at the level the seed gives
    level = ("strong", "beginner")[seed % 2]
    while not s.is_terminal():
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        if s.current_player() == CHANCE:
            choices = [o for o, _ in s.chance_outcomes()]
        elif s.current_player() == 0:
            choices = [kalle.bot_move(s, bot, level)]
        else:
            choices = s.legal_actions()
        s.apply_action(choices[(x >> 10) % len(choices)])
        cards = sorted(list(s.cards) + [s.hand])
        assert s.phase == "deal" or cards == list(range(17)), cards
        assert s.phase in ("deal", "hide") or s.guard < 16
        if s.phase == "show" and s.history[-1] != "next" and s.result != "lost":
            scored += 1
        if len(s.history) == 60:
            s = kalle.State.from_dict(rules, json.loads(json.dumps(s.to_dict())))
        if show:
            print(s.history[-1])
    assert sum(s.cheese) == scored <= s.rounds
    print("game", seed, "cheese", s.cheese, "winners", s.winners(), "after", len(s.history))

for seed in range(SEEDS):
    game(seed * 7919 + 1, 2 + seed % 4, {"last_chance": seed % 3 == 0, "must_swap": seed % 5 == 0},
         seed < SHOWN)
"""


def run_cpython(code):
    proc = subprocess.run([sys.executable, "-c", code], cwd=str(FIRMWARE),
                          env={"PYTHONPATH": str(FIRMWARE), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=300, check=True)
    return proc.stdout


@pytest.mark.parametrize("seeds", [40, pytest.param(2000, marks=pytest.mark.slow)])
def test_the_same_seeded_games_on_micropython_and_cpython(seeds):
    code = GAMES_ON_VM.replace("SEEDS", str(seeds)).replace("SHOWN", "4")
    on_mp = run_mp(code, timeout=600)
    assert on_mp.count("game ") == seeds
    assert on_mp.splitlines() == run_cpython(code).splitlines()


FULL_GAME = """
import gc, json
from cheesefw.engine.rng import Rng
from cheesefw.games import kalle, CHANCE
rules = json.load(open(RULES))
s = kalle.State(rules, {"players": 5})
rng = Rng(3)
while not s.is_terminal():  # the board plays every seat: the bot's memory is counted too
    if s.current_player() == CHANCE:
        s.apply_action(rng.choose(s.chance_outcomes()))
    else:
        s.apply_action(kalle.bot_move(s, rng))
gc.collect()
print("over", len(s.history), sum(s.cheese), gc.mem_alloc())
"""


def test_a_whole_game_with_the_board_playing_runs_in_a_64k_heap(tmp_path):
    # Compiled with mpy-cross, as a board with a small heap gets its modules.
    from test_kitchen_mp import mpy_cross

    for name in ("__init__", "table_fields", "games/__init__", "games/kalle", "games/kalle_table",
                 "games/replayed",
                 "games/kalle_bot", "engine/__init__", "engine/rng"):
        target = tmp_path / "cheesefw" / (name + ".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        source = FIRMWARE / "cheesefw" / (name + ".py")
        subprocess.run([mpy_cross(), "-o", str(target), str(source)], check=True)
    code = FULL_GAME.replace("RULES", repr(str(FIRMWARE / "rules" / "kalle.json")))
    words = run_mp(code, heap=64 * 1024, cwd=tmp_path, path=[tmp_path]).split()
    print(" ".join(words))
    assert words[0] == "over" and int(words[1]) > 5 * 17 and int(words[2]) <= 5
    assert int(words[3]) < 48 * 1024  # what is left alive at the end, modules included
