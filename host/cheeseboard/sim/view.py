"""The terminal view of the virtual board: every pixel as a coloured cell, keys for buttons."""

import os
import select
import sys
import termios
import time
import tty

from cheeseboard.sim.control import press_levels

KEYS = {
    b"\x1b[D": "prev", b"h": "prev", b",": "prev",
    b"\x1b[C": "next", b"l": "next", b".": "next",
    b"\r": "ok", b"\n": "ok",
    b"\x7f": "back", b"\x08": "back", b"b": "back",
    b" ": "roll", b"r": "roll",
}
HELP = ("keys: \u2190/\u2192 prev/next  Enter ok  Backspace back  Space roll  "
        "p hold/let go roll (to see a secret hand)  q quit")
HOLD_KEY = b"p"  # a key has no "held": this one puts roll down, and the next lets it go

# One key press is one button press: held down, then released long enough for the firmware's
# 20 ms debounce to see each edge at a 10 ms tick.
PRESS_MS = 70
RELEASE_MS = 50


class KeyPresses:
    """Key presses waiting to be played on the board's pins, in the order they were typed.

    A pin takes one schedule at a time (a new one replaces what is left of the last), so a
    press goes out only when the one before it has been released: a burst of keys becomes
    that many presses, none merged, none dropped.
    """

    def __init__(self):
        self.waiting = []
        self.free_at = 0.0  # when the last press sent has been released (time.monotonic())

    def push(self, button):
        self.waiting.append(button)

    def due(self, now):
        """The next button to press now, or None."""
        if not self.waiting or now < self.free_at:
            return None
        self.free_at = now + (PRESS_MS + RELEASE_MS) / 1000
        return self.waiting.pop(0)

    def next_wait(self, now, idle=0.03):
        """How long the view may sleep before the next press falls due."""
        if not self.waiting:
            return idle
        return max(0.0, min(idle, self.free_at - now))


def pixel_positions(profile):
    """(x, y) of every pixel in the chain, from the profile's matrix description."""
    m = profile["matrix"]
    w, h = m["width"], m["height"]
    pos = []
    for i in range(profile["led"]["count"]):
        y, x = divmod(i, w)
        if m.get("serpentine") and y % 2:
            x = w - 1 - x
        pos.append((x, y))
    assert len(pos) <= w * h
    return pos


def draw(frame, profile, status=""):
    """The board as ANSI text: two spaces per pixel, 24-bit background colours."""
    pos = pixel_positions(profile)
    w, h = profile["matrix"]["width"], profile["matrix"]["height"]
    grid = [["\x1b[48;2;20;20;20m  "] * w for _ in range(h)]
    if frame:
        for i, (x, y) in enumerate(pos):
            r, g, b = frame[3 * i], frame[3 * i + 1], frame[3 * i + 2]
            grid[y][x] = "\x1b[48;2;%d;%d;%dm  " % (r, g, b)
    lines = ["".join(row) + "\x1b[0m" for row in grid]
    return "\x1b[H\x1b[2J" + "\r\n".join(lines) + "\r\n\r\n" + status + "\r\n" + HELP + "\r\n"


def run(board, profile, out=sys.stdout):
    """Show the board and turn keys into button presses until q or Ctrl-C."""
    if not sys.stdin.isatty():
        return run_plain(board, profile, out)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    shown = -1
    presses = KeyPresses()
    held = False
    try:
        while True:
            if board.frame_seq != shown:
                shown = board.frame_seq
                status = "board: %s   console: %s   frames: %d" % (
                    "on" if board.is_on else "off", board.pty_path, shown)
                out.write(draw(board.frame, profile, status))
                out.flush()
            button = presses.due(time.monotonic())
            if button and board.is_on:
                board.set_pin(button, press_levels(PRESS_MS))
            ready, _, _ = select.select([fd], [], [], presses.next_wait(time.monotonic()))
            if not ready:
                continue
            for key in split_keys(os.read(fd, 64)):
                if key in (b"q", b"\x03"):
                    return
                if key == HOLD_KEY and board.is_on:
                    held = not held
                    board.set_pin("roll", [(0, 0 if held else 1)])
                elif key in KEYS:
                    presses.push(KEYS[key])
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\n")


def split_keys(data):
    """The keys in one read of the terminal: a burst arrives as one chunk of bytes, where an
    arrow is a three-byte escape sequence and every other key one byte."""
    keys = []
    i = 0
    while i < len(data):
        n = 3 if data[i:i + 2] == b"\x1b[" else 1
        keys.append(data[i:i + n])
        i += n
    return keys


def run_plain(board, profile, out):
    """Without a terminal: print each new frame's lit pixels until interrupted."""
    shown = -1
    while True:
        if board.frame_seq != shown and board.frame:
            shown = board.frame_seq
            f = board.frame
            lit = [i for i in range(len(f) // 3) if f[3 * i] or f[3 * i + 1] or f[3 * i + 2]]
            out.write("frame %d: lit pixels %s\n" % (shown, lit))
            out.flush()
        time.sleep(0.05)
