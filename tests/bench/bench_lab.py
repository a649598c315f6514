"""Benchmarks of the board's players and the balance lab, against baselines from the same run.

    make bench        (or: python tests/bench/bench_lab.py)

- games per second per core on CPython, for each game with board players: random players
  (the baseline) against the board's strong players at every seat;
- the lab's speed-up from 1 to 2 jobs (target: 1.8x on a 2-core machine);
- the board player's decision time on MicroPython (the unix port), every decision of many
  seeded games timed, against the engine's pause before the board moves; and the longest step
  of a decision's thinking (the engine steps it THINK_MS of each 10 ms tick, so a tick is late
  by at most the step that crosses its slice), against the tick.
"""

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(HERE))

from table import print_table  # noqa: E402

from cheeseboard.lab import runner, sweep  # noqa: E402
from cheeseboard.sim.vmfiles import micropython_binary  # noqa: E402
from cheesefw.app import TICK_MS  # noqa: E402
from cheesefw.engine.play import BOT_MS, THINK_MS  # noqa: E402
from cheesefw.games import GAMES, load  # noqa: E402

SECONDS = float(os.environ.get("BENCH_LAB_SECONDS", "4"))  # per figure of games per second
OPTIONS = {"gouda": {"players": 4, "powers": True}}

# Runs on MicroPython: seeded games, the board at every seat; each decision timed.
DECISIONS = """
import json, time
from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, PASS, REACTION, load
game = load(%(game)r)
think = __import__("cheesefw.games.%(game)s_bot", None, None, ["think"]).think
rules = json.load(open("rules/%(game)s.json"))
# Running figures, not a list of every time (a small heap): count, sum, slowest, and a
# histogram in 100 us steps for the 99th percentile; and the longest step of any thinking.
count = total = worst = longest = 0
steps = [0] * 1001
for seed in range(%(games)d):
    st = game.State(rules, %(options)r)
    n = st.num_players()
    rng = Rng(seed)
    while not st.is_terminal():
        p = st.current_player()
        if p == CHANCE:
            st.apply_action(rng.choose(st.chance_outcomes()))
            continue
        t = time.ticks_us()
        thinking = think(st, rng, "strong", list(range(n))) if p == REACTION else \
            think(st, rng, "strong")
        while True:
            step = time.ticks_us()
            try:
                next(thinking)
            except StopIteration as done:
                a = done.value
                break
            finally:
                longest = max(longest, time.ticks_diff(time.ticks_us(), step))
        dt = time.ticks_diff(time.ticks_us(), t)
        count += 1
        total += dt
        worst = max(worst, dt)
        steps[min(1000, dt // 100)] += 1
        st.apply_action(a)
seen = 0
p99 = 0
for i in range(1001):
    seen += steps[i]
    if seen * 100 >= count * 99:
        p99 = (i + 1) * 100
        break
print(json.dumps([count, total // count, p99, worst, longest]))
"""


def bot_games():
    return [g for g in GAMES if hasattr(load(g), "bot_move")]


def rules_of(game):
    return json.loads((ROOT / "firmware" / "rules" / (game + ".json")).read_text())


def games_per_second(game, kind):
    module = load(game)
    rules = rules_of(game)
    options = OPTIONS.get(game, {})
    n = module.State(rules, options).num_players()
    played = 0
    began = time.perf_counter()
    while time.perf_counter() - began < SECONDS:
        runner.play_one(module, rules, options, [kind] * n, runner.game_seed(1, played))
        played += 1
    return played / (time.perf_counter() - began)


def speedup(game, games):
    """Wall and CPU seconds of the same sweep with 1 and 2 jobs, and the load meanwhile.

    The wall-clock speed-up needs two free cores; on a shared machine the CPU seconds tell
    whether 2 jobs add work of their own (process start, pickling), whatever the load."""
    spec = {"game": game, "rules": rules_of(game), "options": OPTIONS.get(game, {}),
            "kinds": ["random"], "rotate": False, "seed": 1}
    out = []
    for jobs in (1, 2):
        cpu0 = _cpu()
        began = time.perf_counter()
        sweep.run(spec, games, jobs=jobs)
        out.append((time.perf_counter() - began, _cpu() - cpu0, os.getloadavg()[0]))
    return out


def _cpu():
    """CPU seconds of this process and of its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def decisions_on_mp(game, games):
    code = DECISIONS % {"game": game, "games": games, "options": OPTIONS.get(game, {})}
    env = dict(os.environ, MICROPYPATH=str(ROOT / "firmware"))
    r = subprocess.run([micropython_binary(), "-X", "heapsize=%d" % (200 * 1024), "-c", code],
                       cwd=str(ROOT / "firmware"), env=env, capture_output=True, text=True,
                       timeout=900)
    if r.returncode:
        raise RuntimeError("micropython: %s%s" % (r.stdout, r.stderr))
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    rows = []
    for game in bot_games():
        base = games_per_second(game, "random")
        strong = games_per_second(game, "strong")
        rows.append(("%s: random games per second, one core" % game, "%.1f/s" % base, ""))
        rows.append(("%s: games by the strong board player" % game, "%.1f/s" % strong,
                     "%.2f of random players'" % (strong / base)))
    games = int(os.environ.get("BENCH_LAB_GAMES", "400"))
    (wall1, cpu1, load1), (wall2, cpu2, load2) = speedup("gouda", games)
    rows.append(("lab: %d Gouda games, 1 -> 2 jobs, wall clock" % games,
                 "%.2fx" % (wall1 / wall2),
                 "1 job %.1f s, 2 jobs %.1f s; target 1.8x; load average %.1f, %.1f on %d cores"
                 % (wall1, wall2, load1, load2, os.cpu_count())))
    rows.append(("lab: CPU seconds, 2 jobs against 1", "%.2fx" % (cpu2 / cpu1),
                 "%.1f s against %.1f s: the work the second job adds" % (cpu2, cpu1)))
    for game in bot_games():
        count, mean, p99, worst, longest = decisions_on_mp(
            game, int(os.environ.get("BENCH_LAB_MP", "20")))
        rows.append(("%s: board decision on MicroPython, mean of %d" % (game, count),
                     "%d us" % mean, "%.2f of a %d ms tick" % (mean / 1000 / TICK_MS, TICK_MS)))
        rows.append(("%s: 99th percentile / slowest decision" % game, "%d / %d us" % (p99, worst),
                     "%.3f / %.3f of the %d ms pause" % (p99 / 1000 / BOT_MS,
                                                          worst / 1000 / BOT_MS, BOT_MS)))
        rows.append(("%s: longest step of a decision's thinking" % game, "%d us" % longest,
                     "a tick late by %.2f of a tick at most (%d ms of thinking per tick)"
                     % (longest / 1000 / TICK_MS, THINK_MS)))
    print_table("board players and the balance lab", rows)


if __name__ == "__main__":
    main()
