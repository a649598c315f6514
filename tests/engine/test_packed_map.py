"""A packed map finds a space's place by searching its string of ids: every id of every
profile's maps at its sorted place, on CPython and on MicroPython (whose str.count and
str.find take the same start and end), and no id mistaken for one it is part of."""

import json

import pytest
from mpvm import run_mp

from cheeseboard import paths
from cheesefw.engine.draw import PackedMap

# Ids that are parts of one another: a prefix, a suffix, the same digits in another.
TRICKY = {"a1": [0], "a10": [1], "a1x": [2], "xa1": [3], "1": [4], "b": [5, 6]}
# (No id has a space in it: the packed map joins them with spaces.)
ABSENT = ("a", "0", "a100", "x", " ", "", "a1x1", "ba1")


def every_map():
    for name in paths.profile_names():
        for game, spaces in paths.load_profile(name)["maps"].items():
            yield "%s/%s" % (name, game), spaces
    yield "tricky", TRICKY


def places(spaces):
    packed = PackedMap(spaces)
    return [packed.index(s) for s in sorted(spaces)], [packed.index(s) for s in ABSENT]


def test_every_space_is_found_at_its_sorted_place_and_no_other_id_is_found():
    for where, spaces in every_map():
        found, absent = places(spaces)
        assert found == list(range(len(spaces))), where
        assert absent == [-1] * len(ABSENT), where


@pytest.mark.board
def test_micropython_finds_the_same_places():
    maps = dict(every_map())
    out = run_mp("""
import json
from cheesefw.engine.draw import PackedMap
maps = json.loads(%r)
absent = json.loads(%r)
for where in sorted(maps):
    packed = PackedMap(maps[where])
    print(where, [packed.index(s) for s in sorted(maps[where])], [packed.index(s) for s in absent])
""" % (json.dumps(maps), json.dumps(ABSENT)))
    expected = "".join("%s %s %s\n" % (where, *places(maps[where])) for where in sorted(maps))
    assert out == expected
