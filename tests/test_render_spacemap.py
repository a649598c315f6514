"""The board's packed LED maps (render.SpaceMap) read exactly as the profile's dicts do, on
CPython and on MicroPython, for every game of every profile."""

import json

from engine_driver import ROOT
from mpvm import run_mp

from cheesefw.render import SpaceMap, pack_map

PROFILES = sorted((ROOT / "hardware/profiles").glob("*.json"))


def test_a_packed_map_reads_as_its_dict():
    for path in PROFILES:
        for game, spaces in json.loads(path.read_text())["maps"].items():
            m = pack_map(spaces)
            assert isinstance(m, SpaceMap), (path.name, game)
            assert list(m) == sorted(spaces) and len(m) == len(spaces)
            for sid in spaces:
                assert sid in m and list(m[sid]) == spaces[sid] and m.get(sid) == m[sid]
            for missing in ("", " ", "zz", "f0", 3, None, spaces and sorted(spaces)[0] + " x"):
                assert missing not in m and m.get(missing, ()) == ()
            assert [list(v) for v in m.values()] == [spaces[s] for s in sorted(spaces)]


def test_a_map_that_does_not_pack_stays_as_it_is():
    big = {"a": [300]}
    assert pack_map(big) is big
    spaced = {"a b": [1]}
    assert pack_map(spaced) is spaced


def test_on_micropython_too():
    code = """
import json
from cheesefw.render import pack_map
for name in NAMES:
    for game, spaces in sorted(json.load(open(name))["maps"].items()):
        m = pack_map(spaces)
        ok = list(m) == sorted(spaces) and all(list(m[s]) == spaces[s] for s in spaces)
        print(game, ok, "nope" in m, len(m))
""".replace("NAMES", repr([str(p) for p in PROFILES]))
    lines = run_mp(code).split("\n")[:-1]
    assert lines and all(line.split()[1:3] == ["True", "False"] for line in lines), lines
