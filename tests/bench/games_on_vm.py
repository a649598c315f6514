# Run on MicroPython (and CPython) by bench_games.py: the firmware's games under load.
#   argv: mode [args]
#     heap GAME PLAYERS POWERS   one full random game: heap before, peak working set, after
#     many GAME N                N consecutive games: games/s and heap after each tenth
#     tick                       engine cost per main-loop tick against a frame-copy loop
#     kitchen / katz             a game's own hot spots (path search, the board's player)
#     gatenkaas                  legal placements of a full hand, and the board's choice
# (Kalle's board players are timed by kalle_on_vm.py: code here is in the heap of every run.)
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
from quiet_board import QuietBoard  # noqa: E402

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
    if game == "kalle":
        return {"players": min(players, 5)}
    if game == "katz":
        return {"players": players}
    if game == "gatenkaas":  # open hands: the ghost of the card on offer is drawn too
        return {"players": min(players, 4), "hands": "open"}
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


def board_profile():
    """The profile as main() leaves it on the board: checked, then its maps packed (and the
    power-on code let go of, as app.start does)."""
    from cheesefw import profile_file
    from cheesefw.modules import forget

    profile = profile_file.load_profile()
    profile_file.pack_maps(profile)
    forget("cheesefw.profile_file", "cheesefw.checked")
    return profile


def mem():
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


def bench_heap(game, players, powers):
    """A whole game through the engine (menu, play scene, journal, drawing), random choices."""
    board = QuietBoard(board_profile())
    engine = core.Engine(board)
    frame = render.new_frame(board.pixel_count)
    opts = options(game, players, powers)
    for key, choices in load(game).OPTIONS:
        opts.setdefault(key, choices[0])
    engine.start_game(game, opts)
    scene = engine.scene
    rng = Rng(12345)
    before = mem()
    peak = before
    steps = 0
    while scene.wait != "over":
        board.now += 10
        if scene.wait in ("decide", "window"):
            scene._apply(scene.choices[rng.below(len(scene.choices))], board.now)
        elif scene.wait == "roll":
            scene._roll_dice(board.now)
        else:
            board.now += 1000  # let a timer run out (the board's cat thinking, say)
            scene.update(board.now)
        engine.draw(frame)
        steps += 1
        peak = max(peak, mem())  # at every step: every 8th missed peaks by about 2 KB
    after = mem()
    games = sorted(m for m in sys.modules if m.startswith("cheesefw.games."))
    print(json.dumps({"before": before, "peak": peak, "after": after, "steps": steps,
                      "moves": len(scene.state.history), "games": games}))


