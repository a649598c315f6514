"""The bring-up test on the virtual board: the chain walked in red, green and blue, then each
button asked for, with a stuck one, a swapped pair, a bouncing one and a good one."""

import subprocess
import sys

import pytest
from led_power import estimate_ma

from cheeseboard.kit.bringup import supply_line
from cheeseboard.paths import load_profile

pytestmark = pytest.mark.board


def _until_asked(board, name, limit_ms=30000):
    """Run the board until its self-test asks for name; the report then."""
    waited = 0
    while True:
        report = board.request("selftest")
        if report["asking"] == name or (name is None and report["done"]):
            return report
        assert waited < limit_ms, "never asked for %s: %s" % (name, report["lines"])
        board.advance(100)
        waited += 100


def test_the_chain_walk_then_each_fault_by_name(vboard):
    vboard.wait_protocol()
    link = vboard.link
    link.hold("ok")  # stuck from before the test
    vboard.advance(200)
    report = vboard.request("selftest", start=True)
    assert not report["done"] and report["lines"][0].startswith("selftest: the chain")
    # The walk: one pixel lit at a time, red over the chain, then green, then blue.
    link.wait_for(lambda s: s.frame and s.pixel(0) == (255, 0, 0), 5, "pixel 0 red")
    assert sum(link.frame) == 255
    link.wait_for(lambda s: s.pixel(63) == (255, 0, 0), 5, "pixel 63 red")
    link.wait_for(lambda s: s.pixel(0) == (0, 255, 0), 5, "pixel 0 green")
    link.wait_for(lambda s: s.pixel(10) == (0, 0, 255), 10, "pixel 10 blue")
    assert sum(link.frame) == 255
    # The power: all white, held to the budget by the limiter.
    link.wait_for(lambda s: len(set(s.frame)) == 1 and s.frame[0] > 0, 10, "all white")
    led = load_profile("pico")["led"]
    assert led["budget_ma"] - 64 <= estimate_ma(led, link.frame) <= led["budget_ma"]
    assert "power: all pixels white would draw 3840 mA; the limiter holds them to 1500 mA " \
           "(led.budget_ma)" in vboard.request("selftest")["lines"]
    _until_asked(vboard, "prev")
    link.press("next")  # the person pressed the button wired to next's pin
    _until_asked(vboard, "next")
    link.press("prev")
    _until_asked(vboard, "ok")
    link.release("ok")  # a release is no press: the board waits, then says so
    _until_asked(vboard, "back")
    link.press("back", hold_ms=40)
    vboard.advance(100)
    link.press("back", hold_ms=40)  # one push, two presses: the contact bounces
    _until_asked(vboard, "roll")
    link.press("roll")
    report = _until_asked(vboard, None)
    lines = report["lines"]
    assert "FAULT ok: held down from the start (stuck, or its pin shorted to GND)" in lines
    assert any(line.startswith("FAULT prev: asked for, next pressed instead") for line in lines)
    assert any(line.startswith("FAULT next: asked for, prev pressed instead") for line in lines)
    assert "FAULT ok: no press in 10 s (not wired, or a dead switch)" in lines
    assert "FAULT back: bouncing (one push gave two presses)" in lines
    assert "roll: ok" in lines
    assert report["faults"] == 5 and lines[-1] == "selftest: done, 5 faults"
    # A press gives the board back to its menu.
    link.press("ok")
    vboard.advance(200)
    with pytest.raises(Exception, match="no self-test running"):
        vboard.request("selftest")
    assert "menu" in str(vboard.request("state"))


def test_cheeseboard_selftest_follows_the_board_and_saves_the_report(vboard, tmp_path):
    vboard.wait_protocol()
    out = tmp_path / "report.txt"
    vboard.release_console()
    with vboard.free_running():
        proc = subprocess.Popen([sys.executable, "-m", "cheeseboard", "selftest", "--port",
                                 vboard.pty, "--out", str(out)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        said = []
        for line in proc.stdout:
            said.append(line.rstrip("\n"))
            if line.startswith("selftest: press "):
                vboard.link.press(line.split()[-1])
        assert proc.wait(60) == 0, proc.stderr.read()
    assert said[-1] == "saved the report in %s" % out
    report = out.read_text().splitlines()
    assert report == said[:-1]
    for name in ("prev", "next", "ok", "back", "roll"):
        assert "%s: ok" % name in report
    assert "selftest: done, no faults" in report
    assert report[-1] == supply_line("pico") and report[-1].endswith(": enough")
