"""Drive the engine as players do, with buttons only, and watch what it reports.

`CpuBoard` runs the engine on CPython with a clock the test controls (fast, for
many games); `play_with_buttons` plays a whole game on any board that offers
press(name) and state(): the CPython one here, or the virtual board.
"""

import io
import json
from pathlib import Path

from cheesefw.engine.core import Engine
from cheesefw.hal.base import Board
from cheesefw.profile_file import pack_maps

ROOT = Path(__file__).resolve().parents[2]
PROFILE = json.loads((ROOT / "hardware/profiles/pico.json").read_text())


def load_profile(name):
    return json.loads((ROOT / "hardware/profiles" / (name + ".json")).read_text())


class MemoryBoard(Board):
    """A board whose flash is a dict and whose clock only moves when told."""

    def __init__(self, files=None, seed=1, profile=PROFILE):
        self.files = files if files is not None else {}
        self.now = 0
        self.seed = seed
        # Its own copy (the engine changes it), the maps packed as app.start packs a board's;
        # the file, for the menu to read the maps from again after a game.
        self.profile_json = json.dumps(profile).encode()
        profile = json.loads(self.profile_json)
        for spaces in profile["maps"].values():
            for sid in spaces:
                spaces[sid] = bytes(spaces[sid])
        pack_maps(profile)
        Board.__init__(self, profile)

    def _make_pin(self, name, pin_id):
        return None

    def read_file(self, name):
        if name.endswith("profile.json") and name not in self.files:
            return self.profile_json
        if name.startswith("rules/"):
            return (ROOT / "firmware" / name).read_bytes()
        if "../host/" in name:  # the schemas, as a firmware run from a checkout has them
            return (ROOT / name.split("../", 1)[1]).read_bytes()
        return self.files.get(name)

    def write_file(self, name, data):
        self.files[name] = bytes(data)

    def remove_file(self, name):
        self.files.pop(name, None)

    def append_file(self, name, text):
        self.files[name] = self.files.get(name, b"") + text.encode()

    def open(self, name, mode="r"):
        if mode == "r" and name.endswith("profile.json") and name not in self.files:
            return io.StringIO(self.profile_json.decode())
        if mode == "r":
            if name not in self.files:
                raise OSError(2, "no such file: %s" % name)
            return io.StringIO(self.files[name].decode("utf-8", "replace"))
        return _WriteBack(self.files, name)

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)

    def random_seed(self):
        return self.seed

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b  # (a clock that stands still while the engine runs: a board's thinking
        # never spends its slice of a tick here, and each decision is thought through at once)


class _WriteBack(io.StringIO):
    """A file opened for writing in a MemoryBoard: stored when closed."""

    def __init__(self, files, name):
        super().__init__()
        self.files, self.name = files, name

    def close(self):
        self.files[self.name] = self.getvalue().encode()
        super().close()


class CpuTable:
    """The engine on CPython: press() sends a press event, time moves by itself."""

    def __init__(self, board=None):
        self.board = board or MemoryBoard()
        self.engine = Engine(self.board)
        self.frame = bytearray(3 * self.board.pixel_count)

    def press(self, name):
        self.board.now += 50
        self.engine.on_button(name, "press", self.board.now)
        self.engine.update(self.board.now)

    def hold(self, name):
        self.press(name)

    def release(self, name):
        self.board.now += 50
        self.engine.on_button(name, "release", self.board.now)
        self.engine.update(self.board.now)

    def wait(self, ms):
        self.board.now += ms
        self.engine.update(self.board.now)
        self.engine.draw(self.frame)

    def state(self):
        return self.engine.describe()


def choose_options(table, game, options):
    """Walk the menu: pick the game, then each option's value, with next and ok."""
    while table.state()["value"] != game:
        table.press("next")
    table.press("ok")
    while table.state()["mode"] == "menu":
        s = table.state()
        want = options.get(s["step"], s["choices"][0])
        while table.state()["value"] != want:
            table.press("next")
        table.press("ok")


def play_with_buttons(table, pick, react=None, max_steps=20000):
    """Play until the game ends; pick(state) -> how many `next` presses before ok.

    react(state) -> None to let a reaction window close, or (seat, next presses).
    Returns the number of button presses made.
    """
    presses = 0
    for _ in range(max_steps):
        s = table.state()
        wait = s["wait"]
        if wait == "over":
            return presses
        if wait == "decide":
            private = s.get("private")
            if private:  # a secret hand: its player holds roll to see (and play) it
                table.hold("roll")
                for _ in range(40):  # a loaded virtual board may take a few ticks to see it
                    s = table.state()
                    if s.get("private") is False:
                        break
                    table.wait(50)
                assert "offer" in s and s.get("private") is False
            for _ in range(pick(s)):
                table.press("next")
                presses += 1
            table.press("ok")
            presses += 1
            if private:
                table.release("roll")
        elif wait == "roll":
            table.press("roll")
            presses += 1
            table.wait(800)
        elif wait in ("rolling", "bot"):
            table.wait(300)
        elif wait == "window":
            choice = react(s) if react else None
            if choice is None:
                table.wait(5100)
                continue
            seat, steps = choice
            table.press("ok")
            for _ in range(seat):
                table.press("next")
            table.press("ok")
            presses += 2 + seat
            if table.state()["wait"] != "react":
                table.press("back")
                table.wait(5100)
                continue
            for _ in range(steps):
                table.press("next")
            table.press("ok")
            presses += steps + 1
        else:
            raise AssertionError("unexpected wait %r" % wait)
    raise AssertionError("the game did not end in %d steps" % max_steps)


class VirtualTable:
    """The same driving on the virtual board: pins pressed on the side channel, state read
    over the serial protocol (observation only: every choice is made with the buttons)."""

    # Held long enough to pass the 20 ms debounce wherever the press falls between two 10 ms
    # ticks (in virtual time it starts on a tick: the samples 10, 20 and 30 ms later must all
    # see it down).
    PRESS_MS = 40
    GAP_S = 0.075  # until the release has been debounced too

    def __init__(self, vboard):
        self.vboard = vboard
        self.presses = 0

    def press(self, name):
        self.vboard.link.press(name, hold_ms=self.PRESS_MS)
        self.presses += 1
        self.vboard.sleep(self.GAP_S)

    def hold(self, name):
        self.vboard.link.hold(name)
        self.presses += 1
        self.vboard.sleep(self.GAP_S)

    def release(self, name):
        self.vboard.link.release(name)
        self.vboard.sleep(self.GAP_S)

    def wait(self, ms):
        self.vboard.sleep(ms / 1000)

    def state(self):
        return self.vboard.request("state")["state"]
