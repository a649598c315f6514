"""The board's players think in slices of a tick: a long decision spreads over many ticks, is
the same decision as when thought through at once, and a person who takes a reaction window
meanwhile stops it.

The clock here moves one millisecond each time it is read, so a slice is THINK_MS steps of the
board player's generator, whatever this machine's speed (the benchmark times the steps on
MicroPython: tests/bench/bench_lab.py).
"""

import copy
import itertools
import json
from pathlib import Path

from test_led_language import PROFILE_OF, Journal

from cheesefw import render
from cheesefw.engine import play
from cheesefw.engine.draw import Painter
from cheesefw.games import (
    CHANCE,
    PASS,
    REACTION,
    decide,
    gatenkaas,
    gatenkaas_bot,
    gouda,
    kalle,
    katz,
)

ROOT = Path(__file__).resolve().parents[2]


class ReadClock:
    """A board's clock that moves 1 ms each time it is read."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        self.now += 1
        return self.now

    def ticks_diff(self, a, b):
        return a - b


def table(game):
    return json.loads((ROOT / "firmware" / "rules" / (game + ".json")).read_text())


def make_play(module, options, seats, clock, seed=3, journal=None):
    rules = table(module.NAME)
    painter = Painter(PROFILE_OF[module.NAME], module.NAME, rules["palette"], rules.get("signs"))
    return play.Play(module, rules, options, seed, journal or Journal(), painter, seats=seats,
                     clock=clock)


class Lines(Journal):
    """A journal that keeps each append's moves."""

    def __init__(self):
        self.appends = []

    def append(self, *moves):
        self.appends.append(list(moves))


def played_at_once(module, options, seats, moves):
    """The first `moves` moves of the same game played with no clock (each thought, deal and
    roll whole in its tick)."""
    at_once = make_play(module, options, seats, None)
    t = 0
    while len(at_once.state.history) < moves:
        at_once.update(t)
        t += 10
        assert t < 10_000_000
    return list(at_once.state.history)[:moves]


def count_steps(p):
    """Count the steps of the Play's thinking (its generator's next() calls)."""
    inner = p.thinking
    counter = {"steps": 0}

    class Counting:
        def __next__(self):
            counter["steps"] += 1
            return next(inner)  # its StopIteration, with the decision, goes through

    p.thinking = Counting()
    return counter


def test_a_hand_of_placements_is_thought_over_many_ticks_and_decided_as_at_once():
    clock = ReadClock()
    p = make_play(gatenkaas, {"players": 2}, [[0, "strong"], [1, "strong"]], clock)
    assert p.wait == "bot" and p.thinking is not None
    state_before = copy.deepcopy(p.state)
    rng_before = copy.deepcopy(p.rng)
    legal = len(p.state.legal_actions())
    assert legal > 50  # a full first hand: many placements to judge
    counter = count_steps(p)
    moves = len(p.state.history)
    ticks = 0
    most = 0
    while len(p.state.history) == moves:
        before = counter["steps"]
        p.update(clock.now)
        most = max(most, counter["steps"] - before)
        clock.now += 10  # the rest of the 10 ms tick
        ticks += 1
        assert ticks < 5000
    # Each update stepped THINK_MS steps at most (plus the one that ends the thinking).
    assert most <= play.THINK_MS + 1
    assert ticks > legal // (play.THINK_MS + 1)
    # The move it played is the one the same state and random source give all at once.
    at_once = gatenkaas.bot_move(state_before, rng_before, "strong")
    assert p.state.history[moves] == at_once


def test_the_move_waits_for_the_pause_when_the_thinking_is_quicker():
    p = make_play(gatenkaas, {"players": 2}, [[0, "strong"], [1, "strong"]], None)
    moves = len(p.state.history)
    p.update(0)  # no clock: thought through at once, in the first update
    assert p.thinking is None and p.decided is not None
    assert len(p.state.history) == moves  # but played only once the pause has passed
    p.update(play.BOT_MS - 1)
    assert len(p.state.history) == moves
    decided = p.decided
    p.update(play.BOT_MS)
    assert p.state.history[moves] == decided  # (a card is drawn after it at once)


