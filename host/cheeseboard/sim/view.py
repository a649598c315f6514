"""The terminal view of the virtual board: every pixel as a coloured cell, keys for buttons."""

import os
import select
import sys
import termios
import time
import tty

KEYS = {
    b"\x1b[D": "prev", b"h": "prev", b",": "prev",
    b"\x1b[C": "next", b"l": "next", b".": "next",
    b"\r": "ok", b"\n": "ok",
    b"\x7f": "back", b"\x08": "back", b"b": "back",
    b" ": "roll", b"r": "roll",
}
HELP = "keys: \u2190/\u2192 prev/next  Enter ok  Backspace back  Space roll  q quit"


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
    try:
        while True:
            if board.frame_seq != shown:
                shown = board.frame_seq
                status = "board: %s   console: %s   frames: %d" % (
                    "on" if board.is_on else "off", board.pty_path, shown)
                out.write(draw(board.frame, profile, status))
                out.flush()
            ready, _, _ = select.select([fd], [], [], 0.03)
            if not ready:
                continue
            key = os.read(fd, 8)
            if key in (b"q", b"\x03"):
                return
            button = KEYS.get(key)
            if button and board.is_on:
                board.set_pin(button, [(0, 0), (80, 1)])
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\n")


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
