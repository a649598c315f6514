"""Which game a rule table is for (host/cheeseboard/rules/naming.py): the same refusals and
names on CPython (`cheeseboard rules check`, `sync`) and on MicroPython (the web board's upload
runs it on its VM), for file names and tables of every kind."""

import json
from pathlib import Path

from mpvm import run_mp

from cheeseboard.rules import naming
from cheeseboard.rules.check import check_bytes, games

HOST = Path(naming.__file__).resolve().parent

CASES = [
    ("kitchen.json", {"game": "gouda"}),
    ("kitchen.json", {"game": "kitch\u00e9n"}),
    ("house.json", {"game": "kitch\u00e9n"}),
    ("kitchen-8cheese.json", {"game": "kitchen"}),
    ("kitchen_8.json", {}),
    ("kitchen.8.json", {"game": 5}),
    ("kitchens.json", {"game": "kitchen"}),
    ("kitchens.json", {}),
    ("/tmp/x/gouda.json", {"game": "gouda"}),
    (".json", {"game": "katz"}),
    ("katz", []),
    ("katz.json", None),
    ("Kitchen.json", {"game": "Kitchen"}),
]


def test_the_rule_is_the_same_on_micropython():
    code = ("import sys, json\nsys.path.append(%r)\nimport naming\nGAMES = %r\n"
            "for name, table in json.loads(%r):\n"
            "    print(json.dumps([naming.problems(name, table, GAMES),"
            " naming.game_of(name, table, GAMES), naming.stem(name)]))\n"
            % (str(HOST), list(games()), json.dumps(CASES)))
    got = [json.loads(line) for line in run_mp(code).splitlines()]
    want = [[naming.problems(n, t, games()), naming.game_of(n, t, games()), naming.stem(n)]
            for n, t in CASES]
    assert got == want
    assert sum(bool(p) for p, _, _ in want) >= 8  # (refusals of every kind among them)


def test_rules_check_refuses_a_file_named_for_another_game_in_its_words():
    problems = check_bytes(json.dumps({"game": "gouda"}).encode(), Path("kitchen.json"))
    assert problems == ["game: the file's name says 'kitchen', the table is 'gouda''s (rename "
                        "the file, or fix its `game` field)"]
    assert check_bytes(json.dumps({"game": "kitch\u00e9n"}).encode(), Path("house.json")) == [
        "game: expected one of %s, got 'kitch\u00e9n'" % ", ".join(games())]
