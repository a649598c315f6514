"""The replay in the terminal: the virtual board's own view (sim/view.py), one step at a time."""

import json
import os
import select
import sys
import termios
import time
import tty

from cheeseboard.sim import view

KEYS = ["keys now (replay): \u2192/l next step  \u2190/h back  a number, Enter: jump there",
        "Home/End first/last  Space play on/pause  +/- faster/slower  q quit"]
NEXT = (b"\x1b[C", b"l", b".", b"n")
BACK = (b"\x1b[D", b"h", b",", b"p")
# Home and End as terminals send them: xterm's, application mode's, and tmux's or the Linux
# console's (ESC[1~ and ESC[4~; rxvt's 7~ and 8~)
FIRST = (b"\x1b[H", b"\x1bOH", b"\x1b[1~", b"\x1b[7~", b"g")
LAST = (b"\x1b[F", b"\x1bOF", b"\x1b[4~", b"\x1b[8~", b"G")


def words(step, steps, game, reveal):
    """What a step says: where it is, what was played to reach it, and what the board waits
    for (its `state`, in the virtual board's words)."""
    head = "step %d of %d (move %d)" % (step.step, len(steps) - 1, step.history)
    if step.took_back or (step.step and not step.moves):  # (a takeback: no move played)
        what = "%d move%s taken back" % (step.took_back, "" if step.took_back == 1 else "s")
    elif step.moves:
        hidden = step.moves.count("?")
        what = "played: " + ", ".join(view._words(m) for m in step.moves if m != "?")
        if hidden:  # (a deal, or a secret move: the log's "?")
            what += "%s%d hidden (?)" % (", " if hidden < len(step.moves) else "", hidden)
    else:
        what = "the game begins"
    said = [head + ": " + what]
    for line in view.say(step.described):
        # (the board's own words name its buttons; here the keys step through the game)
        said.append(line.replace(" (Space)", "").replace("; Enter for the menu", ""))
    if reveal:
        said.append("the whole state (--reveal): " + json.dumps(step.full, sort_keys=True))
    if step is steps[-1] and game.hidden_from is not None:
        said.append("the game runs on: the log hides its move %d until it is over"
                    % game.hidden_from)
    return said


def screen(steps, i, profile, game, reveal, playing, size=None):
    """Step i as the terminal shows it."""
    step = steps[i]
    status = "replay of %s   %s" % (game.source, "playing on" if playing else "paused")
    return view.draw(step.frame, profile, status, game.header["game"], True,
                     words(step, steps, game, reveal), size, KEYS)


def lit(frame):
    """The lit pixels of a frame as text: pixel number and colour."""
    return "lit: " + " ".join("%d=#%02x%02x%02x" % (i, *frame[3 * i:3 * i + 3])
                              for i in range(len(frame) // 3) if any(frame[3 * i:3 * i + 3]))


class Controls:
    """Where the replay is: the step shown, auto-play and its speed, a number being typed."""

    def __init__(self, count, start=0, speed=1.0):
        self.count = count
        self.at = start
        self.speed = speed  # seconds per step
        self.playing = False
        self.typed = b""
        self.due = 0.0

    def key(self, key, now):
        """One key; False when it quits."""
        if key in (b"q", b"\x03"):
            return False
        if key.isdigit():
            self.typed += key
            return True
        if key in (b"\r", b"\n") and self.typed:
            self.at = min(int(self.typed), self.count - 1)
        elif key in NEXT:
            self.at = min(self.at + 1, self.count - 1)
        elif key in BACK:
            self.at = max(self.at - 1, 0)
        elif key in FIRST:
            self.at = 0
        elif key in LAST:
            self.at = self.count - 1
        elif key == b" ":
            self.playing = not self.playing
            self.due = now + self.speed
        elif key == b"+":
            self.speed = max(self.speed / 2, 0.05)
        elif key == b"-":
            self.speed = min(self.speed * 2, 30.0)
        self.typed = b""
        return True

    def tick(self, now):
        """Auto-play: on to the next step when its time has come (it stops at the last)."""
        if self.playing and now >= self.due:
            self.at = min(self.at + 1, self.count - 1)
            self.due = now + self.speed
            self.playing = self.at < self.count - 1


def run(steps, profile, game, reveal, start, speed, out=None):
    """Step through the replay with keys until q; without a terminal, print every step."""
    out = out or sys.stdout
    if not (sys.stdin.isatty() and out.isatty()):
        for step in steps[start:]:
            out.write("\n".join(words(step, steps, game, reveal) + [lit(step.frame)]) + "\n\n")
        return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    controls = Controls(len(steps), start, speed)
    shown = None
    try:
        while True:
            controls.tick(time.monotonic())
            size = view.terminal_size(out)
            now_showing = (controls.at, controls.playing, size)
            if now_showing != shown:
                shown = now_showing
                out.write(screen(steps, controls.at, profile, game, reveal, controls.playing,
                                 size))
                out.flush()
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                for key in view.split_keys(os.read(fd, 64)):
                    if not controls.key(key, time.monotonic()):
                        return
    except KeyboardInterrupt:
        return
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\r\n")
