"""A redraw after a move draws only the spaces whose marks changed, over the last marks drawn:
over a whole game played by buttons, every frame of marks is the one drawn from the bare board."""

import random

import pytest
from engine_driver import CpuTable, MemoryBoard, choose_options, load_profile, play_with_buttons


@pytest.mark.parametrize("game, profile", [("kitchen", "pico"), ("katz", "pico"),
                                           ("kalle", "pico"), ("gouda", "pico"),
                                           ("gatenkaas", "pico16")])
def test_marks_drawn_over_the_last_ones_are_the_frame_drawn_anew(game, profile):
    table = CpuTable(MemoryBoard(seed=7, profile=load_profile(profile)))
    choose_options(table, game, {})
    painter = table.engine.scene.painter
    marks_over_last = painter._marks
    drawn = {"over the last": 0, "anew": 0}

    def marks(frame, view_marks):
        last = painter._marked
        shown = marks_over_last(frame, view_marks)
        painter._marked = None  # the same marks, from the bare board
        anew = bytearray(len(frame))
        assert marks_over_last(anew, view_marks) == shown
        painter._marked = last
        assert frame == anew
        drawn["anew" if last is None else "over the last"] += 1
        return shown

    painter._marks = marks
    press = table.press

    def press_and_draw(name):  # a redraw after every press, as the board's tick makes one
        press(name)
        table.engine.draw(table.frame)

    table.press = press_and_draw
    rng = random.Random(3)
    play_with_buttons(table, lambda s: rng.randrange(s["choices"]))
    assert drawn["over the last"] > 0  # the game's redraws after a move took the new path


@pytest.mark.parametrize("game", ["kitchen", "gatenkaas"])
def test_a_view_that_keeps_its_last_marks_shows_what_a_state_made_anew_shows(game):
    # The kitchen and Gatenkaas keep the last view's marks while the table stays as it was:
    # at every step of a whole game, the view is the one a state rebuilt from its dict shows.
    import json

    from engine_driver import ROOT

    from cheesefw.games import CHANCE, TERMINAL, load

    module = load(game)
    rules = json.loads((ROOT / ("firmware/rules/%s.json" % game)).read_text())
    s = module.State(rules, {"players": 4} if game == "gatenkaas" else None)
    rng = random.Random(5)
    kept = changed = 0
    for _ in range(2000):
        if s.current_player() == TERMINAL:
            break
        if s.current_player() == CHANCE:
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        if rng.random() < 0.2:
            continue  # two moves between views: more changed than the last one did
        last = s._marked
        marks = s.view()["marks"]
        kept += last is not None and marks is last[-1]
        # Gatenkaas: changed where the last card and the cheese did, over the last view's
        changed += last is not None and marks is not last[-1] and s._marked[0] is last[0]
        assert marks == module.State.from_dict(rules, s.to_dict()).view()["marks"]
    assert s.current_player() == TERMINAL
    assert kept > 0  # moves that left the table as it was kept the marks
    if game == "gatenkaas":
        assert changed > 10


