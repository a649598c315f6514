"""The terminal view of the virtual board: every pixel as a coloured cell, keys for buttons."""

import os
import select
import sys
import termios
import time
import tty
from pathlib import Path

from cheeseboard import paths
from cheeseboard.sim.control import press_levels

KEYS = {
    b"\x1b[D": "prev", b"h": "prev", b",": "prev",
    b"\x1b[C": "next", b"l": "next", b".": "next",
    b"\r": "ok", b"\n": "ok",
    b"\x7f": "back", b"\x08": "back", b"b": "back",
    b" ": "roll", b"r": "roll",
}
HOLD_KEY = b"p"  # a key has no "held": this one puts roll down, and the next lets it go
TAKEBACK_KEY = b"u"  # prev held down past the firmware's long press: take back a move
TAKEBACK_MS = 900  # (the long press is 800 ms of the board's clock)

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

    def push(self, button, hold_ms=PRESS_MS):
        self.waiting.append((button, hold_ms))

    def due(self, now):
        """The next (button, how long it is held) to press now, or None."""
        if not self.waiting or now < self.free_at:
            return None
        button, hold_ms = self.waiting.pop(0)
        self.free_at = now + (hold_ms + RELEASE_MS) / 1000
        return button, hold_ms

    def next_wait(self, now, idle=0.03):
        """How long the view may sleep before the next press falls due."""
        if not self.waiting:
            return idle
        return max(0.0, min(idle, self.free_at - now))


CELL_W = 7  # characters per pixel: room for a space's id ("table", "seat 1") and a gap
DARK = (20, 20, 20)  # an unlit pixel, so that its label still shows


def draw(frame, profile, status="", game=None, playing=False):
    """The board as ANSI text, as the overlay lies in front of the players (pixel 0 at the
    bottom left): each pixel a cell of two lines in its colour, each space's id and name
    written across its cells, then a legend and what each key does now."""
    from cheeseboard import picture

    game = game or sorted(profile["maps"])[0]
    table = picture.read_table(game)
    m = profile["matrix"]
    cells = [[None] * m["width"] for _ in range(2 * m["height"])]  # [line][col] -> rgb
    text = [[""] * m["width"] for _ in range(2 * m["height"])]
    for px, (col, line) in enumerate(picture.grid(profile)):
        rgb = tuple(frame[3 * px:3 * px + 3]) if frame else (0, 0, 0)
        rgb = rgb if any(rgb) else DARK
        cells[2 * line][col] = cells[2 * line + 1][col] = rgb
    for region in picture.regions(profile, game, table):
        row = picture.label_row(profile, region)
        where = [picture.grid(profile)[p] for p in row]
        width = CELL_W * len(where)
        col, line = where[0]
        text[2 * line][col] = (" " + region.key)[:width].ljust(width)
        if region.name and region.name != region.key:
            text[2 * line + 1][col] = (" " + region.name)[:width].ljust(width)
    lines = []
    for r in range(len(cells)):
        out, skip = [], 0
        for c in range(m["width"]):
            label = text[r][c]
            if skip:
                skip -= 1
                continue
            if not label:
                out.append(_ansi(cells[r][c], " " * CELL_W))
                continue
            span = len(label) // CELL_W
            for k in range(span):  # a label across cells: each piece on its own colour
                out.append(_ansi(cells[r][c + k], label[k * CELL_W:(k + 1) * CELL_W]))
            skip = span - 1
        lines.append("".join(out) + "\x1b[0m")
    return ("\x1b[H\x1b[2J%s: %s\r\n" % (profile["name"], game) + "\r\n".join(lines)
            + "\r\n" + "\r\n".join(legend(table, playing)) + "\r\n" + status + "\r\n")


def _ansi(rgb, text):
    """text on an rgb background, in black or white, whichever reads better."""
    r, g, b = rgb
    ink = "30" if 299 * r + 587 * g + 114 * b > 128000 else "97"
    return "\x1b[48;2;%d;%d;%dm\x1b[%sm%s" % (r, g, b, ink, text)


