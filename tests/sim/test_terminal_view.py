"""The terminal view as a person meets it: the installed `cheeseboard sim`, run from a folder
outside the repository in a pseudo-terminal of a given size, played with keys.

These keep the wall's clock, as a person's terminal does: the view turns keys into presses
spaced by the wall's time, and nothing in a terminal moves a virtual board's clock. Their waits
are for a screen to appear (bounded), not for a time to pass."""

import fcntl
import os
import pty
import re
import struct
import subprocess
import termios
import threading
import time

import pytest
from installed import CHEESEBOARD, user_env

from cheeseboard.sim import view

pytestmark = pytest.mark.wall

CLEAR = "\x1b[H\x1b[2J"
SCREEN_END = re.compile(r"frames: \d+$|\(q quits\)$|\n$")


class Terminal:
    """`cheeseboard sim` in a pseudo-terminal of cols x rows; what it last drew."""

    def __init__(self, home, cols, rows, *args):
        home.mkdir(parents=True, exist_ok=True)
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.cols, self.rows = cols, rows
        self.master = master
        self.proc = subprocess.Popen(
            [CHEESEBOARD, "sim", "--fresh", "--seed", "1", "--flash", str(home / "flash"), *args],
            cwd=str(home), env=user_env(home), stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True)
        os.close(slave)
        self.output = ""
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self.output += data.decode("utf-8", "replace")

    def wait_for(self, pattern, seconds=60):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self._lock:
                screens = self.output.split(CLEAR)
            if re.search(pattern, screens[-1]):
                return self._whole(len(screens) - 1, deadline)
            time.sleep(0.05)
        raise AssertionError("no %r on the screen within %d s; it shows:\n%s"
                             % (pattern, seconds, self.output.split(CLEAR)[-1][-2000:]))

    def _whole(self, index, deadline):
        """Screen number index once all of it has come: the view writes a screen at once, but
        the terminal may hand it over in pieces. A screen ends with its status line (or the
        too-small terminal's "q quits", or the line the view ends with); a later screen means
        this one is whole too."""
        while True:
            with self._lock:
                screens = self.output.split(CLEAR)
            if len(screens) > index + 1 or SCREEN_END.search(screens[index]) \
                    or time.monotonic() > deadline:
                return screens[index]
            time.sleep(0.05)

    def keys(self, text, pause=0.3):
        for ch in text:
            os.write(self.master, ch.encode())
            time.sleep(pause)

    def close(self):
        try:
            os.write(self.master, b"q")
            self.proc.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)

    def assert_fits(self, text):
        """Every line of a screen within the terminal: nothing scrolls away, nothing wraps."""
        lines = re.split(r"\r*\n", text)  # (the terminal adds a CR before each LF)
        assert len(lines) <= self.rows, (len(lines), text)
        for line in lines:
            assert view.visible_width(line) <= self.cols, line


def choose(t, step, value):
    """In the menu, press next until the step offers value (the words say which)."""
    for _ in range(12):
        shown = re.search(r"menu: %s = (\S+) " % step, t.wait_for(r"menu: %s = " % step)).group(1)
        if shown == value:
            return
        t.keys(".")
        t.wait_for(r"menu: %s = (?!%s )" % (step, shown))
    raise AssertionError("the menu never offered %s = %s" % (step, value))


@pytest.fixture
def terminal(tmp_path):
    opened = []

    def make(cols=80, rows=24, *args):
        t = Terminal(tmp_path / ("home%d" % len(opened)), cols, rows, *args)
        opened.append(t)
        return t

    yield make
    for t in opened:
        t.close()


def test_an_80x24_terminal_shows_the_whole_menu_with_its_option_and_value_in_words(terminal):
    t = terminal()
    first = t.wait_for(r"menu: game = (\w+)")
    t.assert_fits(first)
    assert "pico: " in first.split("\r\n")[0]  # the title did not scroll away
    offered = re.search(r"menu: game = (\w+)", first).group(1)
    t.keys(".")
    second = t.wait_for(r"menu: game = (?!%s)\w+" % offered)
    t.assert_fits(second)
    choose(t, "game", "gouda")
    t.keys("\r")
    t.assert_fits(t.wait_for(r"menu: players = 2 "))


