"""The bring-up test of a freshly built board: its LED chain, its buttons and its power.

Loaded only in self-test mode (holding roll at power-on, or `cheeseboard selftest` from a
host): a board that plays never carries it. It takes the App's place for its length and gives
it back after, the game as it was.

1. The chain: each pixel in turn in red, then green, then blue (`_WALK_MS` each): a pixel in
   the wrong colour means a wrong `led.order`, a dark one a dead pixel (or a break in the data
   line before it).
2. The power: every pixel full white, through the power limiter, for `_POWER_MS`; the report
   gives the estimate unlimited and the budget the limiter holds it to.
3. The buttons, prev to roll: the die column shows which is asked (one pixel for prev, up to
   five for roll) and the console says its name; the board waits `_ASK_MS` for it. Another
   button pressed instead (two pins swapped), one held down from the start (stuck), one that
   presses twice from one push (bouncing) or none at all, each is reported by name.

The report is one line a finding, printed on the console as it comes and kept for the host
(the protocol's `selftest` command).
"""

from cheesefw import const, render

BUTTONS = ("prev", "next", "ok", "back", "roll")
_WALK_MS = const(40)
_POWER_MS = const(1500)
_ASK_MS = const(10000)
_SETTLE_MS = const(300)  # after a press: a second press of it this soon is a bounce
_COLOURS = (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)))


class SelfTest:
    """A scene (as the engine is one): buttons in, frames out, a step at a time."""

    def __init__(self, app, pressed, now):
        self.app = app
        self.board = board = app.board
        self.after = app.scene  # the scene to give the board back to
        self.lines = []
        self.faults = 0
        self.done = False
        self._say("selftest: the chain, pixel by pixel in red, green, blue (%d pixels, "
                  "led.order %s)" % (board.pixel_count, board.profile["led"].get("order", "GRB")))
        self.stuck = [name for name in BUTTONS if name in pressed]
        for name in self.stuck:
            self._fault("%s: held down from the start (stuck, or its pin shorted to GND)" % name)
        self._phase = 0  # 0 the chain, 1 the power, 2 the buttons
        self._step = 0
        self._since = now
        self._pressed_at = None  # when the button asked for was pressed

    def _say(self, line):
        self.lines.append(line)
        print(line)

    def _fault(self, line):
        self.faults += 1
        self._say("FAULT " + line)

    def asking(self):
        """The button the test waits for, or None."""
        if self._phase == 2 and self._step < len(BUTTONS):
            return BUTTONS[self._step]
        return None

    def update(self, now):
        elapsed = self.board.ticks_diff(now, self._since)
        if self._phase == 0:
            step = elapsed // _WALK_MS
            if step < 3 * self.board.pixel_count:
                changed = step != self._step
                self._step = step
                return changed
            self._say("chain: walked: each pixel showed red, green and blue in turn, or the "
                      "order or a pixel is wrong")
            self._next_phase(1, now)
            led = self.board.profile["led"]
            full = self.board.pixel_count * led.get("ma_full_white", 60)
            self._say("power: all pixels white would draw %d mA; the limiter holds them to %d "
                      "mA (led.budget_ma)" % (full, led["budget_ma"]))
            return True
        if self._phase == 1:
            if elapsed < _POWER_MS:
                return False
            self._next_phase(2, now)
            self._ask()
            return True
        if self._phase == 2 and not self.done:
            name = self.asking()
            if self._pressed_at is not None:
                if self.board.ticks_diff(now, self._pressed_at) >= _SETTLE_MS:
                    self._say("%s: ok" % name)
                    return self._next_button(now)
            elif elapsed >= _ASK_MS:
                self._fault("%s: no press in %d s (not wired, or a dead switch)"
                            % (name, _ASK_MS // 1000))
                return self._next_button(now)
        return False

    def _next_phase(self, phase, now):
        self._phase = phase
        self._step = 0
        self._since = now

    def _ask(self):
        name = self.asking()
        if name is None:
            self.done = True
            self._say("selftest: done, %s" % ("no faults" if not self.faults else
                                              "%d fault%s" % (self.faults,
                                                              "" if self.faults == 1 else "s")))
        else:
            self._say("selftest: press %s" % name)

    def _next_button(self, now):
        self._step += 1
        self._since = now
        self._pressed_at = None
        self._ask()
        return True

    def on_button(self, name, event, now):
        if self.done:
            if event == "press":  # done, and a button pressed after: the board goes back to play
                end(self.app)
            return False
        asked = self.asking()
        if asked is None or event != "press":
            if event == "stuck" and name not in self.stuck:
                self.stuck.append(name)
                self._fault("%s: stuck (held down for 10 s)" % name)
            return False
        if name != asked:
            self._fault("%s: asked for, %s pressed instead (their pins swapped, or the wrong "
                        "button)" % (asked, name))
            return self._next_button(now)
        if self._pressed_at is not None:
            self._fault("%s: bouncing (one push gave two presses)" % name)
            return self._next_button(now)
        self._pressed_at = now
        return False

    def draw(self, frame):
        for i in range(len(frame)):
            frame[i] = 0
        count = self.board.pixel_count
        if self._phase == 0:
            step = min(self._step, 3 * count - 1)
            render.put(frame, step % count, _COLOURS[step // count][1])
        elif self._phase == 1:
            for i in range(len(frame)):
                frame[i] = 255
        elif not self.done:
            for j in range(self._step + 1):
                render.put(frame, self.board.die_pixels[j], (255, 255, 255))
        else:
            render.put(frame, self.board.status_pixel, (0, 255, 0) if not self.faults
                       else (255, 0, 0))

    def report(self):
        return {"done": self.done, "faults": self.faults, "lines": self.lines,
                "asking": self.asking()}


def start(app, now, held=()):
    """Put the self-test in the App's place (the scene it had comes back after). held: the
    buttons already down that are not faults (roll, held to ask for the test at power-on)."""
    if not isinstance(app.scene, SelfTest):
        pressed = [b.name for b in app.buttons.buttons if b.pressed and b.name not in held]
        app.scene = SelfTest(app, pressed, now)
        app.dirty = True


def command(app, request):
    """The protocol's `selftest`: {"start": true} begins it, {"end": true} gives the board back
    once it is done; each answer is the report so far."""
    now = app.board.ticks_ms()
    if request.get("start"):
        start(app, now)
    test = app.scene
    if not isinstance(test, SelfTest):
        raise ValueError("no self-test running (start one with start: true)")
    if request.get("end"):
        if not test.done:
            raise ValueError("the self-test is not done: it waits for %s" % test.asking())
        end(app)
    return test.report()


def end(app):
    """The board back to the scene it had; this module goes (a board that plays never keeps
    it)."""
    from cheesefw.modules import forget

    app.scene = app.scene.after
    app.dirty = True
    forget("cheesefw.selftest")
