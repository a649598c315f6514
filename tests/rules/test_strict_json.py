"""The board's strict JSON check (cheesefw/strict_json.py), run on the real MicroPython VM,
takes exactly the texts CPython's json takes (NaN and Infinity refused, as the host refuses
them): over the rule tables and small texts, each changed where the grammar is easy to get
wrong (table_mutations.syntax_mutation); it allocates nothing per byte, and its nesting is
bounded."""

import json
import random

import pytest
from mpvm import run_mp
from table_mutations import base_tables, syntax_mutation

pytestmark = pytest.mark.board

SMALL = ['{"a": [1, -2.5e3, 0.5E+2, true, false, null, "s\\n\\u00e9"], "b": {}, "c": [[]]}',
         '[0, -0, 10, 1e5, "\\"\\\\\\/\\b\\f\\n\\r\\t"]', '"x"', "0", "[]", "{}", "true"]

CHECK_EACH = """
from cheesefw.strict_json import check
with open(%r, 'rb') as f:
    while True:
        size = f.readline()
        if not size:
            break
        data = f.read(int(size))
        try:
            check(data, %d)
            print('ok')
        except ValueError as e:
            print('no', e)
"""


def texts(n, seed):
    """n texts: the tables and the small texts, each changed once or twice."""
    rng = random.Random(seed)
    good = SMALL + [json.dumps(t, indent=indent) for t in base_tables().values()
                    for indent in (None, 1)]
    out = []
    for i in range(n):
        text = good[i % len(good)]
        for _ in range(rng.choice((1, 1, 2))):
            text = syntax_mutation(text, rng)
        out.append(text.encode("ascii"))
    return out


def python_takes(data):
    try:
        json.loads(data.decode("ascii"), parse_constant=_no_constant)
        return True
    except ValueError:
        return False


def _no_constant(name):
    raise ValueError(name)


def board_verdicts(cases, tmp_path, most_depth=29):
    listing = tmp_path / "cases.bin"
    listing.write_bytes(b"".join(b"%d\n%s" % (len(d), d) for d in cases))
    out = run_mp(CHECK_EACH % (str(listing), most_depth), timeout=1200)
    verdicts = out.split("\n")[:-1]
    assert len(verdicts) == len(cases), out[-500:]
    return verdicts


@pytest.mark.parametrize("n,seed", [(2000, 1), pytest.param(20000, 2, marks=pytest.mark.slow)])
def test_the_board_takes_exactly_what_python_json_takes(tmp_path, n, seed):
    cases = texts(n, seed)
    verdicts = board_verdicts(cases, tmp_path)
    disagree = [(d[:120], v) for d, v in zip(cases, verdicts, strict=True)
                if (v == "ok") != python_takes(d)]
    taken = sum(v == "ok" for v in verdicts)
    assert not disagree, "%d of %d disagree, e.g. %r" % (len(disagree), n, disagree[:3])
    assert n // 5 < taken < n * 4 // 5  # both verdicts, many times over


def test_each_refusal_names_what_and_where(tmp_path):
    cases = [b"[1,]", b"[1 2]", b"[1}", b"[,1]", b"[01]", b'{"a":}', b'"a\tb"', b'"\\q"',
             b'"\\u12x4"', b"NaN", b"[1] [2]", b'{"a" 1}', b"[1", b"1.", b'"\xc3\xa9"']
    assert board_verdicts(cases, tmp_path) == [
        "no a comma before ] at byte 3", "no expected , or ] at byte 3",
        "no expected , or ] at byte 2", "no expected a value at byte 1",
        "no a number with a leading zero at byte 1", "no expected a value at byte 5",
        "no a control character in a string at byte 2", "no a bad escape at byte 2",
        "no a bad \\u escape at byte 5", "no expected a value at byte 0",
        "no text after the value at byte 4", "no expected : at byte 5",
        "no the text ends early at byte 2", "no a number without its digits at byte 2",
        "no a byte past ASCII at byte 1"]


def test_nesting_is_bounded_and_a_deep_text_is_refused_not_recursed(tmp_path):
    cases = [b"[" * 8 + b"]" * 8, b"[" * 9 + b"]" * 9, b'{"a":' * 9 + b"0" + b"}" * 9,
             b"[" * 100000]
    assert board_verdicts(cases, tmp_path, most_depth=8) == [
        "ok", "no nesting deeper than 8 at byte 8", "no nesting deeper than 8 at byte 40",
        "no nesting deeper than 8 at byte 8"]


def test_a_good_table_is_checked_without_allocating(tmp_path):
    """gc off: the heap in use after checking a table is what it was before (no block per
    byte, per token or per call)."""
    table = tmp_path / "gouda.json"
    table.write_bytes(json.dumps(base_tables()["gouda"], indent=1).encode())
    out = run_mp("""
import gc
from cheesefw.strict_json import check
data = open(%r, 'rb').read()
check(data, 8)  # (a first run: whatever the VM sets up once)
gc.collect()
gc.disable()
before = gc.mem_alloc()
check(data, 8)
print(len(data), gc.mem_alloc() - before)
""" % str(table))
    size, allocated = map(int, out.split())
    assert size > 2000
    assert allocated == 0
