"""Replay's keys as terminals send them: Home and End in xterm's, tmux's and application
mode's sequences, arrows in a burst."""

import pytest

from cheeseboard.replay.terminal import Controls
from cheeseboard.sim import view


@pytest.mark.parametrize("home, end", [(b"\x1b[H", b"\x1b[F"), (b"\x1b[1~", b"\x1b[4~"),
                                       (b"\x1bOH", b"\x1bOF")])
def test_home_and_end_go_to_the_first_and_last_step(home, end):
    controls = Controls(10, start=4)
    for key in view.split_keys(end):
        controls.key(key, 0.0)
    assert controls.at == 9
    for key in view.split_keys(home):
        controls.key(key, 0.0)
    assert controls.at == 0


def test_a_burst_of_keys_splits_into_each_key():
    keys = view.split_keys(b"\x1b[4~\x1b[D\x1b[1~l5\r")
    assert keys == [b"\x1b[4~", b"\x1b[D", b"\x1b[1~", b"l", b"5", b"\r"]
    controls = Controls(10)
    for key in keys:
        controls.key(key, 0.0)
    assert controls.at == 5
