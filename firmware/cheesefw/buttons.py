"""Buttons: pin levels sampled every tick, turned into the events a player meant.

A contact bounces for a few milliseconds when it closes or opens; a level only
counts once it has held for DEBOUNCE_MS. Held past LONG_MS a press also gives a
"long" event; held past _STUCK_MS (10 s) the button is reported stuck and ignored until
it is released, so one jammed button cannot stop the game.
"""

from cheesefw import const

DEBOUNCE_MS = 20
LONG_MS = 800
_STUCK_MS = const(10000)

# The events (private constants: they cost the board no names; callers compare the strings).
_PRESS = const("press")
_RELEASE = const("release")
_LONG = const("long")
_STUCK = const("stuck")


class Button:
    """One button's debouncer over a pin-like object (value() == 0 when pressed)."""

    def __init__(self, name, pin, now):
        self.name = name
        self.pin = pin
        # A button already held at power-on counts as pressed without a _PRESS:
        # nobody meant it, and if it stays down it is reported stuck.
        self._raw = pin.value()
        self.pressed = self._raw == 0  # the debounced state
        self.stuck = False
        self._since = now  # when the raw level last changed
        self._pressed_at = now
        self._long_sent = self.pressed

    def update(self, now, ticks_diff):
        """Sample the pin; return the event this sample completes, or None."""
        raw = self.pin.value()
        if raw != self._raw:
            self._raw = raw
            self._since = now
            return None
        if ticks_diff(now, self._since) < DEBOUNCE_MS:
            return None
        down = raw == 0
        if down != self.pressed:
            self.pressed = down
            if down:
                self._pressed_at = now
                self._long_sent = False
                return _PRESS
            was_stuck = self.stuck
            self.stuck = False
            return None if was_stuck else _RELEASE
        if down and not self.stuck:
            held = ticks_diff(now, self._pressed_at)
            if held >= _STUCK_MS:
                self.stuck = True
                return _STUCK
            if held >= LONG_MS and not self._long_sent:
                self._long_sent = True
                return _LONG
        return None


class Buttons:
    """All of a board's buttons; `events()` gives (name, event) pairs in name order."""

    def __init__(self, board):
        self.board = board
        now = board.ticks_ms()
        self.buttons = [Button(name, board.pins[name], now) for name in sorted(board.pins)]

    def events(self):
        now = self.board.ticks_ms()
        diff = self.board.ticks_diff
        out = ()  # (no list made in a tick without an event: most of them)
        for button in self.buttons:
            event = button.update(now, diff)
            if event is not None:
                out = out + ((button.name, event),)
        return out

    def stuck(self):
        """Names of the buttons reported stuck now."""
        return [b.name for b in self.buttons if b.stuck]