def bench_many(game, n):
    module = load(game)
    table = rules(game)
    rng = Rng(777)
    heaps = [0] * ((n + 9) // 10)  # made before the games, so that it does not grow among them
    start = ticks_ms()
    for i in range(n):
        one_game(module, table, options(game, 6, True), rng)
        if i % 10 == 0:
            heaps[i // 10] = mem()
    ms = ticks_diff(ticks_ms(), start)
    print(json.dumps({"games": n, "ms": ms, "heaps": heaps}))


def bench_tick():
    profile = board_profile()
    board = QuietBoard(profile)
    engine = core.Engine(board)
    engine.start_game("gouda", {"players": 6, "powers": True, "markers": 3, "festival": False,
                                "extra_cheese": False})
    a = app.App(board, engine)
    n = 500
    # The engine's tick: update, draw, compare, limit and show only what changed.
    t0 = time.ticks_us()
    for _ in range(n):
        board.now += 10
        a.tick()
    tick_us = time.ticks_diff(time.ticks_us(), t0) / n
    written = board.frames
    t0 = time.ticks_us()
    for _ in range(n):  # a tick that redraws everything, as when a blink turns
        board.now += 10
        a.dirty = True
        a.tick()
    draw_us = time.ticks_diff(time.ticks_us(), t0) / n
    # The baseline: a loop that only writes the same frame, as the simulator's HAL does.
    import binascii

    frame = render.new_frame(board.pixel_count)
    out = render.new_frame(board.pixel_count)
    sink = open("/dev/null", "wb")
    t0 = time.ticks_us()
    for _ in range(n):
        out[:] = frame
        sink.write(b"F " + binascii.hexlify(out) + b"\n")
    copy_us = time.ticks_diff(time.ticks_us(), t0) / n
    sink.close()
    # Idle: the menu, nothing pressed, for 100 ticks.
    board2 = QuietBoard(board_profile())  # a board of its own (a game lets go of the others' maps)
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
        idle.dirty = True
    idle.tick()
    print(json.dumps({"tick_us": tick_us, "draw_us": draw_us, "copy_us": copy_us,
                      "frames": written, "ticks": n,
                      "idle_frames": idle_frames, "press_frames": board2.frames - before}))


def bench_kitchen():
    """The reachable squares for the largest roll with a +2 after it, and the board cat's choice."""
    from cheesefw.games import kitchen

    table = rules("kitchen")
    rng = Rng(4)
    states = []
    while len(states) < 8:  # positions where a mouse has a 4 to move, or the cat is to move
        s = kitchen.State(table, {"cat": "board"})
        while not s.is_terminal() and len(states) < 8:
            if s.current_player() == CHANCE:
                s.apply_action(rng.choose(s.chance_outcomes()))
                continue
            if s.current_player() == kitchen.CAT and s.phase == "move":
                states.append(s.to_dict())
            legal = s.legal_actions()
            s.apply_action(legal[rng.below(len(legal))])
    cats = [kitchen.State.from_dict(table, d) for d in states]
    n = 0
    t0 = time.ticks_us()
    for s in cats:
        for m in range(4):
            if s.mice[m] >= 0:
                s._reach(m, 4 + 2)  # the longest move: a 4, then +2 more
                n += 1
    reach_us = time.ticks_diff(time.ticks_us(), t0) / max(n, 1)
    t0 = time.ticks_us()
    for s in cats:
        kitchen.bot_move(s, rng)
    bot_us = time.ticks_diff(time.ticks_us(), t0) / len(cats)
    print(json.dumps({"reach_us": reach_us, "bot_us": bot_us, "positions": len(cats)}))


def bench_katz():
    """The board player's choice in Katz positions with many moves on offer (clover rolls)."""
    from cheesefw.games import katz

    table = rules("katz")
    rng = Rng(6)
    states = []
    while len(states) < 8:  # six players, midway, the clover rolled: the most moves to score
        s = katz.State(table, {"players": 6})
        while not s.is_terminal() and len(states) < 8:
            if s.current_player() == CHANCE:
                s.apply_action(rng.choose(s.chance_outcomes()))
                continue
            if s.roll == "clover" and len(s.history) > 60:
                states.append(s.to_dict())
            legal = s.legal_actions()
            s.apply_action(legal[rng.below(len(legal))])
    positions = [katz.State.from_dict(table, d) for d in states]
    moves = sum(len(s.legal_actions()) for s in positions)
    t0 = time.ticks_us()
    for s in positions:
        katz.bot_move(s, rng)
    bot_us = time.ticks_diff(time.ticks_us(), t0) / len(positions)
    t0 = time.ticks_us()
    for s in positions:
        s.legal_actions()
    legal_us = time.ticks_diff(time.ticks_us(), t0) / len(positions)
    print(json.dumps({"bot_us": bot_us, "legal_us": legal_us, "moves": moves / len(positions)}))


def bench_gatenkaas():
    """The legal placements of the player on turn (a full hand, computed afresh) at every
    decision of seeded 4-player games; the worst and the mean, and the board's choice."""
    from cheesefw.games import gatenkaas

    table = rules("gatenkaas")
    rng = Rng(21)
    worst = total = count = most = bot = 0
    # Bytes allocated (the garbage that calls the collector): by the legal placements made
    # afresh, and by the board's choice after them (its scoring), per decision
    legal_bytes = choice_bytes = choice_worst = decisions = 0
    for _ in range(6):
        s = gatenkaas.State(table, {"players": 4})
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply_action(rng.choose(s.chance_outcomes()))
                continue
            gc.collect()  # a collection is the heap's cost, not the search's: not timed here
            s._legal_at = -1
            gc.disable()  # (no collection inside: the bytes allocated are read off the heap)
            before = gc.mem_alloc()
            t0 = time.ticks_us()
            legal = s.legal_actions()
            us = time.ticks_diff(time.ticks_us(), t0)
            legal_bytes += gc.mem_alloc() - before
            if len(s.hand(s.player)) == 5:
                worst = max(worst, us)
                total += us
                count += 1
                most = max(most, len(legal))
            before = gc.mem_alloc()
            t0 = time.ticks_us()
            a = gatenkaas.bot_move(s, rng)
            bot = max(bot, time.ticks_diff(time.ticks_us(), t0))
            made = gc.mem_alloc() - before
            gc.enable()
            choice_bytes += made
            choice_worst = max(choice_worst, made)
            decisions += 1
            s.apply_action(a)
    # The baseline: a loop over as many cells as the search looks at, doing nothing.
    t0 = time.ticks_us()
    n = 0
    for _ in range(4 * 5):
        for cell in range(192):
            n += cell
    loop_us = time.ticks_diff(time.ticks_us(), t0)
    print(json.dumps({"worst_us": worst, "mean_us": total / max(count, 1), "positions": count,
                      "most": most, "bot_us": bot, "loop_us": loop_us,
                      "legal_bytes": legal_bytes // decisions,
                      "choice_bytes": choice_bytes // decisions, "choice_worst": choice_worst}))


mode = sys.argv[1]
if mode == "heap":
    bench_heap(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1")
elif mode == "many":
    bench_many(sys.argv[2], int(sys.argv[3]))
elif mode == "tick":
    bench_tick()
elif mode == "gatenkaas":
    bench_gatenkaas()
elif mode == "kitchen":
    bench_kitchen()
elif mode == "katz":
    bench_katz()
