"""The replay in one pass: its steps are those of a replay that resumes the firmware's Play
from the log's start at every line (the way a board powers up with its journal cut there), on
every game's journal with takebacks; a journal with 2,000 takebacks replays to where it should
end; a log past the replay's bounds is refused in one line naming the bound."""

import json

import pytest
import takeback_games as tg
from engine_driver import load_profile
from takeback_journal import JOURNAL, crc_line, journal_with_takebacks
from test_replay import live_game

from cheeseboard import cli
from cheeseboard.replay import logfile, positions, terminal
from cheeseboard.replay.positions import ReplayError


def from_the_start(game, profile):
    """The steps as a board shows them on powering up at each line: the firmware's Play resumed
    from the log's first line every time (the reference: its work grows with the square of the
    lines)."""
    fw = positions.firmware()
    module = fw["games"].load(game.header["game"])
    rules = positions.default_rules(module.NAME)
    seats = [tuple(s) for s in game.header.get("seats", ())]
    made = positions._maker(fw, module, rules, game.header.get("options") or {}, game.header,
                            profile, seats)
    CHANCE = fw["games"].CHANCE
    found = []
    before = None
    shown = 0
    for n in range(len(game.lines) + 1):
        line = game.lines[n - 1] if n else None
        play, dealt = made(game.lines[:n])
        was, now = (before.state if before else None), play.state
        mid_roll = was is not None and was.current_player() == CHANCE and was.chance_is_roll() \
            and now.current_player() == CHANCE and now.chance_is_roll() \
            and len(now.history) == len(was.history) + 1
        if isinstance(line, dict):
            found.append((play, n, [], len(before.state.history) - line["takeback"]))
        elif dealt or mid_roll:
            before = play
            continue
        else:
            start = len(now.history) - (n - shown)
            found.append((play, n, positions._moves(play, start, n - shown, False), 0))
        shown = n
        before = play
    steps = []
    for i, (play, n, moves, went) in enumerate(found):
        after = found[i + 1] if i + 1 < len(found) else None
        if after and not after[3] and after[2] and after[2][0] != "?" and play.wait == "decide":
            played = fw["games"].as_action(json.loads(json.dumps(after[2][0])))
            play.cursor = list(play.choices).index(played)
        steps.append(positions._position(fw, play, i, n, moves, went, profile))
    return steps


def seen(steps):
    return [(s.lines, s.frame, s.described, s.moves, s.took_back, s.history, tg.canon(s.full))
            for s in steps]


@pytest.mark.parametrize("name,options,seats", tg.GAMES)
def test_one_pass_gives_the_steps_of_a_resume_at_every_line(name, options, seats):
    """A live game with takebacks (each goes back to a step the replay kept), then takebacks
    of its own: to where it is, one move back and the move again, and to the game's start
    (a length no step showed: the game rebuilt from its first move)."""
    profile = load_profile("pico16" if name == "gatenkaas" else "pico")
    text, _, _ = live_game(name, options, seats, 1, profile, limit=120)
    game = logfile.parse_journal(text, "journal.txt")
    count = positions.positions(game, profile)[-1].history
    extra = [{"takeback": count}, {"takeback": count - 1}, _last_move(game), {"takeback": 0}]
    game = logfile.parse_journal(text + "".join(crc_line(x) for x in extra), "journal.txt")
    fast = positions.positions(game, profile)
    assert sum(bool(s.took_back) for s in fast) >= 2
    assert seen(fast) == seen(from_the_start(game, profile))


def _last_move(game):
    """The history's last move (after the log's own takebacks)."""
    history = []
    for line in game.lines:
        if isinstance(line, dict):
            del history[line["takeback"]:]
        else:
            history.append(line)
    return history[-1]


def test_two_thousand_takebacks_replay_to_the_journal_s_end(tmp_path):
    profile = load_profile("pico")
    plain = positions.positions(logfile.read(JOURNAL), profile)
    path = tmp_path / "journal.txt"
    path.write_text(journal_with_takebacks(2000))
    steps = positions.positions(logfile.read(path), profile)
    assert sum(bool(s.took_back) for s in steps) == 2000
    assert (steps[-1].frame, steps[-1].described, steps[-1].full) == \
        (plain[-1].frame, plain[-1].described, plain[-1].full)
    # and 2,000 takeback lines at the journal's end, each to where the game is
    moves = len(logfile.read(JOURNAL).lines)
    path.write_text(JOURNAL.read_text() + crc_line({"takeback": moves}) * 2000)
    steps = positions.positions(logfile.read(path), profile)
    assert len(steps) == len(plain) + 2000
    assert (steps[-1].frame, steps[-1].full) == (plain[-1].frame, plain[-1].full)
    words = terminal.words(steps[-1], steps, logfile.read(path), False)[0]
    assert words.endswith(": 0 moves taken back"), words


@pytest.mark.parametrize("what,lines", [
    ("takebacks", [{"takeback": 60}] * (positions.MAX_TAKEBACKS + 1)),
    ("moves and takebacks", ["cheese"] * positions.MAX_LINES),
])
def test_a_log_past_the_bounds_is_refused_in_one_line(what, lines, tmp_path, capsys):
    """Refused before any move is played (the moves past the journal's are not even legal)."""
    path = tmp_path / "journal.txt"
    path.write_text(JOURNAL.read_text() + "".join(crc_line(x) for x in lines))
    game = logfile.read(path)
    with pytest.raises(ReplayError, match=r"^%s: \d+ %s: a replay takes at most" % (path, what)):
        positions.positions(game, load_profile("pico"))
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cheeseboard: ") and err.count("\n") == 1 and what in err, err


def test_a_log_past_its_bytes_bound_is_refused_as_text_too():
    """The web board hands the replay a dropped file's text: the same bound as a file read."""
    text = JOURNAL.read_text() + crc_line({"takeback": 60}) * ((4 << 20) // 26)
    with pytest.raises(ReplayError, match="^the log: over 4 MB: not a game's log$"):
        logfile.parse(text, "the log")
