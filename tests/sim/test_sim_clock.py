"""The virtual board's clock (virtual time): where it goes next, given what holds it back."""

from cheeseboard.sim.clock import FOREVER, VirtualClock


def sleeping(until, horizon=0.0, now=0.0):
    clock = VirtualClock()
    clock.now, clock.wake, clock.horizon = now, until, horizon
    return clock


def test_time_stands_still_while_the_vm_runs():
    clock = sleeping(None, horizon=500)
    assert clock.step(console_waiting=True) is None and clock.now == 0


def test_a_held_clock_wakes_a_sleeping_vm_only_for_console_input():
    clock = sleeping(10)
    assert clock.step(console_waiting=False) is None and clock.now == 0
    assert clock.step(console_waiting=True) == 10 and clock.now == 10


def test_a_run_wakes_the_vm_at_each_sleep_end_then_stops_at_its_horizon():
    clock = sleeping(20, horizon=25)
    assert clock.step(False) == 20
    clock.wake = 30
    assert clock.step(False) is None and clock.now == 25  # the run's end, the VM still asleep
    clock.horizon = 40
    assert clock.step(False) == 30


def test_a_vm_at_the_repl_lets_the_clock_go_to_the_horizon_and_a_free_run_jumps_nowhere():
    clock = sleeping(FOREVER, horizon=100)
    assert clock.step(True) is None and clock.now == 100
    clock.horizon = FOREVER
    assert clock.step(False) is None and clock.now == 100


def test_a_run_that_met_its_condition_wakes_nothing_more():
    clock = sleeping(20, horizon=1000)
    clock.stop_when = lambda: True
    assert clock.step(True) is None and clock.now == 0


def test_bytes_on_the_wire_take_the_clock_past_a_sleep_end():
    clock = sleeping(10)
    clock.charge(12.5)  # 144 bytes at 115200 baud
    assert clock.step(False) == 12.5 and clock.ms == 12


def test_a_free_run_keeps_within_its_pace_of_the_wall():
    clock = sleeping(10_000)
    clock.run_free()
    assert clock.step(False) is None  # 10 s of the board: a second of the wall, not yet gone
    clock.wake = 0.001
    assert clock.step(False) == 0.001