# What the fixed lights say; the status light's own colours are the engine's (engine/draw.py).
LIGHTS = [
    "die: the dice, bottom up    seat N: whose turn (blinking), the others dim",
    "status: red = not allowed, orange = others may react (Enter to say who),",
    "        white = rolling, light blue = new rules (next game); else the move's mark",
]
KEYS_MENU = ("keys now (menu): \u2190/\u2192 the value on offer  Enter take it  "
             "Backspace the step before  Space colour-vision palette on/off  q quit")
KEYS_PLAY = ("keys now (game): \u2190/\u2192 the move on offer (blinking white)  Enter play it  "
             "Space roll  p hold/let go roll (a secret hand)  u take back (prev held)  "
             "Backspace (held) abandon  q quit")


def legend(table, playing):
    """The palette's colours by name, the fixed lights, and what the keys do (in a game or
    in the menu)."""
    names = {str(i): "player %d" % (i + 1) for i in range(6)}
    swatches = []
    palette = {k: v for k, v in table.get("palette", {}).items() if not k.startswith("cb:")}
    for key in sorted(palette, key=lambda k: (not k.isdigit(), k)):  # (cb: the option's)
        r, g, b = palette[key]
        swatches.append("\x1b[48;2;%d;%d;%dm  \x1b[0m %-11s" % (r, g, b, names.get(key, key)))
    rows = ["".join(swatches[i:i + 5]) for i in range(0, len(swatches), 5)]
    return rows + LIGHTS + [KEYS_PLAY if playing else KEYS_MENU]


def game_shown(profile, frame, flash_dir):
    """The game whose overlay the board shows: the one in its journal, or in the menu the one
    whose spaces are lit (the menu lights the game on offer, and nothing else on the map)."""
    import json

    try:
        with open(Path(flash_dir) / "journal.txt") as f:
            header = json.loads(f.readline()[9:])
        if header.get("game") in profile["maps"]:
            return header["game"], True
    except (OSError, ValueError, AttributeError):
        pass
    fixed = set(profile["die"]) | set(profile["seats"]) | {profile["status"]}
    fixed |= set(profile.get("meter", ()))
    lit = {i for i in range(len(frame or b"") // 3) if any(frame[3 * i:3 * i + 3])}
    # The menu offers the games in the firmware's order; the seat light of the one on offer is
    # lit (two overlays may cover the same pixels, as the kitchen's and Katz's do).
    offered = [g for g in paths.import_firmware("cheesefw.games").GAMES if g in profile["maps"]]
    seats = profile["seats"]
    for i, game in enumerate(offered):
        spaces = profile["maps"][game]
        if lit - fixed == {p for pixels in spaces.values() for p in pixels} and (
                seats[i % len(seats)] in lit):
            return game, False
    return None, False


def run(board, profile, out=sys.stdout):
    """Show the board and turn keys into button presses until q or Ctrl-C."""
    if not sys.stdin.isatty():
        return run_plain(board, profile, out)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    shown = None
    presses = KeyPresses()
    game = None
    held = False
    try:
        while True:
            now_showing = (board.frame_seq, board_state(board))
            if now_showing != shown:
                shown = now_showing
                status = "board: %s   console: %s   frames: %d" % (
                    shown[1], board.pty_path, shown[0])
                seen, playing = game_shown(profile, board.frame, board.flash_dir)
                game = seen or game  # between games' frames, the last overlay stays
                out.write(draw(board.frame, profile, status, game, playing))
                out.flush()
            due = presses.due(time.monotonic())
            if due and board.is_on:
                board.set_pin(due[0], press_levels(due[1]))
            ready, _, _ = select.select([fd], [], [], presses.next_wait(time.monotonic()))
            if not ready:
                continue
            for key in split_keys(os.read(fd, 64)):
                if key in (b"q", b"\x03"):
                    return
                if key == HOLD_KEY and board.is_on:
                    held = not held
                    board.set_pin("roll", [(0, 0 if held else 1)])
                elif key == TAKEBACK_KEY:
                    presses.push("prev", TAKEBACK_MS)
                elif key in KEYS:
                    presses.push(KEYS[key])
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\n")


def board_state(board):
    """What the board is doing, in the words of the status line."""
    if not board.is_on:
        return "off"
    if board.at_repl:
        return ("STOPPED at the REPL, its program is not running (`cheeseboard hello --port "
                "%s`, or Ctrl-D in a serial terminal, restarts it)" % board.pty_path)
    return "on"


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
