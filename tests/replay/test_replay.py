"""`cheeseboard replay`: every game, played live with takebacks, replays to the same positions;
hidden moves stay hidden until the game is over; a bad log gets one line."""

import json

import pytest
import takeback_games as tg
from engine_driver import ROOT, load_profile

from cheeseboard import cli
from cheeseboard.replay import logfile, positions, terminal
from cheesefw import render
from cheesefw.engine import play as P
from cheesefw.engine.draw import Painter
from cheesefw.engine.journal import Journal
from cheesefw.engine.rng import Rng
from cheesefw.games import load


def snapshot(play, profile):
    """What the board shows now (its frame after the limiter, as of time 0, once a refusal's
    300 ms flash and a tile's 1.2 s turning are over) and says."""
    saved = play.now, play.signal, play.reveal
    play.now, play.signal, play.reveal = 0, None, None
    frame = render.new_frame(profile["led"]["count"])
    play.draw(frame)
    play.now, play.signal, play.reveal = saved
    out = render.new_frame(profile["led"]["count"])
    render.PowerLimiter(profile["led"]).limit(frame, out)
    return bytes(out), play.describe()


def live_game(name, options, seats, seed, profile, odds=3, limit=3000):
    """A random game on the firmware's Play (a person's move now and then taken back), and at
    each wait: {journal lines: (state, [(frame, state's words)] for the cursor first on the
    move chosen, then on the first choice)}; returns (journal text, that record, hidden moves
    of the history)."""
    rules = json.loads((ROOT / "firmware" / "rules" / (name + ".json")).read_text())
    flash = tg.Flash()
    journal = Journal(flash)
    journal.start({"game": name, "options": options, "seed": seed, "seats": seats})
    painter = Painter(profile, name, rules.get("palette", {}), rules.get("signs"))
    play = P.Play(load(name), rules, options, seed, journal, painter, False, seats)
    rng = Rng(seed * 5 + 3)
    now = 0
    seen = {}
    for _ in range(limit):
        lines = len(flash.files["journal.txt"]) - 1
        state = tg.canon(play.state.to_dict())
        shown = seen.setdefault(lines, (state, []))[1]
        assert seen[lines][0] == state  # (the same lines, the same game)
        shown.append(snapshot(play, profile))  # (at a choice: the cursor on the first)
        if play.wait == "over":
            break
        if play.wait == "decide" and play.undo and rng.below(odds) == 0:
            play.on_button("prev", "long", now)
        elif not tg.choose(play, rng, now,
                           lambda p, shown=shown: shown.append(snapshot(p, profile))):
            # nobody chose: the board's clock moves on (a roll ends, a window closes, the board
            # plays)
            now += P.WINDOW_MS + 100
            play.update(now)
    bits = play.hidden  # (the moves the log hides until the game is over)
    hidden = [i for i in range(len(play.state.history))
              if i >> 3 < len(bits) and bits[i >> 3] >> (i & 7) & 1]
    return "".join(flash.files["journal.txt"]), seen, hidden


# Every game once; a second seed each with the long tests (`make test-slow`).
CASES = [pytest.param(name, options, seats, seed, marks=[pytest.mark.slow] if seed > 1 else [])
         for name, options, seats in tg.GAMES for seed in (1, 2)]


@pytest.mark.parametrize("name,options,seats,seed", CASES)
def test_replay_reaches_the_live_games_positions_forward_and_back(name, options, seats, seed):
    """Each step is a position the live board showed: the same state, the same words and the
    same LEDs; stepping back lands on the same positions again (each is rebuilt from the log)."""
    profile = load_profile("pico16" if name == "gatenkaas" else "pico")
    text, seen, _ = live_game(name, options, seats, seed, profile)
    game = logfile.parse_journal(text, "journal.txt")
    steps = positions.positions(game, profile)
    assert steps[-1].described["wait"] == "over"
    taken = sum(s.took_back for s in steps)
    assert taken > 0 or name in ("katz", "gouda")  # (a roll or a power after most moves)
    for step in steps + steps[::-1]:
        state, shown = seen[step.lines]
        assert tg.canon(step.full) == state, step.step
        frames = {f: d for f, d in shown}
        assert step.frame in frames, (name, step.step, step.described)
        live = dict(frames[step.frame], refused=0)  # (a count of the live board's refusals)
        assert live == step.described
    final = seen[len(game.lines)][0]
    assert tg.canon(steps[-1].full) == final