def _gouda_window():
    """A Gouda state at an open reaction window, with markers in hand (seeded, found by play)."""
    rules = table("gouda")
    from cheesefw.engine.rng import Rng

    for seed in range(50):
        s = gouda.State(rules, {"players": 2, "powers": True})
        rng = Rng(seed)
        while not s.is_terminal():
            if s.current_player() == REACTION and len(s.legal_actions()) > 1:
                return s
            if s.current_player() == CHANCE:
                s.apply_action(rng.choose(s.chance_outcomes()))
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.below(len(legal))])
    raise AssertionError("no reaction window with markers in 50 seeded games")


def test_a_person_who_takes_the_window_stops_the_board_thinking():
    clock = ReadClock()
    p = make_play(gouda, {"players": 2, "powers": True}, [[1, "strong"]], clock)
    p.state = _gouda_window()
    p._advance(0)
    assert p.wait == "window" and p.thinking is not None
    p.on_button("ok", "press", 1)  # a person takes the window before the board's pause ends
    assert p.wait == "seat" and p.thinking is None
    moves = len(p.state.history)
    p.update(play.BOT_MS + 5)
    assert len(p.state.history) == moves and p.wait == "seat"
    p.on_button("back", "press", play.BOT_MS + 10)  # the window again: the board thinks afresh
    assert p.wait == "window" and p.thinking is not None


def test_the_thinking_generators_return_what_their_decide_returns():
    """games.decide runs a think generator to its end: the value is its return, not a yield."""

    def think():
        yield
        yield
        return 42

    assert decide(think()) == 42
    s = gatenkaas.State(table("gatenkaas"), {"players": 2})
    from cheesefw.engine.rng import Rng

    rng = Rng(5)
    while s.current_player() == CHANCE:
        s.apply_action(rng.choose(s.chance_outcomes()))
    steps = list(gatenkaas_bot.think(s, Rng(1), "strong"))
    assert all(step is None for step in steps)
    assert len(steps) > len(s.legal_actions()) + 1  # one step per placement judged, and those
    # that list them (a hand's placements are listed a part at a time: the game's legal_steps)
    assert decide(gatenkaas_bot.think(s, Rng(1))) in s.legal_actions()
    assert PASS not in s.legal_actions()


def test_a_deal_is_drawn_a_slice_of_each_tick_journaled_as_it_goes_and_the_same_cards():
    """Kalle deals its 17 animal cards at once after a round (50 ms of a Pico in one tick): the
    engine draws them THINK_MS of each tick, journals each tick's cards, asks for no redraw
    until the deal is whole, and deals what the same game dealt at once."""
    seats = [[s, "strong"] for s in range(5)]
    clock = ReadClock()
    journal = Lines()
    p = make_play(kalle, {"players": 5}, seats, clock, journal=journal)
    ticks = 0
    while p.wait != "settling" or p.state.current_player() != CHANCE:
        p.update(clock.now)
        clock.now += 10
        ticks += 1
        assert ticks < 50000, "no deal in the game's first rounds"
    dealt_from = len(p.state.history) - len(journal.appends[-1]) + 1  # (the move, then cards)
    most = 0
    dealing_ticks = 0
    while p.wait == "settling":
        before = len(p.state.history)
        appends = len(journal.appends)
        assert p.update(clock.now) is False  # the LEDs keep their frame meanwhile
        drawn = len(p.state.history) - before
        most = max(most, drawn)
        # (the tick after the last card, if that one had no time left, settles and draws none)
        assert journal.appends[appends:] == ([list(p.state.history[before:])] if drawn else [])
        clock.now += 10
        dealing_ticks += 1
    assert 1 <= most <= play.THINK_MS and dealing_ticks >= 2
    assert p.wait != "settling" and p.state.current_player() != CHANCE
    # Every card of the deal went to the journal, in the order drawn.
    journaled = [m for lines in journal.appends for m in lines]
    assert journaled[-(len(p.state.history) - dealt_from):] == list(p.state.history[dealt_from:])
    # The same game, no clock (each deal drawn whole in its tick), deals the same cards.
    assert played_at_once(kalle, {"players": 5}, seats, len(p.state.history)) == \
        list(p.state.history)