def test_the_move_on_offer_is_named_and_a_abandons_the_game(terminal):
    t = terminal()
    choose(t, "game", "gouda")
    t.keys("\r")
    t.wait_for(r"menu: players = 2 ")
    t.keys("\r")
    for _ in range(12):  # the other options as they are offered (every seat a person's)
        step = re.search(r"menu: (.+?) = |$", t.wait_for(r"menu: |to choose")).group(1)
        if not step:
            break
        t.keys("\r")
        t.wait_for(r"menu: (?!%s = )|to choose" % re.escape(step))
    # Gouda begins with each player placing a mouse on a start space.
    first = t.wait_for(r"gouda, move 0: player 1 to choose: put your mice on \w+ \(one of 3\)")
    t.assert_fits(first)
    offered = re.search(r"to choose: (put your mice on \w+)", first).group(1)
    t.keys(".")
    t.assert_fits(t.wait_for(r"player 1 to choose: (?!%s )put your mice on \w+" % offered))
    t.keys("\r")
    t.assert_fits(t.wait_for(r"gouda, move 1: player 2 to choose: put your mice on \w+"))
    t.keys("a")
    t.wait_for(r"menu: game = ", seconds=30)


def test_a_16x16_board_fits_80x24_and_a_small_terminal_is_told_the_size_needed(terminal):
    t = terminal(80, 24, "--profile", "pico16")
    t.assert_fits(t.wait_for(r"menu: game = "))
    small = terminal(60, 20, "--profile", "pico16")
    said = small.wait_for(r"needs at least")
    assert "this terminal is 60x20: the board's view needs at least 80x" in " ".join(said.split())
    small.assert_fits(said)


def test_a_hidden_hand_says_how_to_see_it_and_where_it_shows(terminal):
    t = terminal(80, 24, "--profile", "pico16")
    choose(t, "game", "gatenkaas")
    t.keys("\r")
    for _ in range(12):  # the options and seats as offered: hands hidden, every seat a person
        step = re.search(r"menu: (.+?) = |$", t.wait_for(r"menu: |hidden hand")).group(1)
        if not step:
            break
        t.keys("\r")
        t.wait_for(r"menu: (?!%s = )|hidden hand" % re.escape(step))
    said = t.wait_for(r"a hidden hand: hold roll down to see it \(key p\)")
    t.assert_fits(said)
    assert "pale where it would lie" in said and "Enter lays it (unseen: refused)" in said
    # Holding roll shows the hand: the card on offer in words, and where to look
    t.keys("p")
    seen = t.wait_for(r"roll let go hides it")
    t.assert_fits(seen)
    assert re.search(r"player \d's hand: lay (card|cat) \d+: blocks \d+, feeds \d+ "
                     r"\(one of \d+\)\r", seen)
    assert "the card shows pale where it would lie" in seen
    t.keys("p")  # let go: the hand is hidden again, in the words too
    assert "hold roll down to see it" in t.wait_for(r"hold roll down")


def test_the_next_player_s_first_p_shows_their_hand_and_the_keys_say_roll_is_held(terminal):
    t = terminal(80, 24, "--profile", "pico16")
    choose(t, "game", "gatenkaas")
    t.keys("\r")
    for _ in range(12):  # the options and seats as offered: hands hidden, every seat a person
        step = re.search(r"menu: (.+?) = |$", t.wait_for(r"menu: |hidden hand")).group(1)
        if not step:
            break
        t.keys("\r")
        t.wait_for(r"menu: (?!%s = )|hidden hand" % re.escape(step))
    first = re.search(r"(player \d), a hidden hand", t.wait_for(r"a hidden hand")).group(1)
    assert "roll is HELD DOWN" not in t.wait_for(r"a hidden hand")
    t.keys("p")
    assert "roll is HELD DOWN (p lets go)" in t.wait_for(r"%s's hand: lay" % first)
    t.keys("\r")  # laid while roll is held; the next player's hand is hidden
    nxt = re.search(r"(player \d), a hidden hand",
                    t.wait_for(r"(?!%s)player \d, a hidden hand" % first)).group(1)
    t.keys("p")  # their first p: their hand
    t.wait_for(r"%s's hand: lay" % nxt, seconds=30)
    t.keys("q")  # the board goes off mid-game: its game is kept, and the terminal says so
    t.wait_for(r"the board is off; its game is kept: the next `cheeseboard sim` \(make play\)")
