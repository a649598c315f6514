"""The main loop: buttons, console and timers in; LED frames out; one tick at a time."""

import gc
import json
import sys

from cheesefw import VERSION, hal, protocol, render
from cheesefw.buttons import Buttons
from cheesefw.home import HOME

TICK_MS = 10
PROFILE_FILE = "profile.json"  # in HOME, flashed with the firmware
UP_MS = 3000  # a new firmware counts as up once its main loop has run this long


class App:
    def __init__(self, board, scene):
        self.board = board
        self.scene = scene
        self.buttons = Buttons(board)
        self.limiter = render.PowerLimiter(board.profile["led"])
        self.server = protocol.Server(board.console_write, self.handlers())
        self._work = render.new_frame(board.pixel_count)
        self._shown = render.new_frame(board.pixel_count)
        self._out = render.new_frame(board.pixel_count)
        self._dirty = True
        self.frames_written = 0

    def handlers(self):
        handlers = {"hello": self.cmd_hello, "state": self.cmd_state, "log": self.cmd_log}
        more = getattr(self.scene, "handlers", None)
        if more:  # the engine's own commands (the rule tables')
            handlers.update(more())
        return handlers

    def cmd_hello(self, request):
        gc.collect()
        return {
            "firmware": VERSION,
            "profile": self.board.profile["name"],
            "platform": sys.platform,
            "heap_free": gc.mem_free(),
            "slot": _slot_state(),
        }

    def cmd_state(self, request):
        # A stuck button is reported here, and ignored until it comes free.
        return {"state": self.scene.describe(), "stuck": self.buttons.stuck()}

    def cmd_log(self, request):
        return self.scene.log(request.get("from", 0))

    def tick(self):
        """One pass of the main loop; writes a frame only when it changed."""
        board = self.board
        board.poll()
        now = board.ticks_ms()
        for name, event in self.buttons.events():
            if self.scene.on_button(name, event, now):
                self._dirty = True
        data = board.console_read()
        if data:
            self.server.feed(data)
        if self.scene.update(now):
            self._dirty = True
        if self._dirty:
            self._dirty = False
            self.scene.draw(self._work)
            if self._work != self._shown:
                self._shown[:] = self._work
                self.limiter.limit(self._work, self._out)
                board.show(self._out)
                self.frames_written += 1

    def run(self, up=None, feed=None):
        """Tick forever; call up() once, when the loop has run for UP_MS and answers the
        protocol; feed() (the watchdog's) every tick."""
        board = self.board
        began = board.ticks_ms()
        while True:
            start = board.ticks_ms()
            self.tick()
            if feed:
                feed()
            if up and board.ticks_diff(start, began) >= UP_MS:
                self.server.handlers["hello"]({})  # a reply could be made: raises if not
                up()
                up = None
            left = TICK_MS - board.ticks_diff(board.ticks_ms(), start)
            if left > 0:
                board.sleep_ms(left)


def _slot_state():
    """slot.json: the active firmware slot, and whether a new firmware is on trial (it
    tells `cheeseboard flash` how an update went)."""
    try:
        with open("slot.json") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _pack(pixels):
    """A list of pixel indices as bytes (a quarter of a list's heap) when they fit in a byte."""
    for p in pixels:
        if not 0 <= p < 256:
            return pixels
    return bytes(pixels)


def load_profile():
    """The board's hardware profile, with its pixel lists packed into bytes to save heap."""
    with open(HOME + PROFILE_FILE) as f:
        profile = json.load(f)
    for key in ("die", "seats", "meter"):
        if key in profile:
            profile[key] = _pack(profile[key])
    for game in profile["maps"]:
        spaces = profile["maps"][game]
        for space in spaces:
            spaces[space] = _pack(spaces[space])
    for key in ("notes", "bom", "supply", "title"):  # for people and the host, not the board
        profile.pop(key, None)
    return profile


def import_every_game(feed=None):
    """Import each game module once, and let it go (a new firmware's trial: a game whose
    module does not import would otherwise crash the board only when it is chosen)."""
    from cheesefw.games import GAMES

    for name in GAMES:
        __import__("cheesefw.games." + name)
        package = sys.modules["cheesefw.games"]
        for module in [m for m in sys.modules if m.startswith("cheesefw.games.")]:
            del sys.modules[module]
            try:
                delattr(package, module[len("cheesefw.games."):])
            except (AttributeError, KeyError):  # (MicroPython: KeyError when it is not there)
                pass
        gc.collect()
        if feed:
            feed()


def main(up=None, feed=None):
    """Run the board; up() is called once the main loop has run for UP_MS (main.py's
    health check of a new firmware), feed() every tick (its watchdog's)."""
    if up:
        import_every_game(feed)
    profile = load_profile()
    from cheesefw import profile_check

    errors = profile_check.check(profile)
    if errors:
        # Nothing lit or read would be right: say why on the console, and stop at the REPL.
        for e in errors:
            print("profile.json: " + e)
        return
    # It runs once: give its heap back (about 4 KB), with the rule tables it read.
    del sys.modules["cheesefw.profile_check"], profile_check
    delattr(sys.modules["cheesefw"], "profile_check")
    gc.collect()
    board = hal.open_board(profile)
    from cheesefw.engine.core import Engine

    App(board, Engine(board)).run(up, feed)
