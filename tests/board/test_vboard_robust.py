"""The virtual board survives power cuts and garbage on its console."""

import os
import random

import pytest

from cheeseboard.board.protocol import encode

pytestmark = pytest.mark.board


def test_power_cut_mid_run_then_boot_from_the_same_flash(make_vboard, tmp_path):
    flash = tmp_path / "flash"
    board = make_vboard(flash_dir=flash)
    board.wait_protocol()
    board.release_console()
    assert board.mpremote("exec", "open('mark.txt', 'w').write('kept')").returncode == 0
    board.power_cut()  # the whole simulator and its VM die at once
    again = make_vboard(flash_dir=flash)
    assert again.wait_protocol()["profile"] == "pico"
    assert (flash / "mark.txt").read_text() == "kept"
    again.link.wait_frame(0)  # it boots to the point of lighting its LEDs


def test_power_cut_and_on_through_the_side_channel(vboard):
    vboard.wait_protocol()
    boots = vboard.link.status()["boots"]
    vboard.link.send(op="power_cut")
    vboard.link.wait_for(lambda s: not s.status(timeout=5)["on"], timeout=5, what="power off")
    before = vboard.link.event_count()
    vboard.link.send(op="power_on")
    assert vboard.link.wait_event("boot", since=before)["n"] == boots + 1
    assert vboard.wait_protocol()["firmware"]


def test_random_bytes_leave_the_firmware_answering(vboard):
    vboard.wait_protocol()
    rng = random.Random(7)
    # Everything but Ctrl-C (which stops main.py, as on a real board) and Ctrl-D.
    garbage = bytes(b for b in rng.randbytes(20000) if b not in (3, 4))
    vboard.port.write(garbage + b"\n")
    assert vboard.request("hello")["profile"] == "pico"


def test_a_one_megabyte_line_gets_one_error_and_changes_nothing(vboard):
    vboard.wait_protocol()
    before = vboard.request("state")["state"]
    vboard.port.write(b"@" + b"x" * (1 << 20) + b"\n")
    reply = vboard.client.read_reply(timeout=60)
    assert reply["ok"] is False and "too long" in reply["error"]
    assert vboard.request("state")["state"] == before


def test_bad_checksum_and_bad_requests_get_error_replies(vboard):
    vboard.wait_protocol()
    good = encode({"id": 5, "cmd": "hello"})
    bad_crc = b"@00000000" + good[9:]
    cases = {
        bad_crc: "bad checksum",
        b"hello there\n": "bad frame",
        encode({"id": 6, "cmd": "launch"}): "unknown command",
        encode({"id": "x", "cmd": "hello"}): "bad id",
        encode([1, 2]): "expected a JSON object",
        b"@" + os.urandom(4).hex().encode() + b" {not json\n": "bad",
    }
    for line, expected in cases.items():
        vboard.port.write(line)
        reply = vboard.client.read_reply(timeout=10)
        assert reply["ok"] is False, line
        assert expected in reply["error"], (line, reply)
    assert vboard.request("hello")["ok"] is True