def test_hidden_moves_stay_hidden_until_the_game_is_over(capsys):
    """Kalle's rat and deal, cut off while the game runs: every hidden move of the history is
    "?" in the replay's words, and --reveal is refused; once over, --reveal names them."""
    profile = load_profile("pico")
    text, _, hidden = live_game("kalle", {"players": 3}, [[2, "strong"]], 1, profile)
    assert hidden
    rows = text.splitlines(keepends=True)
    running = logfile.parse_journal("".join(rows[:len(rows) * 2 // 3]), "journal.txt")
    steps = positions.positions(running, profile)
    assert steps[-1].described["wait"] != "over"
    history = []
    for step in steps:
        if step.took_back:
            del history[step.history:]
        history.extend(step.moves)
        assert len(history) == step.history
    cut = len(history)
    assert [i for i in range(cut) if history[i] == "?"] == [h for h in hidden if h < cut]
    path = ROOT / "tests" / ".replay-running.txt"
    try:
        path.write_text("".join(rows[:len(rows) * 2 // 3]))
        assert cli.main(["replay", str(path)]) == 0
        out = capsys.readouterr().out
        assert out.count("hidden (?)") >= 2
        assert cli.main(["replay", str(path), "--reveal"]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "still running" in err
        path.write_text(text)
        assert cli.main(["replay", str(path), "--reveal", "--step", "1"]) == 0
        out = capsys.readouterr().out
        assert "hidden (?)" not in out and "the whole state (--reveal)" in out
    finally:
        path.unlink(missing_ok=True)


def test_a_saved_log_replays_as_the_journal_does(tmp_path):
    """`cheeseboard log`'s lines (a finished game: no "?"), saved to a file, give the same
    positions as the journal, but for the takebacks, whose moves the log no longer lists."""
    profile = load_profile("pico")
    text, _, _ = live_game("katz", {"players": 3}, [[1, "strong"]], 2, profile)
    journal = logfile.parse_journal(text, "journal.txt")
    steps = positions.positions(journal, profile)
    saved = tmp_path / "game.log"
    saved.write_text("# %s\n" % json.dumps(dict(journal.header, over=True)) + "".join(
        "%d: %s\n" % (i, json.dumps(m)) for i, m in enumerate(journal.lines)))
    again = positions.positions(logfile.read(saved), profile)
    assert [(s.frame, s.described) for s in again] == [(s.frame, s.described) for s in steps]


def test_the_keys_step_forward_back_jump_and_play_on():
    c = terminal.Controls(10, 0, speed=0.5)
    for key in (b"l", b"\x1b[C", b"l"):
        c.key(key, 0)
    assert c.at == 3
    c.key(b"h", 0)
    assert c.at == 2
    for key in (b"7", b"\r"):
        c.key(key, 0)
    assert c.at == 7
    for key in (b"9", b"9", b"\r"):
        c.key(key, 0)
    assert c.at == 9  # (past the end: the last step)
    c.key(b"g", 0)
    c.key(b" ", 0.0)
    c.tick(0.4)
    assert c.at == 0
    c.tick(0.6)
    c.tick(1.2)
    assert c.at == 2 and c.playing
    assert c.key(b"q", 2) is False


BAD = {
    "missing.txt": None,
    "binary.txt": b"\xff\xfe\x00\x01",
    "prose.txt": b"hello, this is no log\n",
    "crc.txt": b'00000000 {"game": "katz", "options": {"players": 2}}\n',
    "game.txt": b'# {"game": "chess"}\n0: 1\n',
    "lines.txt": b'# {"game": "katz", "options": {"players": 2}}\n0: 3\n5: 1\n',
    "illegal.txt": b'# {"game": "katz", "options": {"players": 2}}\n0: 9\n1: ["zz", 9]\n',
    "takeback.txt": b'# {"game": "katz", "options": {"players": 2}}\n0: {"takeback": "x"}\n',
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_log_gets_one_line(name, tmp_path, capsys):
    path = tmp_path / name
    if BAD[name] is not None:
        path.write_bytes(BAD[name])
    assert cli.main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cheeseboard: ") and err.count("\n") == 1, err


REPLAY_SVG = ROOT / "docs" / "pictures" / "kitchen-replay.svg"
REPLAY_CMD = ("replay", "docs/pictures/kitchen-journal.txt", "--svg",
              "docs/pictures/kitchen-replay.svg", "--speed", "0.8")


def test_the_animated_svg_steps_through_the_replays_frames(tmp_path, capsys):
    """Each changing pixel's fill takes the colour of every step's frame, in turn; the
    README shows the one made from docs/pictures/kitchen-journal.txt, and it is fresh."""
    import xml.etree.ElementTree as ET

    out = tmp_path / "game.svg"
    args = list(REPLAY_CMD)
    args[args.index("docs/pictures/kitchen-journal.txt")] = str(ROOT / args[1])
    args[args.index("docs/pictures/kitchen-replay.svg")] = str(out)
    assert cli.main(args) == 0
    assert out.read_bytes() == REPLAY_SVG.read_bytes(), (
        "stale: run `cheeseboard %s` from the checkout" % " ".join(REPLAY_CMD))
    assert "(docs/pictures/kitchen-replay.svg)" in (ROOT / "README.md").read_text()
    steps = positions.positions(logfile.read(ROOT / REPLAY_CMD[1]), load_profile("pico"))
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.fromstring(out.read_text())
    moving = 0
    for circle in root.iter("{http://www.w3.org/2000/svg}circle"):
        px = int(circle.get("id")[3:])
        want = ["#%02x%02x%02x" % tuple(s.frame[3 * px:3 * px + 3]) for s in steps]
        animate = circle.find("s:animate", ns)
        if animate is None:
            assert len(set(want)) == 1 and circle.get("fill") == "rgb(%d,%d,%d)" % tuple(
                steps[0].frame[3 * px:3 * px + 3])
        else:
            moving += 1
            assert animate.get("values").split(";") == want
    assert moving > 3
    captions = [t for t in root.iter("{http://www.w3.org/2000/svg}text")
                if t.find("s:animate", ns) is not None]
    assert len(captions) == len(steps) and "hidden (?)" in captions[0].text


def test_a_board_asked_over_its_port_replays_its_game(monkeypatch, capsys):
    """--port: the board's `state` names the game, its `log` pages give the moves (a board
    that answers as the firmware does: pages of 20, everything in clear once it is over)."""
    from cheeseboard.board import connect

    profile = load_profile("pico")
    text, _, _ = live_game("katz", {"players": 2}, [], 3, profile)
    moves = logfile.parse_journal(text, "journal.txt").lines
    moves = [m for m in moves if not isinstance(m, dict)]

    class Board:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def request(self, cmd, **kw):
            if cmd == "state":
                return {"state": {"mode": "play", "game": "katz", "options": {"players": 2},
                                  "wait": "over", "board": []}}
            start = kw["from"]
            return {"from": start, "total": len(moves), "moves": moves[start:start + 20]}

    monkeypatch.setattr(connect, "open_client", lambda port: Board())
    assert cli.main(["replay", "--port", "/dev/ttyACM9"]) == 0
    out = capsys.readouterr().out
    last = len(positions.positions(logfile.parse_journal(text, "j"), profile)) - 1
    assert "step 0 of " in out and "game over" in out
    assert out.count("step ") >= last
