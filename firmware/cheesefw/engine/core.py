"""The engine at the top: the menu, then a game, then the menu again; resume after a power cut.

At power-on the journal decides: a game whose journal holds a header resumes at
its last completed move; otherwise the board shows the menu. Nothing here knows
a game's rules: the game module is loaded by name when it is chosen.
"""

import gc
import json

from cheesefw import const
from cheesefw.engine.draw import Painter
from cheesefw.games import GAMES, load
from cheesefw.home import HOME, rules_files
from cheesefw.modules import forget

# The table of the game in progress, once a newer one came in.
_GAME_TABLE = const("game_rules.json")
_TABLE_COMMANDS = const(("tables", "get", "put", "commit", "reset"))
_TABLE_SIGNAL_MS = const(2000)  # the status light shows a new table is in, for the next game

_LOG_PAGE = const(20)  # moves per `log` reply, so that replies stay short
_NO_HEAP = const("not enough heap on this board for this game; the board plays on")
# While a game starts, its garbage (the table read and checked, the game set up: a few times the
# heap) is collected every _START_GARBAGE bytes allocated, not once the heap has run out: what
# the game keeps then lies in the low part of the heap, not strewn up to its top. A collection
# frees by walking every block up to the highest one in use (MicroPython's gc.c, the sweep):
# Gatenkaas's, as .mpy files on the emulated Pico, took 8.0-8.3 ms with a few blocks left at the
# top, 6.8-7.1 ms with them low (8 KB did no better than 16; the start took 1.29 -> 1.57 s).
_START_GARBAGE = const(16384)
# A game's modules and the engine's for play: let go when the game ends (the next game imports
# its own, and the engine's play again)
GAME_MODULES = ("cheesefw.games.", "cheesefw.engine.play", "cheesefw.engine.rng",
                "cheesefw.engine.takeback")


