# Random games with takebacks, played through the engine's Play on CPython or on the real
# MicroPython VM (the same file runs on both: no CPython-only features).
#
# At each step a random player choice is made, or prev is held (a takeback). Checked as it
# plays: a takeback goes back to exactly the state the game had at that length (each length's
# state is kept as a CRC of its canonical JSON), only over moves that revealed nothing, to the
# start of a person's move; at the end the journal resumes to the same game (a power cut), and
# the final history alone, played on a fresh state, gives the same state as the game with its
# takebacks (the taken-back moves leave no trace).

import binascii
import io
import json

from cheesefw.engine import play as P
from cheesefw.engine.journal import Journal
from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, PASS, REACTION, load


class Flash:
    """The board's flash: each file a list of the lines written to it (a journal is all it
    holds here; a list, so that a long game's journal needs no block of its whole size; a
    line an item, however many lines one append writes: a deal's cards come in one)."""

    def __init__(self):
        self.files = {}

    def write_file(self, name, data):
        self.files[name] = [bytes(data).decode()]

    def append_file(self, name, text):
        self.files[name].extend(text.splitlines(True))

    def open(self, name, mode="r"):
        if name not in self.files:
            raise OSError(2)
        return io.StringIO("".join(self.files[name]))


def canon(x):
    """x as JSON with sorted keys (dicts are unordered on MicroPython)."""
    if isinstance(x, dict):
        return "{" + ",".join(json.dumps(k) + ":" + canon(x[k]) for k in sorted(x)) + "}"
    if isinstance(x, (list, tuple)):
        return "[" + ",".join(canon(v) for v in x) + "]"
    return json.dumps(x)


def crc(state):
    return binascii.crc32(canon(state.to_dict()).encode()) & 0xFFFFFFFF


def target(play):
    """The history length a takeback would now go back to, or None."""
    return play.undo[-1] if play.undo else None


def check_span(module, rules, options, history, to, people):
    """The moves history[to:] may be taken back together: the first is a person's, and none
    rolled, drew, turned or played a power (an oracle written apart from the engine's)."""
    state = module.State(rules, options)
    for i in range(len(history)):
        player = state.current_player()
        action = history[i]
        if i == to:
            assert player in people, ("a takeback to a move that is not a person's", to)
        state.apply_action(action)
        if i < to:
            continue
        assert player != CHANCE, ("a takeback past a chance outcome", i)
        assert not (player == REACTION and action != PASS), ("past a power played", i)
        reveals = getattr(state, "reveals", None)
        assert not (reveals and reveals()), ("past a move that turned something over", i)
        assert i == to or player not in people or player == REACTION, (
            "past another person's move", i)


def start(name, options, seats, seed):
    """A new game's Play on a Flash, and what rebuilding it needs: (play, flash, rules)."""
    rules = json.loads(open("rules/%s.json" % name).read())
    flash = Flash()
    journal = Journal(flash)
    journal.start({"game": name, "options": options, "seed": seed})
    play = P.Play(load(name), rules, options, seed, journal, None, False, seats)
    return play, flash, rules


def resume(flash, rules, seats):
    """The same game after a power cut: a new Play that replays the journal."""
    journal = Journal(flash)
    header = journal.header()
    return P.Play(load(header["game"]), rules, header["options"], header["seed"], journal, None,
                  True, seats)


def choose(play, rng, now, walked=None):
    """One random choice of the players (never a takeback), if the board waits on one: True
    when one was made. walked(play), when given, sees the player on their move, before ok."""
    wait = play.wait
    if wait == "decide":
        play.cursor = rng.below(len(play.choices))  # the player walks to their move
        if walked is not None:
            walked(play)
        peek = play._secret() is not None
        if peek:
            play.on_button("roll", "press", now)
        play.on_button("ok", "press", now)
        if peek and play.peeking:
            play.on_button("roll", "release", now)
    elif wait == "roll":
        play.on_button("roll", "press", now)
    elif wait == "window" and rng.below(3) == 0:
        play.on_button("ok", "press", now)  # someone reacts: a seat, then its move
        play.seat = rng.below(play.players)
        play.on_button("ok", "press", now)
        if play.wait == "react":
            play.cursor = rng.below(len(play.choices))
            play.on_button("ok", "press", now)
        else:  # that seat had nothing to play: the window goes on
            play.on_button("back", "press", now)
    else:
        return False
    return True


def step(play, rng, now):
    """One random choice of the players (never a takeback), then time moves on; the new time."""
    choose(play, rng, now)
    now += P.WINDOW_MS + 100
    play.update(now)
    return now


def play_game(name, options, seats, seed, odds=4, limit=3000):
    """One random game; returns (moves, takebacks, refused, crc of the final state)."""
    play, flash, rules = start(name, options, seats, seed)
    module = play.module
    people = [p for p in range(play.players) if p not in play.levels]
    rng = Rng(seed * 7 + 1)
    now = 0
    seen = {}  # history length -> crc of the state at that length
    takebacks = refused = 0
    for _ in range(limit):
        wait = play.wait
        if wait == "over":
            break
        seen[len(play.state.history)] = crc(play.state)
        if wait in ("decide", "roll", "window", "bot") and rng.below(odds) == 0:
            history = list(play.state.history)
            to = target(play)
            before = play.refused
            play.on_button("prev", "long", now)
            if to is None:
                assert play.refused == before + 1 and len(play.state.history) == len(history)
                refused += 1
                continue
            takebacks += 1
            assert len(play.state.history) == to < len(history)
            assert crc(play.state) == seen[to], ("not the state it had", to)
            check_span(module, rules, options, history, to, people)
            assert play.wait == "decide" and play.state.current_player() in people
            for n in list(seen):
                if n > to:
                    del seen[n]
            continue
        now = step(play, rng, now)
    assert play.wait == "over", "the game did not end"
    final = crc(play.state)
    # A power cut: the journal resumes to the same game, takebacks and all.
    again = resume(flash, rules, seats)
    assert crc(again.state) == final
    assert again.takebacks == play.takebacks
    # The game without the taken-back moves: its history alone gives the same state.
    fresh = module.State(rules, options)
    for action in play.state.history:
        fresh.apply_action(action)
    assert crc(fresh) == final
    return len(play.state.history), takebacks, refused, final


GAMES = (
    ("gouda", {"players": 3, "powers": True}, [[2, "strong"]]),
    ("gouda", {"players": 2, "powers": False}, [[1, "beginner"]]),
    ("kitchen", {"cat": "board"}, []),
    ("kalle", {"players": 3}, [[2, "strong"]]),
    ("katz", {"players": 3}, [[1, "strong"]]),
    ("gatenkaas", {"players": 2, "hands": "open"}, []),  # (hidden: a card laid is seen)
)


def main(seeds=(1, 2)):
    for name, options, seats in GAMES:
        for seed in seeds:
            moves, taken, refused, final = play_game(name, options, seats, seed)
            print("%s %d moves %d takebacks %d refused %08x" % (name, moves, taken, refused,
                                                                 final))
