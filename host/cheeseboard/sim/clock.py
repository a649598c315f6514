"""The virtual board's clock when the host drives it (virtual time).

The board's time is a count of milliseconds that moves only when the host lets it: the VM
runs flat out until it sleeps, says until when ("S <ms>" on the side channel), and waits
for the clock to get there ("T <ms>"). The clock gets there when

- a client runs the board (until an instant, until something happens, or free: at up to
  FREE_SPEED times the wall's pace, for a tool in another process that waits on the wall), or
- console bytes wait for the VM: the board takes them in at its next tick, as a board
  whose host writes to it would, so a request gets its answer without anyone moving the
  clock by hand.

Computing costs no board time, so a board gives the same results on a busy machine as on
an idle one. A UART board's bytes are charged to the clock as they cross (10 bits a byte at
its baud), so a transfer takes the board time it would take, and no wall time.
"""

import time

FOREVER = float("inf")
# A free run: the board's time at most this many times the wall's. A tool that polls the
# board every 0.2 s of the wall sees it 2 s of its time later, not a minute later (as flat out
# would), so what it waits for has not long gone by.
FREE_SPEED = 10


class VirtualClock:
    """The board's time (ms) and what holds it back."""

    def __init__(self):
        self.now = 0.0  # ms since the simulator started (fractions: bytes on a UART)
        self.horizon = 0.0  # the clients let the clock run this far
        # When the VM next needs the clock: the end of its sleep (ms), FOREVER while it waits
        # for console input (or has no power), None while it runs (time stands still).
        self.wake = FOREVER
        self.stop_when = None  # a run's condition: a callable, true when the run is over
        self._free_from = (0.0, 0.0)  # (the board's ms, the wall's s) when a free run began

    @property
    def ms(self):
        """The board's ticks_ms (before wrapping)."""
        return int(self.now)

    def run_free(self):
        """Let the clock follow the wall at up to FREE_SPEED times its pace, until a run."""
        self.horizon = FOREVER
        self._free_from = (self.now, time.monotonic())

    def limit(self):
        """How far the clients let the clock go now."""
        if self.horizon != FOREVER:
            return self.horizon
        now, wall = self._free_from
        return now + (time.monotonic() - wall) * 1000.0 * FREE_SPEED

    def charge(self, ms):
        """Time passes without the VM's asking: bytes on the wire."""
        self.now += ms

    def step(self, console_waiting):
        """Where the clock goes next: the instant the VM is to be woken at (the clock is
        then there), or None when the VM must not be woken now (the clock is moved as far
        as the clients let it)."""
        wake = self.wake
        if wake is None:
            return None  # the VM runs: its time stands still
        if wake != FOREVER:
            if wake <= self.now:
                return self.now  # its time has come (bytes on the wire took the clock past it)
            if self.stop_when is not None and self.stop_when():
                return None  # the run is over where it is
            if console_waiting or wake <= self.limit():
                self.now = float(wake)
                return self.now
        if self.now < self.horizon != FOREVER:
            self.now = self.horizon  # nothing on the board wakes before the run's end
        return None
