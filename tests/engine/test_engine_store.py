"""The die's random source and the journal: the same on MicroPython and CPython, and
a journal cut anywhere by a power cut comes back at its last completed move."""

import json
import random
from collections import Counter

import pytest
from journal_sweep import load
from mpvm import run_mp

from cheesefw.engine.journal import Journal
from cheesefw.engine.rng import Rng
from cheesefw.hal.base import Board


def test_the_same_seed_gives_the_same_draws_on_micropython_and_cpython():
    code = ("from cheesefw.engine.rng import Rng\n"
            "r = Rng(%d)\nprint([r.below(%d) for _ in range(200)])")
    for seed, n in ((1, 6), (123456789, 3), (0x3FFFFFFF, 38)):
        on_mp = json.loads(run_mp(code % (seed, n)))
        rng = Rng(seed)
        assert on_mp == [rng.below(n) for _ in range(200)]


def test_below_is_unbiased_and_in_range():
    rng = Rng(42)
    counts = Counter(rng.below(6) for _ in range(60000))
    assert set(counts) == set(range(6))
    for face in range(6):
        assert 9400 < counts[face] < 10600  # ~6 sigma around 10000


def test_choose_follows_the_probabilities_exactly():
    rng = Rng(7)
    outcomes = [("cheese", 10 / 38), ("dish", 8 / 38), ("knife", 20 / 38)]
    counts = Counter(rng.choose(outcomes) for _ in range(38000))
    assert abs(counts["cheese"] - 10000) < 600
    assert abs(counts["knife"] - 20000) < 600
    with pytest.raises(ValueError):
        rng.below(0)


def test_a_power_cut_at_any_byte_loses_only_the_move_being_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the board's flash: the base Board works on relative paths
    board = Board.__new__(Board)
    journal = Journal(board, "journal.txt")
    header = {"game": "gouda", "options": {"players": 3}, "seed": 99}
    moves = [["designate", i] for i in range(12)]
    journal.start(header)
    sizes = []
    for m in moves:
        journal.append(m)
        sizes.append((tmp_path / "journal.txt").stat().st_size)
    full = (tmp_path / "journal.txt").read_bytes()
    for cut in range(len(full.split(b"\n")[0]) + 1, len(full) + 1):
        (tmp_path / "journal.txt").write_bytes(full[:cut])
        loaded_header, loaded = load(journal)
        done = sum(1 for s in sizes if s <= cut)
        assert loaded_header == header
        assert loaded == moves[:done], cut
        journal.append(["next"])  # play goes on after the resume ...
        assert load(journal)[1] == moves[:done] + [["next"]]  # ... and is kept


def test_garbage_in_the_journal_is_no_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "journal.txt").write_bytes(random.Random(3).randbytes(300))
    assert Journal(Board.__new__(Board), "journal.txt").header() is None
    assert Journal(Board.__new__(Board), "missing.txt").header() is None


def test_the_journal_works_on_micropython(tmp_path):
    out = run_mp("""
from cheesefw.engine.journal import Journal
from cheesefw.hal.base import Board
class B(Board):
    def __init__(self): pass
j = Journal(B(), 'j.txt')
j.start({'game': 'kitchen', 'seed': 5})
for i in range(5):
    j.append([i, 'x'])
f = open('j.txt', 'a'); f.write('0123'); f.close()   # a torn line
moves = []
print(j.replay(moves.append), moves, j.header()['game'])
j.append('after')
moves = []
j.replay(moves.append)
print(moves[-1])
""", cwd=tmp_path)
    lines = out.split("\n")
    assert lines[0] == "5 [[0, 'x'], [1, 'x'], [2, 'x'], [3, 'x'], [4, 'x']] kitchen"
    assert lines[1] == "after"


def test_outcomes_all_alike_are_one_draw_of_their_number_as_weights_of_one_each_give_it():
    from cheesefw.engine.rng import _weights

    for n in (1, 2, 5, 6, 38, 97, 1024):
        alike = [1 / n] * n
        assert _weights(alike) == [1] * n
        outcomes = [(k, 1 / n) for k in range(n)]
        # the draw the weights would give: the first outcome whose running weight passes r
        assert [Rng(s).choose(outcomes) for s in range(50)] == [
            outcomes[Rng(s).below(n)][0] for s in range(50)]
    unlike = [10 / 38, 8 / 38, 20 / 38]  # (and the draws the same as they were)
    assert _weights(unlike) == [5, 4, 10]  # over 19
    three = list(zip("abc", unlike, strict=True))
    draws = [Rng(s).choose(three) for s in range(600)]
    assert 0.18 < draws.count("b") / 600 < 0.25 and 0.45 < draws.count("c") / 600 < 0.6