class Engine:
    def __init__(self, board):
        self.board = board
        self.profile = board.profile
        self.journal = board.journal()
        self.menu = None
        self._tables = None
        # The colour-vision palette: the profile's default, then the menu's last choice.
        self.vision = board.profile.get("vision") == "colour-blind"
        for game in GAMES:  # what an upload cut off (a power cut, a crash) left behind
            board.remove_file("rules/%s.json.new" % game)
        self._open_menu()
        self._resume()

    # A board carries only what it plays: during a game neither the menu's code nor the other
    # games' maps are in the heap (the maps are packed, draw.PackedMap, and the painter walks
    # the one in play as it is); the menu reads them again from the profile when it comes back.

    def _open_menu(self):
        from cheesefw.engine.menu import Menu

        self.menu = self.scene = Menu(self.profile, self.start_game, self.seat_count,
                                      self.vision)

    def _close_menu(self, game):
        self.menu = None
        forget("cheesefw.engine.menu", on_host=True)
        maps = self.profile["maps"]
        for name in [g for g in maps if g != game]:
            del maps[name]

    def _read_maps(self):
        """Every game's map again, from the profile: the menu lights the chosen game's."""
        from cheesefw import profile_file

        self.profile["maps"] = profile_file.read_maps(self.board)
        profile_file = None
        forget("cheesefw.profile_file")

    def handlers(self):
        """The engine's protocol commands: the rule tables', loaded when first used (a
        board that never syncs keeps that code's heap for play)."""
        return {name: self._table_command(name) for name in _TABLE_COMMANDS}

    def _table_command(self, name):
        def run(request):
            if self._tables is None:
                from cheesefw.tables import Tables

                self._tables = Tables(self.board, self.in_play, _GAME_TABLE)
            try:
                reply = self._tables.handlers()[name](request)
            finally:
                if name in ("commit", "reset"):  # an upload's end: the code and its check go
                    self._tables = None
                    forget("cheesefw.tables", "cheesefw.table_check", "cheesefw.schema",
                           "cheesefw.checked")
                    gc.collect()
            if reply.get("applies") == "next game":  # say so on the board too
                self.scene.signal = "new-rules"
                self.scene.signal_until = self.board.ticks_ms() + _TABLE_SIGNAL_MS
            return reply

        return run

    def in_play(self):
        """The name of the game in progress, or None."""
        scene = self.scene
        if scene is self.menu or scene.wait == "over":
            return None
        return scene.module.NAME

    def _resume(self):
        header = self.journal.header()
        if header is None:
            self.journal.set_aside()  # a file whose first line names no game, if any
            return
        try:
            self._play(header, resume=True)
        except Exception as e:
            # A journal this firmware cannot replay (a changed rule table, a move it cannot
            # play): kept aside, never lost, and the menu comes back.
            self.journal.set_aside(e)
            self._end_game()

    def seat_count(self, game, options):
        """How many seats the game has with these options (its state, made and let go)."""
        rules = load_rules(self.board, game)
        n = load(game).State(rules, options).num_players()
        rules = None
        gc.collect()
        return n

    def start_game(self, game, options, seats=(), vision=None):
        """A new game; seats: the [seat, level] pairs the board plays (besides the game's own);
        vision: True for the colour-vision palette (None: as the last game)."""
        header = {"game": game, "options": options, "seed": self.board.random_seed()}
        if seats:
            header["seats"] = list(seats)
        if vision is not None:
            self.vision = vision
        if self.vision:
            header["vision"] = True
        self.board.remove_file(_GAME_TABLE)  # a table kept for an earlier game
        self.journal.start(header)
        try:
            self._play(header)
        except (ValueError, MemoryError) as e:  # no table it can play, or no heap: the menu
            self._not_started(game, e)

    def _not_started(self, game, e):
        """A game that cannot start: the menu comes back and says why (its `refused`)."""
        why = str(e) if isinstance(e, ValueError) else _NO_HEAP
        e = None
        print("%s not started: %s" % (game, why))  # (first: the way back may fall too)
        self._end_game()
        self.menu.refused = "%s: %s" % (game, why)

    def _refused(self, game, why):
        print("%s not started: %s" % (game, why))
        self.menu.refused = "%s: %s" % (game, why)

    def _play(self, header, resume=False):
        # The menu, and the game module it imported for its options, go first, so that the
        # table's check has their heap (a game that cannot start brings the menu back:
        # _end_game). The check sets the game up on the table with its schema let go, and
        # keeps the game's code imported for play (imported once, in one piece).
        self.scene = None
        self._close_menu(header["game"])
        self._tables = None  # the table commands' code (the check's modules go after the
        forget("cheesefw.games.", "cheesefw.tables")  # check: load_rules)
        gc.collect()
        # (MicroPython's; not CPython's, where the tests run the engine too, nor every port's)
        threshold = getattr(gc, "threshold", None)
        if threshold:
            threshold(_START_GARBAGE)
        try:
            # The engine's play (not the menu's: let go after the game) comes in first, while
            # the heap is whole: imported after the table it would look for room among the
            # table's pieces, and a Gatenkaas deck on a 16x16 board leaves none of its size.
            from cheesefw.engine.play import Play

            game = header["game"]
            rules = self._game_rules(game, resume)
            module = load(game)  # (imported once: the check kept it)
            painter = Painter(self.profile, game, rules.get("palette", {}), rules.get("signs"),
                              header.get("vision", False))
            self.scene = Play(module, rules, header["options"], header["seed"], self.journal,
                              painter, resume, header.get("seats", ()), self.board,
                              lambda: self._game_rules(game, True))
            # Checked and read: the palette is the painter's now, as bytes (a game that keeps
            # its table keeps the rest).
            rules.pop("palette", None)
        finally:
            if threshold:
                threshold(-1)  # (in play, the App collects in a tick of its own)
        gc.collect()

    def _game_rules(self, game, resume):
        """The table of the game in progress: the one it started with, kept aside if a newer
        one came in since it started (resume False: a game just starting has none kept), else
        the synced one; each read within its bound and checked (load_rules), so a damaged kept
        table is passed over."""
        return load_rules(self.board, game, True, _GAME_TABLE if resume else None)

    def on_button(self, name, event, now):
        # ok once the game is over (back to the menu), or a long press on back (abandon); the
        # game is not held here while it ends (its heap goes first)
        if self.scene is not self.menu and (
                (name == "ok" and event == "press" and self.scene.wait == "over")
                or (name == "back" and event == "long")):
            self._end_game()
            return True
        if self.scene is not self.menu:
            return self.scene.on_button(name, event, now)
        try:
            return self.menu.on_button(name, event, now)
        except MemoryError:  # a game's options or seats that find no heap: refused too
            pass
        # Out of the except clause (its traceback holds the frames that imported the game): the
        # menu starts again with the game's module let go. Its maps were never let go (a game
        # not yet started), so none is read again.
        game = self.menu.games[self.menu.values[0]]
        self.vision = self.menu.vision
        self.scene = self.menu = None
        forget("cheesefw.games.")
        gc.collect()
        self._open_menu()
        self._refused(game, _NO_HEAP)
        return True

    def _end_game(self):
        self.journal.clear()
        self.board.remove_file(_GAME_TABLE)
        # (no scene: a game that ran out of heap before its play was made)
        played = None if self.menu or self.scene is None else self.scene.module.NAME
        if self.menu:  # the palette the menu was left on holds for the menu that comes back
            self.vision = self.menu.vision
        # The game's heap is free before the menu's comes back (a menu that had imported a game
        # for its options, too).
        self.scene = self.menu = None
        # and its modules'
        forget(*GAME_MODULES)
        gc.collect()
        self._read_maps()
        self._open_menu()
        if played in self.menu.games:  # the menu comes back with the game just played on offer
            self.menu.values[0] = self.menu.games.index(played)

    def update(self, now):
        return self.scene.update(now)

    def draw(self, frame):
        self.scene.draw(frame)

    def describe(self):
        return self.scene.describe()

    def log(self, start):
        """A page of the game's moves from start (an int >= 0), for the protocol's `log` (deals
        hidden)."""
        if self.scene is self.menu:
            raise ValueError("no game in progress")
        return self.scene.log(start, _LOG_PAGE)


