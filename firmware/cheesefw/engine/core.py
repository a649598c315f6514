"""The engine at the top: the menu, then a game, then the menu again; resume after a power cut.

At power-on the journal decides: a game whose journal holds a header resumes at
its last completed move; otherwise the board shows the menu. Nothing here knows
a game's rules: the game module is loaded by name when it is chosen.
"""

import gc
import json

from cheesefw import const
from cheesefw.engine.draw import Painter
from cheesefw.engine.journal import Journal
from cheesefw.engine.play import Play
from cheesefw.games import GAMES, load
from cheesefw.home import HOME, rules_files
from cheesefw.modules import forget

GAME_TABLE = "game_rules.json"  # the table of the game in progress, once a newer one came in
TABLE_COMMANDS = ("tables", "get", "put", "commit", "reset")
_TABLE_SIGNAL_MS = const(2000)  # the status light shows a new table is in, for the next game

_LOG_PAGE = const(20)  # moves per `log` reply, so that replies stay short


class Engine:
    def __init__(self, board):
        self.board = board
        self.profile = board.profile
        self.journal = Journal(board)
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
        from cheesefw import startup

        self.profile["maps"] = startup.read_maps(self.board)
        startup = None
        forget("cheesefw.startup")

    def handlers(self):
        """The engine's protocol commands: the rule tables', loaded when first used (a
        board that never syncs keeps that code's heap for play)."""
        return {name: self._table_command(name) for name in TABLE_COMMANDS}

    def _table_command(self, name):
        def run(request):
            if self._tables is None:
                from cheesefw.tables import Tables

                self._tables = Tables(self.board, self.in_play, GAME_TABLE)
            reply = self._tables.handlers()[name](request)
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
            return
        try:
            self._play(header, resume=True)
        except (ValueError, KeyError, ImportError, OSError) as e:
            # A journal this firmware cannot replay (a changed rule table, say): start afresh.
            print("journal not resumed: %s" % e)
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
        self.board.remove_file(GAME_TABLE)  # a table kept for an earlier game
        self.journal.start(header)
        try:
            self._play(header)
        except ValueError as e:  # no table it can play: the menu stays
            print("%s not started: %s" % (game, e))
            self._end_game()

    def _play(self, header, resume=False):
        # The menu, and the game module it imported for its options, go first, so that the
        # table's check has their heap (a game that cannot start brings the menu back:
        # _end_game). The check sets the game up on the table with its schema let go, and
        # keeps the game's code imported for play (imported once, in one piece).
        self.scene = None
        self._close_menu(header["game"])
        forget("cheesefw.games.")
        gc.collect()
        game = header["game"]
        rules = self._game_rules(game, resume)
        module = load(game)  # (imported once: the check kept it)
        painter = Painter(self.profile, game, rules.get("palette", {}), rules.get("signs"),
                          header.get("vision", False))
        self.scene = Play(module, rules, header["options"], header["seed"], self.journal,
                          painter, resume, header.get("seats", ()), self.board,
                          lambda: self._game_rules(game, True))
        # Checked and read: the palette is the painter's now, as bytes (a game that keeps its
        # table keeps the rest).
        rules.pop("palette", None)
        gc.collect()

    def _game_rules(self, game, resume):
        """The table of the game in progress: the one it started with, kept aside if a newer
        one came in since it started (resume False: a game just starting has none kept)."""
        kept = self.board.read_file(GAME_TABLE) if resume else None
        return json.loads(kept) if kept else load_rules(self.board, game, True)

    def on_button(self, name, event, now):
        scene = self.scene
        if scene is not self.menu and scene.wait == "over" and event == "press" and name == "ok":
            self._end_game()  # the game is done: back to the menu
            return True
        if scene is not self.menu and name == "back" and event == "long":
            self._end_game()  # a long press on back abandons the game
            return True
        return scene.on_button(name, event, now)

    def _end_game(self):
        self.journal.clear()
        self.board.remove_file(GAME_TABLE)
        self.scene = None  # the game's heap is free before the menu's comes back
        forget("cheesefw.games.")  # and its modules' (the next game imports its own)
        gc.collect()
        self._read_maps()
        self._open_menu()

    def update(self, now):
        return self.scene.update(now)

    def draw(self, frame):
        self.scene.draw(frame)

    def describe(self):
        return self.scene.describe()

    def log(self, start):
        """A page of the game's moves from start, for the protocol's `log` (deals hidden)."""
        if self.scene is self.menu:
            raise ValueError("no game in progress")
        if not isinstance(start, int) or start < 0:
            raise ValueError("from: expected a move number >= 0, got %r" % (start,))
        return self.scene.log(start, _LOG_PAGE)


def load_rules(board, game, playing=False):
    """The game's rule table: the synced one, else the firmware's default. Each is checked
    as a table taken in over the protocol is (table_check): one that fails (synced by an
    older firmware, say) is passed over, with the reason on the console, so that a game
    never starts on a table it would trip over. A table this firmware checked before, unchanged
    since, is not checked again (cheesefw.checked: the check's names would stay in the heap).
    playing: the game is played next, so the check keeps its modules imported."""
    from cheesefw import checked

    try:
        for name in rules_files(game):
            data = board.read_file(name)
            if data is None:
                continue
            stamp = checked.stamp(board.read_file, checked.digest(data))
            if checked.passed(board.read_file, name, stamp):
                return json.loads(data)
            from cheesefw import table_check

            try:
                rules = table_check.check(
                    data, game, lambda: table_check.load_schema(board, HOME, game), playing)
            except (ValueError, MemoryError, RuntimeError) as e:
                print("%s: passed over: %s" % (name, e))
                continue
            checked.record(board, name, stamp)
            return rules
        raise ValueError("no rule table for %s that this firmware can play" % game)
    finally:
        forget("cheesefw.table_check", "cheesefw.schema", "cheesefw.checked")  # their heap back
