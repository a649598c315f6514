"""The kitchen game over many random legal games (hypothesis): invariants at every step."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seed_parts import PARTS, seed_of_part, slow_in_parts

from cheesefw.games import CHANCE, TERMINAL, kitchen

RULES = json.loads(
    (Path(__file__).resolve().parents[2] / "firmware/rules/kitchen.json").read_text()
)
LIMIT = RULES["win"]["turn_limit"]
# Deal + cat + per turn at most roll, pick, move, second roll, move; one more per tile action.
MAX_ACTIONS = 38 + 1 + 5 * LIMIT + 38
SHOWN = kitchen.SHOWN
VIEW_KINDS = {"tile", "cheese", "hole-open", "hole-closed", "table", "table-tile"}
WRONG = ["a0", "g1", "A1", "", "stay", "pass", 0, 5, 7, True, None, 1.0, ("a1",), ["a1"], "cheese"]

MICE = 0  # the mice's side (the game keeps it a private constant)


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
        weights = [max(1, round(p * 60)) for _, p in outcomes]
        r = rng.below(sum(weights))
        for (outcome, _), w in zip(outcomes, weights, strict=True):
            if r < w:
                return outcome
            r -= w
    actions = s.legal_actions()
    return actions[rng.below(len(actions))]


def check_invariants(s, rules):
    b = s.board
    d = s.to_dict()
    live = [m for m in s.mice if m >= 0]
    assert len(set(live)) == len(live), "two mice on one square (and so in one hole)"
    if s.cat >= 0:
        if not rules["house"].get("cat_in_holes"):
            assert s.cat not in b.holes, "the cat in a hole"
        assert s.cat not in live or b.table[s.cat], "cat and mouse share a square off the table"
    for m in range(4):
        if not s.out[m]:
            assert s.mice[m] == b.holes[m], "a mouse still in has left its hole"
    shown = [sq for sq in range(b.n) if s.tiles[sq] == SHOWN]
    assert not [sq for sq in shown if b.table[sq]], "a visible cheese under the table"
    if s.phase != "deal":
        cheese_left = sum(1 for t in s.tiles if t in ("cheese", SHOWN))
        assert s.cheese + cheese_left == RULES["deck"]["cheese"], "a cheese lost or made"
    assert all(s.tiles[h] is None for h in b.holes)
    # The view never shows what a face-down tile is.
    view = s.view()
    assert view["marks"] == sorted(view["marks"]) and view["pieces"] == sorted(view["pieces"])
    assert {k for _, k in view["marks"]} <= VIEW_KINDS
    for sid, kind in view["marks"]:
        tile = s.tiles[b.square(sid)]
        if tile and tile != SHOWN:
            assert kind in ("tile", "table-tile")
    assert json.loads(json.dumps(view)) == view
    # to_dict is plain data and from_dict rebuilds the same state (== compares the two
    # states' to_dict: play() checks it once a game, as each to_dict decodes the history).
    again = kitchen.State.from_dict(rules, json.loads(json.dumps(d)))
    assert again.to_dict() == d
    return d


def check_node(s):
    player = s.current_player()
    if player == CHANCE:
        outcomes = s.chance_outcomes()
        assert s.legal_actions() == [] and outcomes
        assert [o for o, _ in outcomes] == sorted({o for o, _ in outcomes})
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    elif player == TERMINAL:
        assert s.legal_actions() == [] and s.chance_outcomes() == [] and len(s.winners()) == 1
    else:
        actions = s.legal_actions()
        assert actions and actions == sorted(set(actions)) and s.chance_outcomes() == []
        for a in actions:
            hint = s.hint(a)
            assert hint["spaces"] == sorted(hint["spaces"]) and isinstance(hint["text"], str)
            assert s.action_player(a) == player


def check_illegal(s, d, rng):
    legal = s.legal_actions() or [o for o, _ in s.chance_outcomes()]
    wrong = [w for w in WRONG if not [a for a in legal if type(a) is type(w) and a == w]]
    w = wrong[rng.below(len(wrong))]
    try:
        s.apply_action(w)
    except ValueError:
        pass
    else:
        raise AssertionError("illegal action %r was applied" % (w,))
    assert s.to_dict() == d, "a refused action changed the state"


def play(seed, options, rules):
    rng = Lcg(seed)
    s = kitchen.State(rules, options)
    before = None
    while True:
        d = check_invariants(s, rules)
        check_node(s)
        if before is not None:
            assert s.cheese >= before["cheese"] and s.mice.count(-1) >= before["caught"]
        before = {"cheese": s.cheese, "caught": s.mice.count(-1)}
        if s.is_terminal():
            break
        check_illegal(s, d, rng)
        cat_moving = s.current_player() == kitchen.CAT and s.phase != "place"
        under_table = [s.tiles[sq] for sq in range(s.board.n) if s.board.table[sq]]
        s.apply_action(choose(s, rng))
        if cat_moving:  # the cat walks on the table, never under it: it turns no tile there
            assert under_table == [s.tiles[sq] for sq in range(s.board.n) if s.board.table[sq]]
        assert len(s.history) <= MAX_ACTIONS, "the game did not end within its bound"
    assert s.turns <= LIMIT
    # The whole game is determined by its actions: replaying them gives the same state.
    replay = kitchen.State(rules, options)
    for a in s.history:
        replay.apply_action(a)
    assert replay.to_dict() == s.to_dict()
    again = kitchen.State.from_dict(rules, json.loads(json.dumps(s.to_dict())))
    assert again == s and replay == s
    return s


HOUSE = st.fixed_dictionaries(
    {
        "catch_under_table": st.booleans(),
        "arrow_turns_tile": st.booleans(),
        "revisit": st.booleans(),
        "cat_in_holes": st.booleans(),
        "catch_in_front_of_hole": st.booleans(),
    }
)
GAME = {"seed": st.integers(0, 2**30 - 1), "short": st.booleans(), "house": HOUSE}


def every_step(seed, short, house):
    rules = copy.deepcopy(RULES)
    rules["house"].update(house)
    play(seed, {"short_game": short}, rules)


def to_the_end(seed, short, house):
    rules = copy.deepcopy(RULES)
    rules["house"].update(house)
    rng = Lcg(seed)
    s = kitchen.State(rules, {"short_game": short})
    while not s.is_terminal():
        s.apply_action(choose(s, rng))
        assert len(s.history) <= MAX_ACTIONS
    assert s.winners() in ([MICE], [kitchen.CAT]) and s.turns <= LIMIT
    live = [m for m in s.mice if m >= 0]
    assert len(set(live)) == len(live)
    if s.winners() == [MICE]:
        assert s.cheese >= s.goal and all(s.out) and s.home
    elif s.turns < LIMIT:
        assert not live  # the cat wins before the limit only by catching all four


def hypothesis_test(examples, body):
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )(given(**GAME)(body))


# The default run: a few dozen games checked at every step, some hundreds played to the end.
test_random_games_keep_every_invariant_at_every_step = hypothesis_test(25, every_step)
test_random_games_end_with_one_winner_within_the_bound = hypothesis_test(300, to_the_end)
# `make test-slow`: thousands of each; the every-step games in parts that run side by side.


def every_step_in_part(part, seed, short, house):
    every_step(seed_of_part(seed, part, 2**30), short, house)


test_thousands_of_games_keep_every_invariant = slow_in_parts(
    hypothesis_test(2000 // PARTS, every_step_in_part))
test_thousands_of_games_end_within_the_bound = pytest.mark.slow(hypothesis_test(5000, to_the_end))
