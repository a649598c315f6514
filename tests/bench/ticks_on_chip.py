# Run on MicroPython by bench_ticks.py (on the emulated Pico, or on the unix port): the length of
# every main-loop tick, in the chip's own time (time.ticks_us), while the board plays every seat
# of a game (and the kitchen's cat against a person's presses), and an idle tick's at the menu as
# the run's baseline. A JSON line for each part,
# printed as it ends and let go: results kept on the heap would be marked by every later game's
# collections (Gatenkaas, played last, marked 60 KB of them: 3-4 ms more each).
#   argv: TICKS [PICO16_PROFILE [GAMES]]   ticks per game and level; Gatenkaas's 16x16 profile
#                                  file ("-" or none: Gatenkaas is left out); the games to play,
#                                  comma-separated (none: all; "person": the kitchen's mice by
#                                  a person's buttons)
# The board's clock runs the chip's time within a tick and skips the rest of it, where a board
# sleeps (a late tick starts the next one late, as App.run does): the thinking's slices and the
# collector's idle work are timed by it, and the board's pauses (BOT_MS) cost no emulation.
# The journal is kept as on a board: in the region the cheeseboard UF2 leaves it on a Pico's
# flash (engine/flash_journal.py), else appended to a file on the board's own file system.
import gc
import json
import os
import sys
import time
from array import array

from quiet_board import QuietBoard

from cheesefw import app, profile_file
from cheesefw.engine import core
from cheesefw.engine.journal import Journal
from cheesefw.games import load
from cheesefw.modules import forget

TICK_MS = 10
JOURNAL = "bench-journal.txt"
# A tick's kind, bits: its board player thinks, it appends the journal, the heap was collected
# in it (more free after than before), it wrote a frame, the game moved in it.
THINKS, APPENDS, COLLECTS, WRITES, MOVES = 1, 2, 4, 8, 16
KEPT_US = 2000  # ticks at least this long are reported one by one (with their index)
MENU_TICKS = 80  # at the menu before each game: past the App's first collection (_BUSY_MS)

# (game, options, seats played by the board): every seat, at one level a run.
GAMES = (
    ("gouda", {"players": 6, "powers": True}, 6),
    ("kitchen", {}, 2),
    ("kalle", {"players": 5}, 5),
    ("katz", {"players": 6}, 6),
    ("gatenkaas", {"players": 4}, 4),
)
# And a family's game: a person plays the kitchen's mice by the buttons against the board's cat
# (its seat 1), so that the ticks of a person's choices are timed too: the hints of a mouse on
# offer, a decision's choices listed. (As "person", in the GAMES argument.)
PERSON = ("kitchen", {"cat": "player"}, 1, "kitchen, a person's mice against the cat")
PRESS_EVERY_MS = 300  # the person's pace: a press this often while the board waits on them
HELD_MS = 60


def journal_region():
    """The flash the cheeseboard UF2 keeps for the journal, on a Pico; None elsewhere."""
    if sys.platform != "rp2":
        return None
    from cheesefw.hal.rp2 import journal_region

    return journal_region()


class HeldPin:
    """A button's pin that the bench holds down (value 0) until `up_at` on the board's clock."""

    def __init__(self, board):
        self.board = board
        self.up_at = -1

    def value(self):
        return 0 if self.board.now < self.up_at else 1


class BenchBoard(QuietBoard):
    """The engine's board on a clock that skips the idle rest of each tick; its journal where
    a board keeps it (its region, or a file); buttons the bench presses (person: True)."""

    def __init__(self, profile, person=False):
        super().__init__(profile)
        self.began = time.ticks_us()
        self.appends = 0
        if person:
            self.pins = {name: HeldPin(self) for name in ("back", "next", "ok", "prev", "roll")}

    def journal(self):
        if sys.platform != "rp2":
            return Journal(self)
        from cheesefw.hal import rp2

        return rp2.Board.journal(self)  # (as a Pico's board keeps it: its region, or a file)

    def start_tick(self, now):
        self.now = now
        self.began = time.ticks_us()

    def ticks_ms(self):
        return self.now + time.ticks_diff(time.ticks_us(), self.began) // 1000

    def sleep_ms(self, ms):
        self.now += ms  # (the clock skips it)

    def write_file(self, name, data):
        with open(JOURNAL, "wb") as f:
            f.write(data)

    def append_file(self, name, text):
        with open(JOURNAL, "a") as f:
            f.write(text)

    def remove_file(self, name):
        try:
            os.remove(JOURNAL)
        except OSError:
            pass