def test_a_roll_s_dice_are_drawn_a_slice_of_each_tick_and_what_they_open_in_a_tick_of_its_own():
    """Gouda rolls up to five dice at a press, then opens a window: on a Pico the dice, their
    journal line and the window's choices held one tick 16 ms. The engine draws the dice
    THINK_MS of each tick while the die tumbles on, journals them together once all are drawn,
    and lists the window's choices in the next tick (settling: no press counts meanwhile); the
    dice are those of the same game with no clock."""
    seats = [[s, "strong"] for s in range(6)]
    options = {"players": 6, "powers": True}
    clock = ReadClock()
    journal = Lines()
    p = make_play(gouda, options, seats, clock, journal=journal)
    while not (p.wait == "rolling" and p.state.to_roll == 5 and clock.now - p.until >= 0):
        p.update(clock.now)
        clock.now += 10
        assert clock.now < 10_000_000, "no roll of five dice"
    rolled_from = len(p.state.history)
    appends = len(journal.appends)
    listed = []
    legal_actions = p.state.legal_actions
    p.state.legal_actions = lambda: listed.append(clock.now) or legal_actions()
    most = rolling_ticks = 0
    while p.wait == "rolling":
        before = len(p.state.history)
        p.update(clock.now)
        most = max(most, len(p.state.history) - before)
        rolling_ticks += 1
        clock.now += 10
    assert 1 <= most <= play.THINK_MS and rolling_ticks >= 2
    dice = list(p.state.history[rolled_from:])
    assert len(dice) == 5 and journal.appends[appends:] == [dice]  # one line, once all are drawn
    assert not listed and p.wait == "settling"  # (the last dice's tick has taken time already)
    assert p.on_button("ok", "press", clock.now) and p.refused == 1  # no press counts meanwhile
    assert p.wait == "settling" and len(p.state.history) == rolled_from + 5
    assert p.update(clock.now) is False  # (the frame is redrawn once the window is open)
    assert p.wait == "window" and len(listed) == 1
    # The same game, no clock (each roll drawn whole in its tick, the window opened with it).
    assert played_at_once(gouda, options, seats, len(p.state.history)) == list(p.state.history)


def test_a_person_s_move_in_a_tick_that_has_taken_time_is_settled_in_the_next_tick():
    """A press plays its move in the tick that reads it, and the tick's update comes after: on
    a board whose tick has taken time already, what comes next (the next choices listed) waits
    for the next tick, not for that update."""
    clock = ReadClock()
    p = make_play(gouda, {"players": 2}, [], clock)
    while p.wait != "decide":  # (the set-up's placements are the people's too)
        p.update(clock.now)
        clock.now += 10
    moves = len(p.state.history)
    tick = clock.now  # (the tick's start: the clock moves on as it is read)
    assert p.on_button("ok", "press", tick)
    assert len(p.state.history) == moves + 1 and p.wait == "settling"
    listed = []
    legal_actions = p.state.legal_actions
    p.state.legal_actions = lambda: listed.append(clock.now) or legal_actions()
    p.update(tick)  # the same tick
    assert p.wait == "settling" and not listed
    p.update(tick + 10)
    assert p.wait == "decide" and len(listed) == 1


def test_a_tick_that_redraws_thinks_only_once_the_ticks_before_it_have_redrawn_without():
    """A redraw takes a slow board's tick: a tick that redraws does not think, unless the two
    ticks before it redrew without thinking (so that a board whose every tick redraws still
    thinks). After a single one, two redraws a tick apart made a tick that did both: 10.3 ms
    as .mpy files on the emulated Pico (Katz, the board on every seat)."""
    clock = ReadClock()
    p = make_play(katz, {"players": 6}, [[s, "strong"] for s in range(6)], clock)
    while p.thinking is None:
        p.update(clock.now)
        clock.now += 10
        assert clock.now < 10_000_000
    p.thinking = itertools.count()  # a decision that goes on: each tick thinks, or waits
    counter = count_steps(p)
    frame = render.new_frame(PROFILE_OF["katz"]["led"]["count"])
    p.update(clock.now)
    p.draw(frame)  # (the frame as it is: no tick below redraws for the animations alone)
    thought = []
    for redraw in (False, True, True, True, True, True, True, False, True, False):
        clock.now += 10
        before = counter["steps"]
        p._redraw_due = redraw  # (as a move's tick leaves it: this tick redraws)
        p._shown_at = p._animation_step(clock.now)
        assert p.update(clock.now) is redraw
        thought.append(counter["steps"] > before)
    assert thought == [True, False, False, True, False, False, True, True, False, True]
