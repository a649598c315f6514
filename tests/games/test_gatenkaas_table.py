"""The Gatenkaas rule table: mutated tables refused on the board and on the host, the field
named; the designed deck's make-up as the rulebook gives it."""

import copy
import json
from pathlib import Path

import pytest

from cheeseboard.rules import check as host_rules
from cheesefw.games import gatenkaas

ROOT = Path(__file__).resolve().parents[2]
RULES = json.loads((ROOT / "firmware/rules/gatenkaas.json").read_text())


def test_the_designed_deck_has_the_rulebooks_make_up():
    deck = gatenkaas.check_table(RULES)
    assert deck.size == 29 and deck.cats == 4  # 1 start card, 4 cat cards, 24 mouse cards
    holes = [len([b for b in f if b == 1]) for f in deck.faces]
    assert holes[0] == 0 and set(holes[1:]) == {1, 2}
    mice = [sum(1 for f in deck.faces[5:] for b in f if b == 2 + k) for k in range(4)]
    assert mice == [9, 9, 9, 9]  # the four colours alike
    assert host_rules.check_table(RULES) == []


def edit(path, value):
    def apply(t):
        *keys, last = path
        for k in keys:
            t = t[k]
        if value is KeyError:
            del t[last]
        else:
            t[last] = value
    return apply


MUTATIONS = [
    (edit(["grid", "cols"], 2), "grid.cols"),
    (edit(["card", "width"], 20), "card"),
    (edit(["start", "col"], 15), "start"),  # the start card past the grid's edge
    (edit(["start", "face"], ["g.o", "y.r"]), "start.face"),  # a hole on the start card
    (edit(["mice", 3], ["ooo", "p.."]), "mice[3]"),  # 3 holes
    (edit(["mice", 3], ["...", "p.."]), "mice[3]"),  # no hole
    (edit(["mice", 3], ["o..", "..."]), "mice[3]"),  # no mouse on a mouse card
    (edit(["mice", 3], ["o.x", "p.."]), "mice[3]"),  # no such colour
    (edit(["mice", 3], ["o.", "p."]), "mice[3]"),  # not the card's size
    (edit(["cats", 3], KeyError), "cats"),  # 3 cat cards, where the rulebook has 4
    (lambda t: t["mice"].append(["o..", "..g"]), "mice"),  # 25 mouse cards
    (edit(["cheese"], 30), "cheese"),
    (edit(["colours"], ["green", "purple", "yellow"]), "colours"),
    (edit(["hand"], 9), "hand"),  # 4 hands of 9 are more than the deck
    (edit(["players", "max"], 5), "players.max"),
    (edit(["cats_out", "7"], 1), "cats_out"),
    (edit(["palette", "0"], [1, 2]), "palette.0"),
    (edit(["side_spaces"], ["t0a"]), "side_spaces"),
    (edit(["grid"], KeyError), "grid"),
]


@pytest.mark.parametrize("mutate, field", MUTATIONS)
def test_a_mutated_table_is_refused_naming_the_field(mutate, field):
    table = copy.deepcopy(RULES)
    mutate(table)
    with pytest.raises(ValueError) as e:
        gatenkaas.State(table, {})
    assert field in str(e.value)
    problems = host_rules.check_table(table)
    assert problems and any(p.startswith(field) or field in p for p in problems), problems


def test_the_schema_refuses_unknown_keys():
    table = copy.deepcopy(RULES)
    table["grid"]["depth"] = 3
    assert host_rules.check_table(table) == [
        "grid.depth: unknown key (known keys: cols, rows)"]


def test_a_bad_option_is_refused():
    for options in ({"players": 5}, {"hands": "shown"}, {"colour": 1}):
        with pytest.raises(ValueError, match="expected"):
            gatenkaas.State(RULES, options)
    table = copy.deepcopy(RULES)
    table["players"]["min"] = 3
    with pytest.raises(ValueError, match="rules.players"):
        gatenkaas.State(table, {"players": 2})
