"""The collector runs in the idle rest of a quiet tick, never in a busy one (app.App.idle): every
half second of the board's clock where a collection fits in a quiet tick, and then, busy or not,
the next tick is the collector's (the game waits in it, whatever came in: which tick it is
depends on the board's clock alone); once a second where a collection takes longer than a tick
has room for. On the real MicroPython VM (the unix port) with the board's heap: a collection
takes a Pico's tick or more (docs/benchmarks.md), so where it runs is what counts. The heap is
never asked how full it is: gc.mem_alloc() walks all of it (8.4 ms on the emulated Pico), and
asked in every quiet tick it spaced a waiting board's ticks too far apart for a short press to
count."""

import json
from pathlib import Path

from mpvm import FIRMWARE, run_mp

from cheeseboard.paths import load_profile

HERE = Path(__file__).resolve().parent

CODE = """
import gc
from quiet_board import QuietBoard
from cheesefw import app, profile_file
from cheesefw.engine import core
profile = profile_file.load_profile(name="profile.json")
profile_file.pack_maps(profile)
board = QuietBoard(profile)
a = app.App(board, core.Engine(board))


class Collector:  # the gc module as the App sees it, its calls counted
    collections = asked = 0
    takes_ms = 0  # the board's clock moves this much in a collection

    def collect(self):
        self.collections += 1
        gc.collect()
        board.now += self.takes_ms

    def mem_alloc(self):
        self.asked += 1
        return gc.mem_alloc()

    def mem_free(self):
        self.asked += 1
        return gc.mem_free()


app.gc = counted = Collector()
updates = [0]
update = a.scene.update


def counted_update(now):
    updates[0] += 1
    return update(now)


a.scene.update = counted_update
board.now = 900  # a host that ticks the App without its idle rest (the web page's)
a.tick()
print("no idle", updates[0])  # the game goes on: no tick is the collector's
board.now = 0
a.tick()
print("first", a.idle(10) == 10, counted.collections)  # quiet, but it has only just started
board.now = 1500
a.idle(5)  # a busy tick: 5 ms of it are left
print("busy", counted.collections)
print("quiet", a.idle(9) <= 9, counted.collections)
board.now = 1900
a.idle(9)  # quiet, less than half a second after the last collection
print("again", counted.collections)
board.now = 2000
a.idle(8)  # half a second after it: the quietest tick that still counts as quiet
print("later", counted.collections, "asked", counted.asked)

updates[0] = 0
board.now = 2400
a.tick()
print("not yet", updates[0], counted.collections)
board.now = 2500  # half a second after the last collection
heard = []
board.console_read = lambda: b'@c5b43f40 {"cmd": "hello", "id": 7}\\n'  # (its CRC-32)
a.server.write = heard.append
a.tick()  # the collector's, though the console has something: it is answered, the game waits
answered = any('"id": 7,' in h and '"ok": true' in h for h in heard)
print("waits", updates[0], counted.collections, answered)
board.console_read = lambda: b""
print("idle after", a.idle(5), counted.collections)  # (busy: what the tick's input cost)
a.tick()
print("goes on", updates[0], counted.collections)

counted.takes_ms = 9  # a collection that fits a tick of its own, not a quiet tick's rest
board.now = 3100
a.tick()
print("nine", updates[0], counted.collections)
board.now = 3650
a.idle(8)  # quiet, past half a second: too little left for it
print("not in 8", counted.collections)
a.tick()  # the collector's
print("nine again", updates[0], counted.collections)

counted.takes_ms = 12  # a collection longer than a tick: no tick is the collector's
board.now = 4300
a.tick()
a.idle(9)
print("slow", updates[0], counted.collections)
board.now = 4900
a.tick()  # (not the collector's: one would be late)
a.idle(9)  # quiet, 600 ms after the slow one: not yet
print("slow again", updates[0], counted.collections)
board.now = 5400
a.idle(9)  # a second after it
print("slow later", counted.collections)
"""


def test_the_collector_runs_in_quiet_ticks_and_ticks_of_its_own_whatever_came_in(tmp_path):
    (tmp_path / "profile.json").write_text(json.dumps(load_profile("pico")))
    (tmp_path / "quiet_board.py").write_text((HERE.parent / "bench" / "quiet_board.py").read_text())
    (tmp_path / "rules").symlink_to(FIRMWARE / "rules")
    out = run_mp(CODE, cwd=tmp_path, path=[tmp_path]).split("\n")
    assert "no idle 1" in out
    assert "first True 0" in out
    assert "busy 0" in out
    assert "quiet True 1" in out
    assert "again 1" in out
    assert "later 2 asked 0" in out
    assert "not yet 1 2" in out
    assert "waits 1 3 True" in out
    assert "idle after 5 3" in out
    assert "goes on 2 3" in out
    assert "nine 2 4" in out  # the collector's tick, its collection 9 ms long
    assert "not in 8 4" in out
    assert "nine again 2 5" in out  # the collector's again: 9 ms fit a tick of its own
    assert "slow 2 6" in out  # the collector's tick, its collection 12 ms long
    assert "slow again 3 6" in out
    assert "slow later 7" in out


# A game played by the board on every seat, its ticks spaced by the board's clock as App.run
# spaces them; the console brings a request every `every` ticks (0: never). Its moves, and how
# many ticks were the collector's.
SAME_GAME = """
import gc
from quiet_board import QuietBoard
from cheesefw import app, profile_file
from cheesefw.engine import core
profile = profile_file.load_profile(name="profile.json")
profile_file.pack_maps(profile)
board = QuietBoard(profile)
engine = core.Engine(board)
engine.start_game("kitchen", {}, seats=[[0, "strong"], [1, "strong"]])
a = app.App(board, engine)


class Collector:
    collections = 0

    def collect(self):
        self.collections += 1
        gc.collect()


app.gc = counted = Collector()
request = b'@c5b43f40 {"cmd": "hello", "id": 7}\\n'
for i in range(3000):
    board.now = 10 * i
    board.console_read = (lambda: request) if %(every)d and i %% %(every)d == 0 else (lambda: b"")
    a.tick()
    a.idle(10)
print("moves", len(engine.scene.state.history), engine.scene.state.history)
print("collections", counted.collections)
"""


def test_a_game_by_the_board_is_the_same_whatever_the_console_brings(tmp_path):
    # Which tick is the collector's depends on the board's clock alone: a host's requests,
    # however they fall, change no move of a game the board plays.
    (tmp_path / "profile.json").write_text(json.dumps(load_profile("pico")))
    (tmp_path / "quiet_board.py").write_text((HERE.parent / "bench" / "quiet_board.py").read_text())
    (tmp_path / "rules").symlink_to(FIRMWARE / "rules")
    games = {}
    for every in (0, 3, 7):
        out = run_mp(SAME_GAME % {"every": every}, cwd=tmp_path, path=[tmp_path]).split("\n")
        games[every] = [line for line in out if line.startswith("moves")][0]
        collections = [line for line in out if line.startswith("collections")][0]
        assert int(collections.split()[1]) >= 3000 * 10 // 1000  # ticks of its own did come
    assert int(games[0].split()[1]) > 40  # a game well under way
    assert games[3] == games[0] and games[7] == games[0]
