"""Property tests of the Gouda race: thousands of random legal games on CPython (hypothesis).

Each game is drawn from a seed and options; at every step the invariants are checked: no mouse is
lost or duplicated, legal lists are sorted, an illegal action raises ValueError and changes
nothing, to_dict/from_dict round-trips (through JSON) to an equal state, and the game ends within
a bound.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seed_parts import PARTS, seed_of_part, slow_in_parts
from test_gouda_rules import MICE, RULES

from cheesefw.games import CHANCE, PASS, REACTION, TERMINAL, as_action, gouda
from cheesefw.games.gouda_powers import DEAL, PLACE

BOUND = 20000  # actions; random games average about 1000, the longest seen about 2500
OPTIONS = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "placement": st.sampled_from(["together", "each"]),
        "powers": st.booleans(),
        "markers": st.sampled_from([3, 4, 5, "series"]),
        "festival": st.booleans(),
        "extra_cheese": st.booleans(),
    }
)
ODD = ["bogus", ("go",), ("go", "nowhere"), ("move", True, "m1"), ("dice", 9, 0, 0), (), 3, None]


def choose(state, rng):
    """A random legal action (chance outcomes by their probabilities; windows mostly pass)."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
    legal = state.legal_actions()
    if legal[0] == PASS and rng.random() < 0.6:
        return PASS
    return rng.choice(legal)


def mice_per_player(state):
    d = state.to_dict()
    n = state.n
    return [sum(d["mice"][p::n]) + d["gone"][p] for p in range(n)]


def check_step(state, rng, all_actions):
    """Every invariant of one position; returns the position's to_dict()."""
    d = state.to_dict()
    n = state.n
    player = state.current_player()
    legal = state.legal_actions()
    # Mice: all placed ones are on the board or ate a festival cheese; none appears twice.
    placed = sum(mice_per_player(state))
    if d["phase"] == DEAL:
        assert placed == 0
    elif d["phase"] == PLACE:
        per = 1 if state.options["placement"] == "each" else MICE  # mice per placement
        assert placed == d["setup_count"] * per < n * MICE
    else:
        assert placed == n * MICE
    assert len(state.view()["pieces"]) == sum(d["mice"])
    # Legal lists: sorted, PASS first in a window; empty exactly at chance and the end.
    if player in (CHANCE, TERMINAL):
        assert legal == []
    else:
        assert legal
        plays = legal[1:] if player == REACTION else legal
        assert plays == sorted(plays) and len(set(plays)) == len(plays)
        assert (legal[0] == PASS) == (player == REACTION)
        for a in legal:
            who = state.action_player(a)
            assert who == (REACTION if a == PASS else (a[1] if player == REACTION else player))
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert [o for o, _ in outcomes] == sorted(o for o, _ in outcomes)
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        ok = [o for o, _ in outcomes]
    else:
        ok = legal
    # Illegal actions: ValueError, state unchanged.
    for a in rng.sample(all_actions, 3) + [rng.choice(ODD)]:
        if a in ok:
            continue
        with pytest.raises(ValueError):
            state.apply_action(a)
    assert state.to_dict() == d
    # The round trip, through JSON as the journal stores it.
    back = gouda.State.from_dict(RULES, json.loads(json.dumps(d)))
    assert back.to_dict() == d and back.legal_actions() == legal
    return d


def play(seed, options, full=True):
    rng = random.Random(seed)
    state = gouda.State(RULES, options)
    all_actions = [state.board.decode(c) for c in range(state.board.c_undo + 1)]
    applied = []
    while not state.is_terminal():
        assert len(applied) < BOUND
        if full:
            check_step(state, rng, all_actions)
        a = choose(state, rng)
        if rng.random() < 0.05 and type(a) is tuple:
            a = json.loads(json.dumps(a))  # as the journal gives it back: a list
        state.apply_action(a)
        applied.append(as_action(a))
    return state, applied


def check_end(state, applied):
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.history == applied
    ranking = state.ranking()
    assert sorted(ranking) == list(range(state.n))
    assert state.winners() == ranking[:1] and state.scores()[ranking[0]] > 0
    assert mice_per_player(state) == [MICE] * state.n
    assert state.view()["turn"] == TERMINAL


def games(examples):
    """The hypothesis settings for `examples` random games of any options."""
    return lambda test: settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )(given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)(test))


def every_step(seed, options):
    state, applied = play(seed, options, full=True)
    check_end(state, applied)


def to_the_end(seed, options):
    state, applied = play(seed, options, full=False)
    check_end(state, applied)
    back = gouda.State.from_dict(RULES, json.loads(json.dumps(state.to_dict())))
    assert back == state and back.history == applied


# The default run: dozens of games checked at every step, hundreds played to the end.
test_random_games_keep_every_invariant_at_every_step = games(40)(every_step)
test_random_games_end_within_the_bound = games(400)(to_the_end)
# `make test-slow`: thousands; the every-step games in parts that run side by side.


def every_step_in_part(part, seed, options):
    every_step(seed_of_part(seed, part, 2**32), options)


test_hundreds_of_games_keep_every_invariant = slow_in_parts(games(300 // PARTS)(every_step_in_part))
test_thousands_of_games_end_within_the_bound = pytest.mark.slow(games(3000)(to_the_end))
