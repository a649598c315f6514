# Run on MicroPython by bench_games.py: Kalle Kanalratte's board players, timed. A module of its
# own, so that its code does not sit in the heap of the other benchmarks' runs.
import json
import time

from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE


def rules(game):
    with open("rules/%s.json" % game) as f:
        return json.load(f)


def bench_kalle():
    """The board's searcher and starter choosing, in positions of random 5-player games."""
    from cheesefw.games import kalle

    table = rules("kalle")
    rng = Rng(6)
    searching, swapping = [], []
    while len(searching) < 8 or len(swapping) < 8:
        s = kalle.State(table, {"players": 5})
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                s.apply_action(rng.choose(s.chance_outcomes()))
                continue
            if s.phase == kalle.SEARCH and len(searching) < 8 and s.seen:
                searching.append(s.to_dict())
            elif s.phase == kalle.SWAP and len(swapping) < 8:
                swapping.append(s.to_dict())
            legal = s.legal_actions()
            s.apply_action(legal[rng.below(len(legal))])
    out = {}
    for name, dicts in (("search_us", searching), ("swap_us", swapping)):
        states = [kalle.State.from_dict(table, d) for d in dicts]
        t0 = time.ticks_us()
        for s in states:
            kalle.bot_move(s, rng)
        out[name] = time.ticks_diff(time.ticks_us(), t0) / len(states)
    print(json.dumps(out))


bench_kalle()
