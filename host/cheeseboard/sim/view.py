"""The terminal view of the virtual board: every pixel as a coloured cell, keys for buttons,
and what the board is doing in words (the firmware's own `state`, asked on the side channel)."""

import os
import re
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
ABANDON_KEY = b"a"  # back held past the firmware's long press (buttons.LONG_MS, 800 ms)
ABANDON_MS = 1200

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
        self.waiting = []  # [(button, ms held)]
        self.free_at = 0.0  # when the last press sent has been released (time.monotonic())

    def push(self, button, hold_ms=PRESS_MS):
        self.waiting.append((button, hold_ms))

    def due(self, now):
        """The next press to play now, (button, ms held), or None."""
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


class Layout:
    """How much of the view a terminal has room for: lines per pixel row (2: a space's name
    under its id), characters per pixel, and whether the palette and the fixed lights are
    explained below the board."""

    def __init__(self, lines, cell_w, legend, lights):
        self.lines, self.cell_w, self.legend, self.lights = lines, cell_w, legend, lights


# From the richest to the barest: the first that fits the terminal is drawn. Whole labels
# (wide cells) come before the legend: a legend says what colours mean, a label where is what.
LAYOUTS = (Layout(2, CELL_W, True, True), Layout(1, CELL_W, True, True),
           Layout(1, CELL_W, True, False), Layout(1, CELL_W, False, False),
           Layout(1, 5, True, True), Layout(1, 5, True, False), Layout(1, 5, False, False))
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def draw(frame, profile, status="", game=None, playing=False, words=(), size=None, keys=None,
         vision=False):
    """The board as ANSI text, as the overlay lies in front of the players (pixel 0 at the
    bottom left): each pixel a cell in its colour, each space's id (and name, where there is
    room) written across its cells, then a legend, what each key does now, the words of the
    board's state and the status line. size: the terminal's (columns, lines); the richest
    layout that fits it is drawn, and where none does, the size that is needed is said.
    keys: the lines that say what the keys do (default: the board's, in a game or the menu);
    vision: the colour-vision palette is on (the legend shows its colours)."""
    cols, rows = size or (10000, 10000)
    for layout in LAYOUTS:
        lines = _lines(frame, profile, status, game, playing, words, layout, cols, keys, vision)
        if len(lines) <= rows and all(visible_width(line) <= cols for line in lines):
            return "\x1b[H\x1b[2J" + "\r\n".join(lines)
    need = _needed(profile, status, game, playing, words, keys)
    said = ("this terminal is %dx%d: the board's view needs at least %dx%d (columns x lines); "
            "make the window bigger (q quits)" % (cols, rows, *need))
    return "\x1b[H\x1b[2J\x1b[0m" + "\r\n".join(_wrap(said, cols))


def _wrap(text, cols):
    """text in lines of at most cols, broken between words (never inside a number)."""
    lines = [""]
    for word in text.split():
        if lines[-1] and len(lines[-1]) + 1 + len(word) > cols:
            lines.append("")
        lines[-1] += (" " if lines[-1] else "") + word
    return lines


def _needed(profile, status, game, playing, words, keys=None):
    """(columns, lines) of the barest layout."""
    lines = _lines(None, profile, status, game, playing, words, LAYOUTS[-1], 10000, keys)
    return max(max(visible_width(line) for line in lines), 80), len(lines)


def visible_width(line):
    """The columns a line of the view takes on the screen (its colour codes take none)."""
    return len(ANSI.sub("", line))


def _lines(frame, profile, status, game, playing, words, layout, cols, keys=None, vision=False):
    from cheeseboard.pictures import picture

    game = game or sorted(profile["maps"])[0]
    table = picture.read_table(game)
    m = profile["matrix"]
    per, cell_w = layout.lines, layout.cell_w
    cells = [[None] * m["width"] for _ in range(per * m["height"])]  # [line][col] -> rgb
    text = [[""] * m["width"] for _ in range(per * m["height"])]
    for px, (col, line) in enumerate(picture.grid(profile)):
        rgb = tuple(frame[3 * px:3 * px + 3]) if frame else (0, 0, 0)
        rgb = rgb if any(rgb) else DARK
        for k in range(per):
            cells[per * line + k][col] = rgb
    shortened = {}  # a label too long for its cells, shortened: short form -> label
    for region in picture.regions(profile, game, table):
        row = picture.label_row(profile, region)
        where = [picture.grid(profile)[p] for p in row]
        width = cell_w * len(where)
        col, line = where[0]
        key = region.key
        if len(key) + 1 > width:
            key = short_label(key)
            shortened[key] = region.key
        text[per * line][col] = (" " + key)[:width].ljust(width)
        if per > 1 and region.name and region.name != region.key:
            text[per * line + 1][col] = (" " + region.name)[:width].ljust(width)
    board = []
    for r in range(len(cells)):
        out, skip = [], 0
        for c in range(m["width"]):
            label = text[r][c]
            if skip:
                skip -= 1
                continue
            if not label:
                out.append(_ansi(cells[r][c], " " * cell_w))
                continue
            span = len(label) // cell_w
            for k in range(span):  # a label across cells: each piece on its own colour
                out.append(_ansi(cells[r][c + k], label[k * cell_w:(k + 1) * cell_w]))
            skip = span - 1
        board.append("".join(out) + "\x1b[0m")
    below = legend(table, playing, layout, keys, vision, _shortened_said(shortened))
    said = [line[:cols] for line in words]
    return ["%s: %s" % (profile["name"], game)] + board + below + said + [status[:cols]]