def new_profile(name=None):
    profile = profile_file.load_profile(name=name)
    profile_file.pack_maps(profile)
    return profile


def person_presses(a, board, now, last):
    """A person's press at their pace, when the game waits on them: roll at a roll, and at a
    decision next, three times in four, else ok (the choice shown). Returns when the last press
    began."""
    scene = a.scene.scene
    wait = getattr(scene, "wait", None)
    if now - last < PRESS_EVERY_MS or wait not in ("roll", "decide"):
        return last
    name = "roll" if wait == "roll" else "ok" if now // PRESS_EVERY_MS % 4 == 0 else "next"
    board.pins[name].up_at = now + HELD_MS
    return now


def run(a, board, ticks, kind_of=None):
    """ticks ticks of App a as App.run spaces them; (their lengths in us, their kinds), in
    LENGTHS and KINDS (made once, before any game: a game's heap is tight)."""
    lengths = LENGTHS
    kinds = KINDS
    now = 0
    pressed = 0
    idle = getattr(a, "idle", None)  # the App's work in a tick's idle rest, if it has any
    for i in range(ticks):
        if board.pins and kind_of:
            pressed = person_presses(a, board, now, pressed)
        thinks = kind_of(a) if kind_of else 0
        made = moves_of(a) if kind_of else 0
        appends = board.appends
        frames = board.frames
        free = gc.mem_free()  # (it walks the whole heap: 8.4 ms of a Pico, before the tick)
        board.start_tick(now)
        t0 = time.ticks_us()
        a.tick()
        if idle:
            used = board.ticks_diff(board.ticks_ms(), now)
            if used < TICK_MS:
                idle(TICK_MS - used)
        us = time.ticks_diff(time.ticks_us(), t0)
        kind = thinks
        if getattr(a.scene.scene, "_waited", False):
            kind &= ~THINKS  # (its thinking waited for the tick's redraw)
        if board.appends != appends:
            kind |= APPENDS
        if gc.mem_free() > free:
            kind |= COLLECTS
        if board.frames != frames:
            kind |= WRITES
        if kind_of and moves_of(a) != made:
            kind |= MOVES
        lengths[i] = us
        kinds[i] = kind
        now += max(TICK_MS, (us + 999) // 1000)
    return lengths, kinds


def summary(lengths, kinds, moves=None):
    ticks = len(lengths)
    long_ticks = [[i, lengths[i], kinds[i]] for i in range(ticks)
                  if lengths[i] >= KEPT_US]
    out = {"ticks": ticks, "mean_us": sum(lengths) // ticks,
           "worst_us": max(lengths), "long": long_ticks}
    if moves is not None:
        out["moves"] = moves
    return out


def idle_baseline(ticks):
    """The menu with nothing pressed: the run's baseline."""
    board = BenchBoard(new_profile())
    a = app.App(board, core.Engine(board))
    run(a, board, ticks)
    result = summary(LENGTHS[:ticks], KINDS[:ticks])
    del a, board
    gc.collect()
    return result


def probe():
    """What might make the same code slower as .mpy files than frozen, each timed alone: a loop
    that only computes, one that allocates small objects, a collection of the whole heap (after
    a game's code has been imported), and the heap in use then."""
    load("kitchen")
    from cheesefw.games import kitchen_bot  # noqa: F401  (the code a game holds, as in play)

    gc.collect()
    t0 = time.ticks_us()
    x = 0
    for i in range(2000):
        x += i & 7
    compute = time.ticks_diff(time.ticks_us(), t0)
    t0 = time.ticks_us()
    for i in range(2000):
        x = [i, i]
    alloc = time.ticks_diff(time.ticks_us(), t0)
    t0 = time.ticks_us()
    gc.collect()
    collect = time.ticks_diff(time.ticks_us(), t0)
    out = {"compute_us": compute, "alloc_us": alloc, "collect_us": collect,
           "in_use": gc.mem_alloc(), "free": gc.mem_free()}
    out.update(appends())
    out.update(region_appends())
    return out


def appends(count=40):
    """A journal line appended count times as the board does it (the file opened, appended,
    closed) and to a file kept open, written and flushed a line at a time (LittleFS commits
    at the flush): the mean and the worst of each, in us."""
    line = '1b2c3d4e ["play", 2, "downgrade"]\n'
    out = {}
    for way in ("open", "kept"):
        with open(JOURNAL, "w") as f:
            f.write(line)
        kept = open(JOURNAL, "a") if way == "kept" else None
        times = []
        for _ in range(count):
            t0 = time.ticks_us()
            if kept:
                kept.write(line)
                kept.flush()
            else:
                with open(JOURNAL, "a") as f:
                    f.write(line)
            times.append(time.ticks_diff(time.ticks_us(), t0))
        if kept:
            kept.close()
        os.remove(JOURNAL)
        out["append_%s_mean_us" % way] = sum(times) // count
        out["append_%s_worst_us" % way] = max(times)
    return out


class NoFiles:
    def remove_file(self, name):
        pass


def region_appends(count=40):
    """The same line appended count times to the journal's own region, where a board has one:
    the mean and the worst, in us; and a game's start there after them (the region's used
    blocks erased, the header programmed)."""
    if REGION is None:
        return {}
    from cheesefw.engine.flash_journal import FlashJournal

    journal = FlashJournal(NoFiles(), REGION)
    journal.start({"game": "bench"})
    move = ["play", 2, "downgrade"]
    times = []
    for _ in range(count):
        t0 = time.ticks_us()
        journal.append(move)
        times.append(time.ticks_diff(time.ticks_us(), t0))
    t0 = time.ticks_us()
    journal.start({"game": "bench"})
    start = time.ticks_diff(time.ticks_us(), t0)
    journal.clear()
    return {"append_region_mean_us": sum(times) // count,
            "append_region_worst_us": max(times), "region_start_us": start}


def thinks(a):
    """THINKS while the game's board player is thinking (at the tick's start; run() takes it off
    a tick whose thinking waited for its redraw)."""
    return THINKS if getattr(a.scene.scene, "thinking", None) is not None else 0


def moves_of(a):
    """The number of moves the game has made (0 outside a game)."""
    state = getattr(a.scene.scene, "state", None)
    return len(state.history) if state is not None else 0


class CountedAppend:
    def __init__(self, board, append):
        self.board = board
        self.append = append

    def __call__(self, *moves):
        self.board.appends += 1
        self.append(*moves)


def board_plays(name, game, options, seats, level, ticks, profile_name=None, person=False):
    """The board on seats 0..seats-1 at level (person: on seat `seats` alone, a person on the
    others); its JSON line printed under name. The result is never returned: a caller's frame
    kept it (Gatenkaas's, a thousand long ticks) where the next game's collections marked it,
    25 KB more live and 11 ms collections, though the caller had let it go."""
    board = BenchBoard(new_profile(profile_name), person)
    engine = core.Engine(board)
    # The App first at the menu, as a board starts: its idle ticks time a first collection,
    # which tells the App whether a collection fits a tick (App.idle)
    a = app.App(board, engine)
    run(a, board, min(MENU_TICKS, len(LENGTHS)))
    opts = dict(options)
    for key, choices in load(game).OPTIONS:
        opts.setdefault(key, choices[0])
    engine.start_game(game, opts, seats=[[seats, level]] if person else
                      [[s, level] for s in range(seats)])
    # Play calls the journal's append through the instance: this one counts them
    engine.journal.append = CountedAppend(board, engine.journal.append)
    run(a, board, ticks, thinks)
    moves = len(engine.scene.state.history)
    # Back to the menu as the board goes there after a game: the game's modules let go (as
    # .mpy files their code is on the heap, and the next game's collections would mark it).
    forget(*core.GAME_MODULES)
    engine.journal.clear()  # (as at a game's end: the next game's engine finds none to resume)
    del a, engine, board
    gc.collect()
    print(json.dumps({"games": {name: summary(LENGTHS, KINDS, moves)}}))


def main():
    global LENGTHS, KINDS, REGION
    REGION = journal_region()
    ticks = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    pico16 = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] != "-" else None
    only = sys.argv[3].split(",") if len(sys.argv) > 3 else None
    LENGTHS = array("i", bytes(4 * ticks))
    KINDS = bytearray(ticks)
    gc.collect()
    print(json.dumps({"idle": idle_baseline(min(200, ticks))}))
    print(json.dumps({"probe": probe()}))
    for game, options, seats in GAMES:
        if only and game not in only:
            continue
        name = None
        if game == "gatenkaas":
            if not pico16:
                continue
            name = pico16
        for level in ("strong", "beginner"):
            board_plays("%s %s" % (game, level), game, options, seats, level, ticks, name)
    if not only or "person" in only:
        game, options, seat, name = PERSON
        for level in ("strong", "beginner"):
            board_plays("%s, %s" % (name, level), game, options, seat, level, ticks, None, True)


main()
