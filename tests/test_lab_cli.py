"""`cheeseboard lab` refuses bad input as a user meets it: the installed command, run from a
folder outside the repository; one line naming what is wrong, non-zero, no traceback, and
nothing written to --out."""

import json
from pathlib import Path

import pytest
from installed import assert_clear_refusal, run

ROOT = Path(__file__).resolve().parents[1]


def bad_table(home):
    t = json.loads((ROOT / "firmware/rules/gouda.json").read_text())
    t["dice"]["n"] = 9  # a board has at most 5 dice
    path = Path(home) / "bad.json"
    Path(home).mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(t))
    return str(path)


CASES = [
    (["chess"], ["unknown game", "gouda"]),
    (["gouda", "--option", "colour=blue"], ["colour", "players"]),
    (["gouda", "--option", "players=9"], ["players", "expected one of"]),
    (["gouda", "--option", "players"], ["KEY=VALUE"]),
    (["gouda", "--games", "0"], ["--games", "at least 1"]),
    (["gouda", "--players", "genius"], ["genius", "random"]),
    (["kitchen", "--option", "short_game=maybe"], ["short_game", "true"]),
    (["katz", "--option", "board=1"], ["board", "players"]),  # the menu's seat step now
    (["gouda", "--rules", "BAD"], ["dice.n"]),
    (["gouda", "--rules", "missing.json"], ["missing.json", "cannot read"]),
    (["gouda", "--against-option", "powers=often"], ["powers"]),
    (["gouda", "--games", "3", "--dask", "tcp://127.0.0.1:9"], ["Dask", "127.0.0.1:9"]),
]


@pytest.mark.parametrize("args,words", CASES)
def test_bad_input_is_one_clear_line_and_writes_nothing(tmp_path, args, words):
    home = tmp_path / "home"
    args = [bad_table(home) if a == "BAD" else a for a in args]
    result = run(home, "lab", *args, "--out", "out", timeout=120)
    assert_clear_refusal(result, *words)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not (home / "out").exists()


def test_a_small_sweep_from_outside_the_repository_writes_its_report(tmp_path):
    home = tmp_path / "home"
    result = run(home, "lab", "kitchen", "--games", "4", "--jobs", "1", timeout=180)
    assert result.returncode == 0, result.stderr
    assert "\r" not in result.stderr  # no progress bar when the output is not a terminal
    report = json.loads((home / "lab-kitchen" / "report.json").read_text())
    assert report["games"] == 4 and sum(report["wins"]) == 4