def _ansi(rgb, text):
    """text on an rgb background, in black or white, whichever reads better."""
    r, g, b = rgb
    ink = "30" if 299 * r + 587 * g + 114 * b > 128000 else "97"
    return "\x1b[48;2;%d;%d;%dm\x1b[%sm%s" % (r, g, b, ink, text)


# What the fixed lights say; the status light's own colours are the engine's (engine/draw.py).
LIGHTS = [
    "die: the dice, bottom up    seat N: whose turn (blinking), the others dim",
    "status: red = not allowed, orange = others may react (Enter to say who),",
    "        white = rolling, light blue = new rules next game; else the move's mark",
]
KEYS_MENU = ["keys now (menu): \u2190/\u2192 the value on offer  Enter take it",
             "Backspace the step before  Space colour-vision palette on/off  q quit"]
KEYS_PLAY = ["keys now (game): \u2190/\u2192 the move on offer (blinking white)  Enter play it",
             "Space roll  p hold/let go roll (a hidden hand)  u take back  a abandon  q quit"]


def keys_now(playing, held):
    """The keys lines: in a game, whether p holds roll down now."""
    if playing and held:
        return [KEYS_PLAY[0], "roll is HELD DOWN (p lets go)  Space roll  u take back  a abandon"
                "  q quit"]
    return None  # (the board's usual lines)


def hand_hidden(described):
    """Whether the board waits on a hand nobody sees (its player must hold roll down)."""
    s = (described or {}).get("state") or {}
    return s.get("mode") == "play" and s.get("private") is True


