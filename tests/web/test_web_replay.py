"""The web board's replay: a log dropped onto the page, or the page's own game, stepped
forward, back, to a step and on by itself; each step's LEDs are those `cheeseboard replay`
makes on the host (the same replay code, here on the page's WebAssembly VM), hidden moves stay
"?", and a bad log gets one line."""

import sys

import pytest
from engine_driver import load_profile
from webpage import MISSING, ROOT

from cheeseboard.replay import logfile, positions

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)
else:  # the browser's fixtures
    from test_web_browser import browser, open_board, rgb, site  # noqa: F401

JOURNAL = ROOT / "docs" / "pictures" / "kitchen-journal.txt"


def shown(board):
    return board.js("window.cheeseboard.replay")


def frame_colours(frame):
    return [tuple(frame[3 * i:3 * i + 3]) for i in range(len(frame) // 3)]


def replayed(open_board, log, ms=120000):
    """A page that took the log dropped on it, and the host's steps of the same log: as many."""
    steps = positions.positions(logfile.read(log), load_profile("pico"))
    board = open_board(fake_clock=True)
    board.boot()
    board.page.set_input_files("#replay-file", str(log))
    board.wait_for("window.cheeseboard.replay", ms=ms, step=200, what="the replay")
    assert shown(board)["count"] == len(steps)
    return board, steps


def test_a_dropped_log_steps_forward_back_jumps_and_plays_on(open_board):
    board, steps = replayed(open_board, JOURNAL)
    assert "kitchen" in board.js("document.querySelector('#picture svg text').textContent")

    def at(i):
        now, colours = board.js("[window.cheeseboard.replay, Array.from(document.querySelectorAll"
                                "('#picture circle.px'), c => c.getAttribute('fill'))]")
        assert now["at"] == i
        assert [rgb(c) for c in colours] == frame_colours(steps[i].frame), i
        words = now["words"]
        assert words.startswith("step %d of %d" % (i, len(steps) - 1))
        assert ("hidden (?)" in words) == ("?" in steps[i].moves), words

    at(0)
    assert "38 hidden (?)" in shown(board)["words"]  # the deal of the tiles: never shown
    for _ in range(3):
        board.page.click("#replay-next")
    at(3)
    board.page.click("#replay-back")
    at(2)
    board.page.fill("#replay-step", "17")
    board.page.dispatch_event("#replay-step", "change")
    at(17)
    board.page.click("#replay-last")
    at(len(steps) - 1)
    board.page.click("#replay-first")
    board.page.select_option("#replay-speed", "400")
    board.page.click("#replay-play")
    board.advance(1000)  # 400 ms a step, on the page's clock
    board.page.click("#replay-play")  # paused
    paused = shown(board)["at"]
    assert paused >= 2
    board.advance(2000)
    at(paused)
    board.page.click("#replay-close")
    board.wait_for("!window.cheeseboard.replay && document.querySelector('#picture svg text')"
                   ".textContent.includes('gouda')", what="the board's own overlay back")


def test_a_log_of_the_game_on_the_picture_shows_its_first_step_lit(open_board):
    # Opening a replay puts the board's own overlay back while the replay's is asked for: the
    # same game's overlay, still loading, must not replace the first step's frame once drawn.
    journal = ROOT / "docs" / "pictures" / "gouda-journal.txt"
    first = positions.positions(logfile.read(journal), load_profile("pico"))[0]
    board = open_board(fake_clock=True)
    board.boot()
    board.page.set_input_files("#replay-file", str(journal))
    board.wait_for("window.cheeseboard.replay", ms=120000, step=200, what="the replay")
    colours = board.js("Array.from(document.querySelectorAll('#picture circle.px'), "
                       "c => c.getAttribute('fill'))")
    assert [rgb(c) for c in colours] == frame_colours(first.frame)
    assert any(any(c) for c in frame_colours(first.frame))  # the first step is lit


def test_the_pages_own_game_replays_to_where_it_is(open_board):
    board = open_board(fake_clock=True)
    board.boot()
    board.menu("katz", {"players": 2})
    for _ in range(6):
        board.click("roll" if board.state()["wait"] == "roll" else "ok", then_ms=900)
    moves = board.state()["moves"]
    assert moves >= 3
    board.page.click("#replay-own")
    board.wait_for("window.cheeseboard.replay", ms=120000, step=200, what="the replay")
    board.page.click("#replay-last")
    assert shown(board)["words"].startswith("step %d of %d (move %d)"
                                            % (shown(board)["count"] - 1,
                                               shown(board)["count"] - 1, moves))


def test_a_bad_log_gets_one_line(open_board, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("what we played last night\n")
    board = open_board(fake_clock=True)
    board.boot()
    board.page.set_input_files("#replay-file", str(bad))
    said = board.wait_for("document.getElementById('replay-words').textContent.includes("
                          "'expected')", ms=120000, step=200, what="the refusal")
    words = board.js("document.getElementById('replay-words').textContent")
    assert said and "\n" not in words and "the log: expected a board's journal.txt" in words
    assert board.js("window.cheeseboard.replay") is None


def test_a_journal_with_two_thousand_takebacks_replays_to_its_end(open_board, tmp_path):
    """The page's VM runs the host's one-pass replay: the kitchen's journal with 2,000
    takebacks (each a move or two back and the moves again) ends where the journal ends."""
    sys.path.insert(0, str(ROOT / "tests" / "replay"))
    from takeback_journal import journal_with_takebacks

    path = tmp_path / "journal.txt"
    path.write_text(journal_with_takebacks(2000))
    board, steps = replayed(open_board, path, ms=600000)
    board.page.click("#replay-last")
    colours = board.js("Array.from(document.querySelectorAll('#picture circle.px'), "
                       "c => c.getAttribute('fill'))")
    assert [rgb(c) for c in colours] == frame_colours(steps[-1].frame)
    plain = positions.positions(logfile.read(JOURNAL), load_profile("pico"))
    assert steps[-1].frame == plain[-1].frame


def test_a_log_past_the_replays_bounds_gets_one_line(open_board, tmp_path):
    sys.path.insert(0, str(ROOT / "tests" / "replay"))
    from takeback_journal import crc_line

    path = tmp_path / "journal.txt"
    path.write_text(JOURNAL.read_text() + crc_line({"takeback": 60})
                    * (positions.MAX_TAKEBACKS + 1))
    board = open_board(fake_clock=True)
    board.boot()
    board.page.set_input_files("#replay-file", str(path))
    board.wait_for("document.getElementById('replay-words').textContent.includes('at most')",
                   ms=120000, step=200, what="the refusal")
    words = board.js("document.getElementById('replay-words').textContent")
    assert words == "the log: %d takebacks: a replay takes at most %d" % (
        positions.MAX_TAKEBACKS + 1, positions.MAX_TAKEBACKS)
    assert board.js("window.cheeseboard.replay") is None
