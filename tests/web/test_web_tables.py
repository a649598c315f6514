"""The web board's rule-table upload and `cheeseboard rules check` give the same verdict on
every kind of bad table, with the host's words where the page judges a table itself (the
game a table is for: host/cheeseboard/rules/naming.py on the page's VM); a table refused
leaves the board's table as it was."""

import hashlib
import json
from pathlib import Path

import pytest
from webpage import MISSING, table_sha, upload_table

from cheeseboard import paths
from cheeseboard.rules.check import check_bytes

if MISSING:
    pytest.skip(MISSING, allow_module_level=True)
else:  # the browser's fixtures
    from test_web_browser import browser, open_board, site  # noqa: F401

KITCHEN = (paths.FIRMWARE / "rules" / "kitchen.json").read_bytes()
GOUDA = (paths.FIRMWARE / "rules" / "gouda.json").read_bytes()


def kitchen(**changes):
    table = json.loads(KITCHEN)
    for key, value in changes.items():
        if value is None:
            del table[key]
        else:
            table[key] = value
    return json.dumps(table, indent=1).encode()


def nested(depth):
    return ("[" * depth + "]" * depth).encode()


# (file name, bytes): good tables, and bad ones of every kind an upload may bring
KINDS = {
    "Gouda's table named kitchen": ("kitchen.json", GOUDA),
    "a game kitchén, named kitchen": ("kitchen.json", kitchen(game="kitch\u00e9n")),
    "a game kitchén, named for none": ("house.json", kitchen(game="kitch\u00e9n")),
    "the kitchen's table named gouda": ("gouda.json", KITCHEN),
    "no game field, named kitchen": ("kitchen.json", kitchen(game=None)),
    "a game that is a number": ("kitchen.json", kitchen(game=5)),
    "a game in capitals": ("house.json", kitchen(game="Kitchen")),
    "a list": ("kitchen.json", b"[1, 2]"),
    "empty": ("kitchen.json", b""),
    "prose": ("kitchen.json", b"the kitchen, with 8 cheeses\n"),
    "a trailing comma": ("kitchen.json", KITCHEN.rstrip()[:-1].rstrip() + b",\n}\n"),
    "NaN": ("kitchen.json", KITCHEN.replace(b'"game"', b'"nan": NaN, "game"', 1)),
    "a leading zero": ("kitchen.json", KITCHEN.replace(b'"version": 1', b'"version": 01')),
    "nested 2,000 deep": ("kitchen.json", nested(2000)),
    "past the board's 16 KB": ("kitchen.json", KITCHEN.rstrip() + b" " * 17000 + b"\n"),
    "a byte order mark": ("kitchen.json", b"\xef\xbb\xbf" + KITCHEN),
    "a wide character in a string": ("kitchen.json",
                                     KITCHEN.replace(b'"f4"', '"f\uff14"'.encode())),
    "a game kitchén in UTF-8": ("kitchen.json", KITCHEN.replace(
        b'"game": "kitchen"', '"game": "kitch\u00e9n"'.encode())),
    "a misspelt key": ("kitchen.json", kitchen(wins={"cheese": 8})),
    "a field of the wrong type": ("kitchen.json", kitchen(grid={"cols": "6", "rows": 7})),
    "a field out of range": ("kitchen.json", kitchen(grid={"cols": 0, "rows": 7})),
    "the kitchen's table as Katz's": ("katz.json", kitchen(game="katz")),
    "the kitchen's table": ("kitchen.json", KITCHEN),
    "a house rule, named for its game": ("kitchen-8.json", kitchen(
        win=dict(json.loads(KITCHEN)["win"], cheese=8))),
    "Gouda's table, named for none": ("mine.json", GOUDA),
}


def upload(board, folder, name, data):
    """Send a table file with the page's file input; the verdict the page shows."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return upload_table(board, path)


@pytest.mark.parametrize("kind", ["Gouda's table named kitchen",
                                  "a game kitchén, named kitchen",
                                  "a game kitchén, named for none"])
def test_a_table_for_another_game_is_refused_in_the_host_s_words(open_board, tmp_path, kind):
    name, data = KINDS[kind]
    host = check_bytes(data, Path(name))
    assert len(host) == 1 and host[0].startswith("game: ")
    board = open_board()
    board.boot()
    result = upload(board, tmp_path, name, data)
    assert result.endswith(": refused: " + host[0]), result
    assert "\n" not in result
    assert table_sha(board, "kitchen") == hashlib.sha256(KITCHEN).hexdigest()
    assert table_sha(board, "gouda") == hashlib.sha256(GOUDA).hexdigest()


def test_every_kind_of_table_gets_the_host_s_verdict(open_board, tmp_path):
    board = open_board()
    board.boot()
    verdicts = {}
    for i, (kind, (name, data)) in enumerate(sorted(KINDS.items())):
        result = upload(board, tmp_path / str(i), name, data)
        verdicts[kind] = ("taken" if ": taken" in result else "refused",
                          "taken" if not check_bytes(data, Path(name)) else "refused", result)
    assert [k for k, (page, host, _) in verdicts.items() if host == "taken"] == sorted([
        "Gouda's table, named for none", "a house rule, named for its game",
        "the kitchen's table"])
    assert {k: v for k, v in verdicts.items() if v[0] != v[1]} == {}
