"""A virtual board's serial line at a baud, in real time: the I/O loop sleeps while the wire
has no credit (watching its port then would wake the loop at once, again and again) and
wakes when the wire can carry bytes again."""

import time

import pytest

from cheeseboard.sim.board import FIFO_SECONDS, _Wire
from cheeseboard.sim.command import MAX_BAUD, MIN_BAUD


@pytest.mark.parametrize("baud", [MIN_BAUD, 9600, 115200, MAX_BAUD])
def test_a_spent_wire_waits_at_most_a_fifo_then_carries_a_byte_at_least(baud):
    wire = _Wire(baud)
    wire.credit, wire.last = 0.0, time.monotonic()
    wait = wire.delay(4096)
    assert 0 < wait <= FIFO_SECONDS + 1 / wire.rate
    wire.last -= wait  # that long has passed
    assert wire.allowance(4096) >= 1


def test_a_wire_with_credit_or_without_a_baud_or_in_virtual_time_does_not_wait():
    wire = _Wire(115200)
    wire.credit, wire.last = 0.0, time.monotonic() - 1.0  # a second idle: its FIFO is full
    assert wire.delay(4096) == 0 and wire.allowance(4096) == int(115200 / 10 * FIFO_SECONDS + 1)
    assert _Wire(None).delay(4096) == 0
    assert _Wire(115200, clock=object()).delay(4096) == 0
