"""The simulator's side channel refuses a request it cannot take with an error event, and the
client stays connected: a button that is no name, levels nested 3,000 deep, levels that are
no [ms, level] pairs (these dropped the client with a traceback on the simulator's stderr)."""

import json

import pytest

from cheeseboard.sim.board import RUN_LONGEST_MS

pytestmark = pytest.mark.board

BAD = [
    {"op": "pin", "button": 5, "levels": [[0, 0]]},
    {"op": "pin", "button": ["ok"], "levels": [[0, 0]]},
    {"op": "pin", "button": "ok", "levels": [[1e400, 0]]},
    {"op": "pin", "button": "ok", "levels": [["x", 0]]},
    {"op": "pin", "button": "ok", "levels": 7},
]


def errors(link):
    return [e for e in link.events if e.get("ev") == "error"]


def test_bad_side_channel_requests_are_refused_and_the_client_kept(vboard):
    vboard.wait_protocol()
    link = vboard.link
    lines = [json.dumps(msg) for msg in BAD]
    lines.append('{"op": "pin", "button": "ok", "levels": %s}' % ("[" * 3000 + "]" * 3000))
    for n, line in enumerate(lines, 1):
        link._sock.sendall((line + "\n").encode())
        link._wait_wall(lambda s, n=n: len(errors(s)) >= n, 30, "the refusal of %s" % line[:60])
    said = [e["error"] for e in errors(link)]
    assert said[0].startswith("pin: button: expected a name, got 5"), said
    assert said[-1] == "nested too deep: not a request", said
    assert link.status()["on"]  # the same client, still served
    vboard.link.press("ok")  # and a good request still drives the board
    assert vboard.request("hello")["ok"] is True


RUNS_REFUSED = ['{"op": "run", "for": 1e300}', '{"op": "run", "for": -1}',
                '{"op": "run", "for": true}', '{"op": "run", "for": "x"}',
                '{"op": "run", "for": NaN}', '{"op": "run"}']


def test_a_run_past_what_the_boards_clock_holds_is_refused_and_the_board_lives_on(vboard):
    """A run of 1e300 ms took the virtual clock there; the VM, which holds its clock in a
    machine word, then died at every boot ("FATAL: uncaught NLR") until the simulator gave up
    on it. A run is a time from 0 to a week."""
    vboard.wait_protocol()
    link = vboard.link
    for n, line in enumerate(RUNS_REFUSED, 1):
        link._sock.sendall((line + "\n").encode())
        link._wait_wall(lambda s, n=n: len(errors(s)) >= n, 30, "the refusal of %s" % line)
    said = [e["error"] for e in errors(link)]
    assert all(e.startswith("run: expected a time in ms from 0 to ") for e in said), said
    assert link.status()["now"] < RUN_LONGEST_MS  # the clock did not go where the VM dies
    assert vboard.request("hello")["ok"] is True
    assert not [e for e in link.events if e.get("ev") == "crash"]