def legend(table, playing, layout=LAYOUTS[0], keys=None, vision=False, shortened=""):
    """The palette's colours by name (the colour-vision palette's while it is on), the fixed
    lights, and what the keys do (in a game or in the menu), as far as the layout has room;
    shortened: what the labels shortened to fit their cells stand for."""
    rows = []
    if layout.legend:
        names = {str(i): "player %d" % (i + 1) for i in range(6)}
        palette = table.get("palette", {})
        # The colour-vision palette's colours ("cb:" keys) stand in for the usual ones
        shown = {key: palette["cb:" + key] if vision and "cb:" + key in palette else rgb
                 for key, rgb in palette.items() if not key.startswith("cb:")}
        keys_shown = sorted(shown, key=lambda k: (not k.isdigit(), k))
        width = max([len(names.get(k, k)) for k in keys_shown] + [8]) + 2
        swatches = []
        for key in keys_shown:
            r, g, b = shown[key]
            swatches.append("\x1b[48;2;%d;%d;%dm  \x1b[0m %s" % (
                r, g, b, names.get(key, key).ljust(width)))
        per = max(1, 78 // (width + 3))
        rows = ["".join(swatches[i:i + per]).rstrip() for i in range(0, len(swatches), per)]
    if layout.lights:
        rows += LIGHTS
    if shortened:
        rows.append(shortened + ("" if layout.legend and layout.lights
                                 else " (more in a bigger terminal)"))
    elif not (layout.legend and layout.lights):
        rows.append("(a bigger terminal shows what the %s mean)"
                    % ("colours and the fixed lights" if not layout.legend else "fixed lights"))
    return rows + (keys or (KEYS_PLAY if playing else KEYS_MENU))


def short_label(key):
    """A label in a few letters, for a cell too narrow for it: "seat 1" as "s1", "status"
    as "st" (the line under the board says what each stands for)."""
    words = key.split()
    if len(words) == 2 and words[1].isdigit():
        return words[0][0] + words[1]
    return key[:2]


def _shortened_said(shortened):
    """What shortened labels stand for, in one line: "sN = seat N, st = status"."""
    said, numbered = [], []
    for short, key in sorted(shortened.items()):
        words = key.split()
        if len(words) == 2 and words[1].isdigit():
            if words[0] not in numbered:
                numbered.append(words[0])
                said.append("%sN = %s N" % (short[0], words[0]))
        else:
            said.append("%s = %s" % (short, key))
    return ", ".join(said)


def say(described):
    """What the board is doing, in words: the firmware's own (cheesefw.words, the same lines
    the web page shows) over its protocol `state`. [] before the board has answered."""
    return paths.import_firmware("cheesefw.words").lines(described)


def _words(value):
    """A value of the protocol as words: a move ["go", "jug"] as "go jug"."""
    return paths.import_firmware("cheesefw.words").flat(value)


def in_a_game(board):
    """Whether the board was in a game when last seen (its words, or its flash's journal)."""
    described = (board.described or {}).get("state") or {}
    if described:
        return described.get("mode") == "play"
    return (Path(board.flash_dir) / "journal.txt").is_file() if board.flash_dir else False


def _unsaid(board):
    """The words line of a board that tells the view nothing (an emulated Pico has no side
    channel into its firmware): where its words can be had."""
    if board.is_on and not getattr(board, "tells_state", True):
        return ["in words: cheeseboard state --words --port %s" % board.pty_path]
    return []


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
    asked_at = 0.0
    try:
        while True:
            now = time.monotonic()
            if board.is_on and now - asked_at > ASK_EVERY_S:
                asked_at = now
                _ask(board)
            now_showing = (board.frame_seq, board_state(board), repr(board.described),
                           terminal_size(out), held)
            if now_showing != shown:
                if shown and now_showing[0] != shown[0] and board.is_on:
                    _ask(board)  # a new frame: the words may have changed too
                shown = now_showing
                status = "board: %s   console: %s   frames: %d" % (
                    shown[1], board.pty_path, shown[0])
                seen, playing = game_shown(profile, board.frame, board.flash_dir)
                described = (board.described or {}).get("state") or {}
                if described.get("game") in profile["maps"]:
                    seen, playing = described["game"], described.get("mode") == "play"
                game = seen or game  # between games' frames, the last overlay stays
                out.write(draw(board.frame, profile, status, game, playing,
                               say(board.described) or _unsaid(board), shown[3],
                               keys=keys_now(playing, held),
                               vision=described.get("vision") == "colour-blind"))
                out.flush()
            due = presses.due(time.monotonic())
            if due and board.is_on:
                # the release's time too: a press sent after it starts no sooner
                board.set_pin(due[0], press_levels(due[1]) + [(due[1] + RELEASE_MS, 1)])
            ready, _, _ = select.select([fd], [], [], presses.next_wait(time.monotonic()))
            if not ready:
                continue
            for key in split_keys(os.read(fd, 64)):
                if key in (b"q", b"\x03"):
                    return
                if key == HOLD_KEY and board.is_on:
                    if held and hand_hidden(board.described):
                        # Still down from the last player's look, and a hand is hidden again
                        # (the next player's): the firmware wants roll pressed afresh
                        board.set_pin("roll", [(0, 1), (RELEASE_MS, 0)])
                    else:
                        held = not held
                        board.set_pin("roll", [(0, 0 if held else 1)])
                elif key == TAKEBACK_KEY:
                    presses.push("prev", TAKEBACK_MS)
                elif key == ABANDON_KEY:
                    presses.push("back", ABANDON_MS)
                elif key in KEYS:
                    presses.push(KEYS[key])
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\r\n")


ASK_EVERY_S = 0.5  # the words are asked again this often (a roll's end draws no new frame)


def _ask(board):
    from cheeseboard.sim.board import BoardError

    try:
        board.ask_state()
    except BoardError:
        pass  # switched off meanwhile: the status line says so


def terminal_size(out):
    """The terminal's (columns, lines), or None when out is not one."""
    try:
        size = os.get_terminal_size(out.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return size.columns, size.lines


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
    arrow or Home is an escape sequence (ESC [ C, ESC [ 1 ~, ESC O H) and every other key one
    byte."""
    keys = []
    i = 0
    while i < len(data):
        n = 1
        if data[i:i + 2] == b"\x1bO" and i + 2 < len(data):
            n = 3
        elif data[i:i + 2] == b"\x1b[":
            n = 2  # parameters (digits, ;) up to the final byte (@ to ~)
            while i + n < len(data) and data[i + n] in b"0123456789;":
                n += 1
            n = min(n + 1, len(data) - i)
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
