"""No request ends the program: fuzzed requests with extreme field values, each answered, the
board never restarted (on the virtual board, at the Pico's heap)."""

import pytest
import request_fuzz

from cheeseboard.board.protocol import encode

pytestmark = pytest.mark.board


@pytest.mark.parametrize("cmd,field", [("get", "offset"), ("put", "offset"), ("log", "from")])
@pytest.mark.parametrize("value", [2**62, 2**63, 2**64, 10**30, -1])
def test_a_number_past_its_bounds_is_refused_naming_its_field(vboard, cmd, field, value):
    vboard.wait_protocol()
    boots = vboard.link.status()["boots"]
    vboard.port.write(encode({"id": 9, "cmd": cmd, "name": "gouda", field: value,
                              "text": "{}"}))
    reply = vboard.client.read_reply(9, timeout=10)
    assert reply["ok"] is False
    assert reply["error"].startswith("%s: %s: expected an integer 0.." % (cmd, field)), reply
    assert vboard.request("hello")["ok"] is True
    assert vboard.link.status()["boots"] == boots  # no restart, so no fall counted


def test_fuzzed_requests_are_all_answered_with_no_restart(vboard):
    vboard.wait_protocol()
    n = 300
    answered, restarts, missed, before, after = request_fuzz.run(vboard, n, seed=3)
    assert (answered, restarts, missed) == (n, 0, [])
    assert after == before  # nothing they asked for changed a table


@pytest.mark.slow
def test_two_thousand_fuzzed_requests_are_all_answered_with_no_restart(vboard):
    vboard.wait_protocol()
    n = 2000
    answered, restarts, missed, before, after = request_fuzz.run(vboard, n, seed=11)
    assert (answered, restarts, missed) == (n, 0, [])
    assert after == before
