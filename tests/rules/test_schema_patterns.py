"""The board's own JSON Schema check (cheesefw.schema): its pattern matcher against Python's re,
and what a check leaves behind on the MicroPython VM."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpvm import run_mp

from cheesefw import schema

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = sorted((ROOT / "host/cheeseboard/schemas").glob("*.schema.json"))


def _patterns(node, found):
    """Every pattern a schema holds: "pattern" values and patternProperties' keys."""
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            found.add(node["pattern"])
        found.update(node.get("patternProperties", {}))
        for value in node.values():
            _patterns(value, found)
    elif isinstance(node, list):
        for value in node:
            _patterns(value, found)
    return found


SHIPPED = sorted(set().union(*(_patterns(json.loads(p.read_text()), set()) for p in SCHEMAS)))
# Each construct the matcher knows, alone and nested, and loops over what may take no byte.
MORE = [
    "a", "^a", "a$", "^$", "^a.c$", "a|bc|", "^(ab|a)(c|bcd)$", "^(a|b)*c$", "^(a?)*$",
    "^(a*)*b$", "x{2}", "^x{0,2}$", "^x{2,}$", "^(xy){1,3}$", "[^a-c]", "^[a-c0-2_]+$",
    "\\d\\s\\w", "^\\.[.]$", "(a|ab)(c|bcd)(d*)", "^([a-z]{1,2}( [a-z]{1,2})*)?$",
]
ALPHABET = "abcdxy012_. -\n"


def test_the_schemas_have_patterns_to_check():
    assert len(SHIPPED) >= 8  # (the glob found the schemas)


@pytest.mark.parametrize("pattern", SHIPPED + MORE)
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET + "efghijklmnopqrstuvwz3456789ms,t", max_size=14))
def test_the_matcher_agrees_with_re(pattern, text):
    assert schema._search(pattern, text) == (re.search(pattern, text) is not None)


@pytest.mark.parametrize("pattern,text", [
    ("^[a-z0-9]{1,8}$", "abcdefgh"), ("^[a-z0-9]{1,8}$", "abcdefghi"),
    ("^[0-9]+(\\.[0-9]+)?\\s*(ms|s)$", "1.5 ms"), ("^[0-9]+(\\.[0-9]+)?\\s*(ms|s)$", "1. ms"),
    ("^([a-z0-9]{1,8}( [a-z0-9]{1,8})*)?$", ""), ("^([a-z0-9]{1,8}( [a-z0-9]{1,8})*)?$", "a  b"),
    ("\\.(svg|png)$", "board.svg"), ("\\.(svg|png)$", "board.svgz"),
])
def test_examples_of_the_shipped_patterns(pattern, text):
    assert schema._search(pattern, text) == (re.search(pattern, text) is not None)


def test_a_check_on_the_board_interns_no_character_of_the_table():
    """MicroPython interns every one-character string it makes, for good: a check that took
    a table's text character by character would leave its characters in the table of names
    (and a board that takes in tables would grow that table with each new character)."""
    out = run_mp(
        "import micropython\n"
        "from cheesefw import schema\n"
        "sch = {'type': 'object', 'patternProperties': {'^[a-z]+$': {'type': 'string',\n"
        "       'pattern': '^[A-Za-z ]+$'}}, 'additionalProperties': False}\n"
        "schema.check({'abc': 'Abc'}, sch)\n"  # (the names of the code: interned once)
        "def names():\n"
        "    micropython.qstr_info()\n"
        "names()\n"
        "schema.check({'qzjxkvw': 'QZJ XKV Wfgh'}, sch)\n"  # characters seen nowhere before
        "names()\n"
        "print(schema._search('^[A-Z]+$', 'QZJXKVW'), schema._search('^[A-Z]+$', 'QZJ-KVW'))\n"
    )
    counts = [int(n) for n in re.findall(r"n_qstr=(\d+)", out)]
    assert len(counts) == 2 and counts[1] == counts[0], out
    assert out.strip().endswith("True False")
