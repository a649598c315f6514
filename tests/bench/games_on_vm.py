# Run on MicroPython (and CPython) by bench_games.py: the firmware's games under load.
#   argv: mode [args]
#     heap GAME PLAYERS POWERS   one full random game: heap before, peak working set, after
#     many GAME N                N consecutive games: games/s and heap after each tenth
#     tick                       engine cost per main-loop tick against a frame-copy loop
import gc
import json
import sys
import time

try:
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython
    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

# Load the whole firmware, as the board has it after boot.
from cheesefw import app, buttons, protocol, render  # noqa: E402,F401
from cheesefw.engine import core, draw, menu, play  # noqa: E402,F401
from cheesefw.engine.rng import Rng  # noqa: E402
from cheesefw.games import CHANCE, TERMINAL, load  # noqa: E402


def rules(game):
    with open("rules/%s.json" % game) as f:
        return json.load(f)


def options(game, players, powers):
    if game == "gouda":
        return {"players": players, "powers": powers}
    return {}


def one_game(module, table, opts, rng, peak=None):
    state = module.State(table, opts)
    steps = 0
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply_action(rng.choose(state.chance_outcomes()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
        steps += 1
        if peak is not None and steps % 8 == 0:
            gc.collect()
            peak[0] = max(peak[0], gc.mem_alloc())
    return steps


def mem():
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


def bench_heap(game, players, powers):
    module = load(game)
    table = rules(game)
    rng = Rng(12345)
    before = mem()
    peak = [before]
    steps = one_game(module, table, options(game, players, powers), rng, peak)
    after = mem()
    print(json.dumps({"before": before, "peak": peak[0], "after": after, "steps": steps,
                      "free": gc.mem_free() if hasattr(gc, "mem_free") else 0}))


def bench_many(game, n):
    module = load(game)
    table = rules(game)
    rng = Rng(777)
    heaps = []
    start = ticks_ms()
    for i in range(n):
        one_game(module, table, options(game, 6, True), rng)
        if i % 10 == 0 or i == n - 1:
            heaps.append(mem())
    ms = ticks_diff(ticks_ms(), start)
    print(json.dumps({"games": n, "ms": ms, "heaps": heaps}))


class QuietBoard:
    """The engine's board without hardware: frames are counted, not sent."""

    def __init__(self, profile):
        from cheesefw.hal.base import Board

        self._base = Board
        self.profile = profile
        self.pixel_count = profile["led"]["count"]
        self.pins = {}
        self.frames = 0
        self.now = 0

    def show(self, frame):
        self.frames += 1

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def poll(self):
        pass

    def console_read(self):
        return b""

    def console_write(self, text):
        pass

    def random_seed(self):
        return 99

    def read_file(self, name):
        with open(name, "rb") as f:
            return f.read()

    def write_file(self, name, data):
        pass

    def append_file(self, name, text):
        pass

    def remove_file(self, name):
        pass


def bench_tick():
    with open("profile.json") as f:
        profile = json.load(f)
    board = QuietBoard(profile)
    engine = core.Engine(board)
    engine.start_game("gouda", {"players": 6, "powers": True, "markers": 3, "festival": False,
                                "extra_cheese": False})
    a = app.App(board, engine)
    n = 500
    # The engine's tick: update, draw, compare, limit and show only what changed.
    t0 = time.ticks_us() if hasattr(time, "ticks_us") else 0
    for _ in range(n):
        board.now += 10
        a._dirty = True
        a.tick()
    t1 = time.ticks_us() if hasattr(time, "ticks_us") else 0
    engine_us = (t1 - t0) / n
    written = board.frames
    # The baseline: a loop that only writes the same frame.
    frame = render.new_frame(board.pixel_count)
    out = render.new_frame(board.pixel_count)
    t0 = time.ticks_us() if hasattr(time, "ticks_us") else 0
    for _ in range(n):
        out[:] = frame
        board.show(out)
    t1 = time.ticks_us() if hasattr(time, "ticks_us") else 0
    copy_us = (t1 - t0) / n
    # Idle: the menu, nothing pressed, for 100 ticks.
    board2 = QuietBoard(profile)
    idle = app.App(board2, core.Engine(board2))
    idle.tick()  # the menu's first frame
    shown = board2.frames
    for _ in range(100):
        board2.now += 10
        idle.tick()
    idle_frames = board2.frames - shown
    # A press: the tick in which the debounced press arrives writes the answering frame.
    before = board2.frames
    if idle.scene.on_button("next", "press", board2.now):
        idle._dirty = True
    idle.tick()
    print(json.dumps({"engine_us": engine_us, "copy_us": copy_us, "frames": written, "ticks": n,
                      "idle_frames": idle_frames, "press_frames": board2.frames - before}))


mode = sys.argv[1]
if mode == "heap":
    bench_heap(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1")
elif mode == "many":
    bench_many(sys.argv[2], int(sys.argv[3]))
elif mode == "tick":
    bench_tick()