def test_a_view_made_in_a_busy_tick_is_painted_in_the_ticks_after_and_the_frame_stays_whole():
    # A clock that moves 1 ms each time it is read: every tick has taken time by its draw, so
    # each view made anew after a move has its marks drawn in the tick after (never in the
    # view's own: on a 16x16 board the two took a Pico's tick and more), and is painted in the
    # next, over a frame left as it was.
    from test_engine_thinking import ReadClock, make_play

    from cheesefw.games import kitchen

    clock = ReadClock()
    p = make_play(kitchen, {"cat": "board", "mice": "board"}, [], clock)
    frame = bytearray(3 * 64)
    deferred = painted_after = 0
    marks_drawn = []  # the ticks in which the painter drew marks: "view" or "painting"
    draw_marks = p.painter._marks

    def counted_marks(into, marks):
        marks_drawn.append("painting" if into is frame else "view")
        return draw_marks(into, marks)

    p.painter._marks = counted_marks
    for _ in range(3000):
        clock.now += 10  # the main loop's tick
        now = clock.ticks_ms()
        if not p.update(now):
            continue
        before = bytes(frame)
        view = p._view
        marks_before = len(marks_drawn)
        p.draw(frame)
        if p._view is not view:  # a view made anew in this tick: no marks drawn in it
            assert len(marks_drawn) == marks_before
        if p._redraw_due:  # the painting waits: not a pixel of it is in the frame
            assert frame == before
            deferred += 1
            continue
        if deferred > painted_after:  # the painting after a deferred one: the frame drawn anew
            painted_after += 1
            # its marks were drawn in the view's tick: the painting's only copies them
            assert "painting" not in marks_drawn
            anew = bytearray(len(frame))
            p.clock, p._drawn_into = None, None
            p.draw(anew)
            p.clock = clock
            assert frame == anew
            marks_drawn.clear()
    assert painted_after > 5


class StillClock:
    """A board's clock that moves only when the test (or a slow hint) moves it."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b


def test_the_hint_on_offer_is_found_once_and_a_slow_one_is_painted_in_the_next_tick():
    # A hint can be a search (the kitchen's mouse: its paths, up to 5 ms of a Pico): it is kept
    # until the cursor or the game moves, so that a blink does not search again, and one found
    # once the tick has taken THINK_MS is painted in the next tick, where nothing is searched.
    from test_engine_thinking import make_play

    from cheesefw.engine.play import THINK_MS
    from cheesefw.games import kitchen

    clock = StillClock()
    p = make_play(kitchen, {"cat": "board"}, [], clock)
    frame = bytearray(3 * 64)
    for _ in range(10000):  # on to a pick of the mice, a person's, with two mice or more
        clock.now += 10
        p.update(clock.now)
        if p.wait == "decide" and p.state.phase == "pick" and len(p.choices) > 1:
            break
        if p.wait in ("roll", "decide"):
            p.on_button("roll" if p.wait == "roll" else "ok", "press", clock.now)
    assert p.wait == "decide" and p.state.phase == "pick"
    p.draw(frame)  # (the view's ticks: made and drawn, a tick each)
    clock.now += 10
    p.update(clock.now)
    p.draw(frame)
    asked = []
    hint = p.state.hint
    slow = [THINK_MS]

    def timed_hint(action):
        asked.append(action)
        clock.now += slow[0]  # the hint's search takes this long of the board's clock
        return hint(action)

    p.state.hint = timed_hint
    clock.now += 10
    p.on_button("next", "press", clock.now)
    assert p.update(clock.now)
    before = bytes(frame)
    p.draw(frame)  # found after THINK_MS of the tick: nothing painted in it
    assert asked == [p.choices[p.cursor]] and frame == before and p._redraw_due
    clock.now += 10
    assert p.update(clock.now)  # the next tick paints, with the hint found
    p.draw(frame)
    assert len(asked) == 1 and frame != before
    anew = bytearray(len(frame))
    p.offer, p.clock, p._drawn_into = None, None, None
    p.draw(anew)  # (the hint asked again, in a tick of no clock: painted at once)
    p.clock = clock
    assert anew == frame  # what the kept hint painted is what the hint paints
    for _ in range(20):  # blinks: the hint as it was kept
        clock.now += 100
        if p.update(clock.now):
            p.draw(frame)
    assert len(asked) == 2
    slow[0] = THINK_MS - 1  # a quicker hint is painted in its own tick
    clock.now += 10
    p.on_button("next", "press", clock.now)
    assert p.update(clock.now)
    before = bytes(frame)
    p.draw(frame)
    assert len(asked) == 3 and asked[-1] == p.choices[p.cursor] and not p._redraw_due
    p.on_button("ok", "press", clock.now)  # a move: the next offer's hint is found anew
    assert p.offer is None
