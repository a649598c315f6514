"""The main loop: buttons, console and timers in; LED frames out; one tick at a time."""

import gc

from cheesefw import const, protocol, render
from cheesefw.buttons import Buttons
from cheesefw.modules import forget

TICK_MS = 10
# The App's own commands (cheesefw.answers; selftest: the bring-up test, cheesefw.selftest;
# seed: a repeatable die for a test, where the host cannot seed the chip's entropy)
_ANSWERS = const(("hello", "state", "log", "selftest", "seed"))
_UP_MS = const(3000)  # a new firmware counts as up once its main loop has run this long
# The collector runs in the idle rest of a quiet tick (one whose work took at most _QUIET_MS),
# once _COLLECT_MS of the board's clock have passed since it last ran: left to itself it comes
# when the heap runs out, in the middle of a busy tick (a redraw, a board player's thinking).
# Where a collection fits in a tick of its own (the last one took at most _OWN_TICK_MS), it
# comes every _BUSY_MS instead, and busy or not: once they have passed, the next tick is the
# collector's, the game waiting in it (its timers, its thinking; a button's event and the
# console's bytes are taken in, and what they changed is drawn in the tick after) so that the
# collection has the tick to itself; a quiet tick before it collects only where the collection
# fits its rest. (At most TICK_MS - _QUIET_MS, .mpy files' collections of 8.1-8.3 ms sent the
# App to the slower pace now and then, where a second's garbage made them 11 ms.) Which tick it
# is depends on the board's clock alone, never on what came in: a game by the board then runs
# the same whatever a host asks meanwhile. The kitchen's longest tick with the board on every
# seat went from 9.6 to 7.8 ms on the emulated Pico (frozen). Where it does not fit (on the
# emulated Pico a collection takes about 0.3 ms, 75 us a KB of live heap and 20 us a KB of
# garbage: some 100 KB live fill a tick), such ticks would all be late.
# The heap is not asked how full it is: gc.mem_alloc() walks every block of it, 8.4 ms on the
# emulated Pico (more than a collection of a fresh heap), and asked in every quiet tick it
# spaced a waiting board's ticks 18 ms apart, too far for a short press to be read twice.
_QUIET_MS = const(2)
_OWN_TICK_MS = const(9)  # (the collector's tick takes in its buttons and console first)
_COLLECT_MS = const(1000)
_BUSY_MS = const(500)


class App:
    def __init__(self, board, scene):
        self.board = board
        board.app = self  # the simulator's side channel asks it for the state (hal/sim.py)
        self.scene = scene
        self.buttons = Buttons(board)
        loops = getattr(board, "frame_loops", None)  # (compiled for the chip, where it can be)
        self.limiter = render.PowerLimiter(board.profile["led"], loops)
        self.server = protocol.Server(board.console_write, self.handlers())
        self._work = render.new_frame(board.pixel_count)
        self._shown = render.new_frame(board.pixel_count)
        self._out = render.new_frame(board.pixel_count)
        self.dirty = True  # the scene is drawn again at the next tick
        self.frames_written = 0
        self._collected_at = board.ticks_ms()  # the last collection in a quiet tick (idle())
        # How long it took; -1 before the first: no tick is the collector's where the App's
        # idle() never runs (the web page ticks the App itself, its browser collects).
        self._collect_ms = -1

    def handlers(self):
        handlers = {name: self._answer(name) for name in _ANSWERS}
        more = getattr(self.scene, "handlers", None)
        if more:  # the engine's own commands (the rule tables')
            handlers.update(more())
        return handlers

    def _answer(self, name):
        def run(request):
            from cheesefw import answers  # (imported at the first request, and kept)

            return getattr(answers, name)(self, request)

        return run

    def tick(self):
        """One pass of the main loop; writes a frame only when it changed."""
        board = self.board
        board.poll()
        now = board.ticks_ms()
        for name, event in self.buttons.events():
            if self.scene.on_button(name, event, now):
                self.dirty = True
        data = board.console_read()
        if data:
            self.server.feed(data)
        if 0 <= self._collect_ms <= _OWN_TICK_MS \
                and board.ticks_diff(now, self._collected_at) >= _BUSY_MS:
            self.idle(TICK_MS)  # the collector's tick, collected here however busy its
            return  # input made it: the game waits for the next one
        if self.scene.update(now):
            self.dirty = True
        if self.dirty:
            self.dirty = False
            self.scene.draw(self._work)
            if self._work != self._shown:
                self._shown[:] = self._work
                self.limiter.limit(self._work, self._out)
                board.show(self._out)
                self.frames_written += 1

    def run(self, up=None, feed=None):
        """Tick forever; call up() once, when the loop has run for _UP_MS and answers the
        protocol; feed() (the watchdog's) every tick."""
        board = self.board
        began = board.ticks_ms()
        while True:
            start = board.ticks_ms()
            self.tick()
            if feed:
                feed()
            if up and board.ticks_diff(start, began) >= _UP_MS:
                self.server.handlers["hello"]({})  # a reply could be made: raises if not
                up()
                up = None
            left = TICK_MS - board.ticks_diff(board.ticks_ms(), start)
            if left > 0:
                left = self.idle(left)
            if left > 0:
                board.sleep_ms(left)

    def idle(self, left):
        """The rest of a tick, left ms: a collection in a quiet tick, once _COLLECT_MS have
        passed since the last (_BUSY_MS where one fits in a tick of its own, and in a quiet
        tick only where it fits its rest); returns the ms still left."""
        if left < TICK_MS - _QUIET_MS or left < self._collect_ms <= _OWN_TICK_MS:
            return left  # (a busy tick, the clock not even read; or the collector's tick's)
        board = self.board
        start = board.ticks_ms()
        due = _BUSY_MS if self._collect_ms <= _OWN_TICK_MS else _COLLECT_MS
        if board.ticks_diff(start, self._collected_at) < due:
            return left
        gc.collect()
        self._collected_at = now = board.ticks_ms()
        self._collect_ms = board.ticks_diff(now, start)
        return left - self._collect_ms


def start(trial=False, feed=None):
    """The board's App, set up and ready to tick; None when the profile is refused (each of
    its faults said on the console). The web board's page calls this and ticks the App
    itself; a board's main.py runs it through main(). trial: a new firmware's first boot."""
    started = _power_on(trial, feed)
    return started if isinstance(started, App) else None


def main(up=None, feed=None):
    """Run the board; up() is called once the main loop has run for _UP_MS (main.py's
    health check of a new firmware), feed() every tick (its watchdog's). A board whose
    profile cannot be read anywhere answers the protocol with the fault (cheesefw.fault), so
    that a host can say what is wrong and flash it; on trial it returns (main.py then goes
    back to the previous firmware)."""
    started = _power_on(up is not None, feed)
    if isinstance(started, App):
        started.run(up, feed)
    elif up is None:
        from cheesefw import fault

        fault.serve(started, TICK_MS, feed)


def _power_on(trial, feed):
    """The App, or the fault that stopped power-on (cheesefw.startup): the code that starts
    the board runs once, and is let go of here."""
    from cheesefw import startup

    try:
        started = startup.start(trial, feed)
    finally:
        startup = None
        forget("cheesefw.startup", "cheesefw.profile_file", "cheesefw.first_boot",
               "cheesefw.checked")
        gc.collect()
    if not isinstance(started, tuple):
        return started
    app = App(*started)
    if [b for b in app.buttons.buttons if b.name == "roll" and b.pressed]:
        from cheesefw import selftest  # roll held at power-on: the bring-up test

        selftest.start(app, app.board.ticks_ms(), ("roll",))
    return app