def load_rules(board, game, playing=False, kept=None):
    """The game's rule table: kept (the file of the table a game in progress started with),
    else the synced one, else the firmware's default. Each is checked as a table taken in over
    the protocol is (table_check): one that fails (synced by an older firmware, say, or
    unreadable) is passed over, with the reason on the console, so that a game never starts
    on a table it would trip over. A table this firmware checked before, unchanged since, is
    not checked again (cheesefw.checked: the check's names would stay in the heap).
    playing: the game is played next, so the check keeps its modules imported."""
    from cheesefw import checked

    try:
        for name in ((kept,) if kept else ()) + rules_files(game):
            try:
                data = board.read_file(name)
            except ValueError as e:  # too large to read
                print("%s: passed over: %s" % (name, e))
                continue
            if data is None:
                continue
            stamp = checked.stamp(board.read_file, checked.digest(data))
            if checked.passed(board.read_file, name, stamp):
                return json.loads(data)
            from cheesefw import table_check

            try:
                rules = table_check.check(
                    data, game, lambda: table_check.load_schema(board, HOME, game), playing)
            except (ValueError, RuntimeError) as e:  # (a MemoryError is no fault of the table)
                print("%s: passed over: %s" % (name, e))
                continue
            checked.record(board, name, stamp)
            return rules
        raise ValueError("no rule table for %s that this firmware can play" % game)
    finally:
        forget("cheesefw.table_check", "cheesefw.schema", "cheesefw.checked")  # their heap back
