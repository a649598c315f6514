"""Every shipped profile at its own heap (the virtual board capped to the profile's `heap`):
tables synced and diffed, each game it offers started and abandoned three times, a restart;
no MemoryError reaches the REPL, no fall, no game refused."""

import json
import os
from pathlib import Path

import pytest

from cheeseboard.paths import load_profile
from cheeseboard.rules import sync

pytestmark = pytest.mark.board

ROOT = Path(__file__).resolve().parents[2]
PROFILES = sorted(p.stem for p in (ROOT / "hardware/profiles").glob("*.json"))
PRESS_MS = 100  # held well past the 20 ms debounce: a starved VM still sees each press once
GAMES_FIRST = ("gouda", "kitchen", "kalle", "katz", "gatenkaas")


def wait_state(board, predicate, what, timeout=20.0):
    """The board's state once predicate holds; at most timeout seconds of the board's time
    (counted in its steps: a busy machine gives it no less)."""
    for _ in range(int(timeout / 0.05)):
        s = board.request("state")["state"]
        if predicate(s):
            return s
        board.sleep(0.05)  # (the board's clock: a virtual board moves only when told)
    raise AssertionError("waited for %s; the board is at %r" % (what, s))


def press(board, name):
    """Press and release a button, and let the release pass its debounce too (a press sent while
    the last one is still held would be no press)."""
    board.link.press(name, hold_ms=PRESS_MS)
    board.sleep((PRESS_MS + 60) / 1000)


def start(board, game):
    """Choose game at the menu and take every option's and seat's first value: the game in play
    (AssertionError when the menu says it was refused). Each press is waited for: a busy
    machine may show the board's state from before it."""
    for _ in range(10):
        if board.request("state")["state"]["value"] == game:
            break
        before = board.request("state")["state"]["value"]
        press(board, "next")
        wait_state(board, lambda s, v=before: s["value"] != v, "the next game on offer")
    s = board.request("state")["state"]
    for _ in range(20):
        step = s["step"]
        press(board, "ok")
        s = wait_state(board, lambda s, step=step: s["mode"] != "menu" or s["step"] != step
                       or "refused" in s, "the step after %s" % step)
        if s["mode"] != "menu":
            return s
        assert "refused" not in s, s["refused"]
        assert s["step"] != "game", "%s did not start: %r" % (game, s)
    raise AssertionError("%s: the menu has more steps than any game's" % game)


def test_every_profile_is_checked_here():
    assert PROFILES == ["circuitpython", "esp32", "pico", "pico16"]


@pytest.mark.parametrize("profile", PROFILES)
def test_a_profile_syncs_plays_abandons_and_restarts_at_its_own_heap(make_vboard, tmp_path,
                                                                      profile):
    heap = int(os.environ.get("CHEESEBOARD_TEST_HEAP", 0)) or load_profile(profile)["heap"]
    board = make_vboard(profile=profile, heap=heap)
    board.wait_protocol(timeout=30)
    boots = board.link.status()["boots"]
    games = [g for g in GAMES_FIRST if g in load_profile(profile)["maps"]]

    # Tables: the firmware's own (nothing to send), then one sent and committed (the same
    # table written out again: other bytes, the same fields), and diffed.
    files = sync.default_files()
    assert {what for _, what in sync.sync(board.client, files)} == {"same"}
    again = tmp_path / ("%s.json" % games[0])
    again.write_text(json.dumps(json.loads(
        (ROOT / "firmware/rules" / again.name).read_text()), indent=2))
    assert sync.sync(board.client, [again]) == [(games[0], "sent, applies now")]
    assert sync.diff(board.client, [again]) == {games[0]: []}

    for game in games:
        for _ in range(3):
            s = start(board, game)
            assert s["mode"] == "play" and s["game"] == game
            board.link.press("back", hold_ms=1000)  # a long press abandons the game
            wait_state(board, lambda s: s["mode"] == "menu", "the menu after %s" % game)

    assert board.link.status()["boots"] == boots  # no fall, no restart
    board.link.send(op="reset")
    board.link.wait_for(lambda link: link.status(timeout=30)["boots"] > boots, timeout=60,
                        what="the reset")
    assert board.wait_protocol(timeout=30)["profile"] == profile
    assert board.request("state")["state"]["mode"] == "menu"
    slot = json.loads((board.flash_dir / "slot.json").read_text())
    assert "falls" not in slot and "failed" not in slot, slot


def test_below_its_heap_a_game_is_refused_at_the_menu_and_the_board_plays_on(make_vboard):
    # A Pico profile's board with 120 000 B, well below the 200 000 B it states: the menu runs,
    # no game finds the heap to start. Each is refused, saying so, and the board stays up.
    board = make_vboard(profile="pico", heap=120000, seed=5)
    board.wait_protocol(timeout=30)
    boots = board.link.status()["boots"]
    for game in ("gouda", "katz", "gouda"):
        with pytest.raises(AssertionError, match="%s: not enough heap on this board" % game):
            start(board, game)
    assert board.request("state")["state"]["mode"] == "menu"
    assert board.link.status()["boots"] == boots  # no fall, no restart
    slot = json.loads((board.flash_dir / "slot.json").read_text())
    assert "falls" not in slot and "failed" not in slot, slot
