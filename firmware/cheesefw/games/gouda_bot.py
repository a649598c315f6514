"""The board's players for the Gouda race (gouda.py): every decision, powers and reactions too.

A position is judged for a player by how far their mice have come: a mouse d steps from the
table is worth 1/2**d (one on the table is worth 1), a player's worth is the sum over their
mice, and a player's standing is their worth less the best opponent's. A roll is judged by
the standing after the roller applies it the way a sensible roller does: greens to their own
mice first, reds to the leader's. That model is the whole bot:

- "strong" designates the space whose roll is worth most on average (every colour count of the
  dice, with its probability), applies each result where the model says, and plays a power (or
  reacts to another player's roll) when its best use gains more than a marker is worth keeping.
- "beginner" rolls for its most advanced mouse, gives greens to its own mice and reds to the
  others, and plays a power only for a plain gain: its own Extra Turn, an Upgrade of its own
  bad roll, a Downgrade of an opponent's good one.

Both play only legal actions: every choice is taken from state.legal_actions(); ties are broken
by the engine's seeded source, so a seed replays the same game on both VMs.
"""

from cheesefw.games import PASS, REACTION
from cheesefw.games.gouda_powers import (
    CANCEL,
    CHOOSE,
    DOWNGRADE,
    EXTRA,
    GO,
    MOVE,
    NONE,
    PLACE,
    POWERS,
    UPGRADE,
    W_ROLL,
)

# A marker is kept unless playing it gains this much standing (a mouse one step from the table
# is worth 1/2; one at the start about 1/64): powers are saved for the race's end.
KEEP = {"strong": 0.04, "beginner": 0.12}
BEGINNER_POWERS = (DOWNGRADE, EXTRA, UPGRADE)
# Values this close are a tie, for the random source to break: wider than what a board's
# single-precision floats blur (about 1e-6 on values near 1).
TIE = 1e-5

_TABLES = [None, None]  # the last Board and its (distance, worth, rolls) tables


def choose(state, rng, level="strong"):
    """The board's action for the player to act (the power's player at a choice)."""
    ph = state.ph
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if ph == PLACE:
        return _place(state, rng, legal, level)
    if ph == GO:
        return _designate(state, rng, legal, level)
    if ph == MOVE:
        return _move(state, rng, legal, level)
    if ph == CHOOSE:
        return _best(rng, legal, [_choice_value(state, state.pp, state.pt, a) for a in legal])
    if state.current_player() == REACTION:
        return react(state, rng, list(range(state.n)), level)
    return legal[rng.below(len(legal))]


def react(state, rng, seats, level="strong"):
    """In a reaction window: the power one of `seats` plays, or PASS."""
    legal = state.legal_actions()
    keep = KEEP[level]
    best = []
    most = keep
    for a in legal:
        if a == PASS or a[1] not in seats:
            continue
        t = POWERS.index(a[2])
        if level == "beginner" and t not in BEGINNER_POWERS:
            continue
        gain = _power_gain(state, a[1], t, level)
        if gain > most + TIE:
            most = gain
            best = [a]
        elif best and abs(gain - most) <= TIE:
            best.append(a)
    if not best:
        return PASS
    return best[rng.below(len(best))]


# -- the decisions ---------------------------------------------------------------------------


def _place(state, rng, legal, level):
    """Setup: beginners anywhere; strong joins its own mice (more dice for its rolls)."""
    if level == "beginner":
        return legal[rng.below(len(legal))]
    b = state._b
    n = state.n
    me = state.current_player()
    scores = [state.cnt[b.ids.index(a[1]) * n + me] for a in legal]
    return _best(rng, legal, scores)


def _designate(state, rng, legal, level):
    b = state._b
    me = state.cur
    spaces = [b.ids.index(a[1]) for a in legal]
    if level == "beginner":  # the most advanced mouse rolls
        dist = _tables(b)[0]
        return _best(rng, legal, [-dist[s] for s in spaces])
    worth = _worths(state)
    return _best(rng, legal, [_roll_value(state, worth, s, me, me) for s in spaces])


def _move(state, rng, legal, level):
    """Greens to your own mice, reds to the others' (the leader's first, when strong)."""
    b = state._b
    dist = _tables(b)[0]
    me = state.cur
    green = state.ag > 0
    worth = _worths(state) if level == "strong" else None
    scores = []
    for a in legal:
        owner = a[1]
        d = dist[b.ids.index(a[2])]
        mine = owner == me
        if green:
            score = (100 if mine else 0) - d
            if not mine and worth is not None:
                score -= worth[owner]  # a green that must go to another: the weakest's mouse
        else:
            score = (0 if mine else 100) + (d if not mine else -d)
            if not mine and worth is not None:
                score += worth[owner]  # the leader's mouse goes down
        scores.append(score)
    return _best(rng, legal, scores)


def _power_gain(state, p, t, level):
    """How much standing player p gains by playing a marker of type t now (its best use)."""
    n = state.n
    worth = _worths(state)
    cur = state.cur
    if state.win != W_ROLL:  # after the moves: an Extra Turn, or a Cancel of one
        if t == EXTRA and p == cur:
            return 1.0  # a second turn of your own is always worth a marker
        if t == CANCEL and state.last == EXTRA and state.xt != NONE and cur != p:
            leader = _standing(worth, cur, n) > 0
            return 1.0 if leader else 0.0  # a leader's second turn is worth stopping
        return 0.0
    base = _dice_value(state, worth, state.tgt, state.dice, cur, p)  # the roll as it lies
    if level == "beginner":
        if t == UPGRADE and p != cur or t == DOWNGRADE and p == cur:
            return 0.0
    saved = state.pt
    state.pt = t  # the choices the power would offer, as the game lists them
    try:
        codes = state._choices()
    finally:
        state.pt = saved
    decode = state._b.decode
    best = -9.0
    for c in codes:
        v = _choice_value(state, p, t, decode(c), worth)
        if v > best:
            best = v
    return best - base


def _choice_value(state, p, t, a, worth=None):
    """Player p's standing after power t is played with choice a (a reroll: on average)."""
    b = state._b
    if worth is None:
        worth = _worths(state)
    cur = state.cur
    kind = a[0]
    if kind == "go":  # an Extra Turn for the roller, on the space p designates
        return _roll_value(state, worth, b.ids.index(a[1]), cur, p)
    if kind == "space":
        return _dice_value(state, worth, b.ids.index(a[1]), state.dice, cur, p)
    if kind == "undo":
        s = state.snap
        return _dice_value(state, worth, s[3], (s[0], s[1], s[2]), cur, p)
    gg, yy, rr = a[1], a[2], a[3]
    g, y, r = state.dice
    if t == UPGRADE:
        return _dice_value(state, worth, state.tgt, (g + yy, y + rr - yy, r - rr), cur, p)
    if t == DOWNGRADE:
        return _dice_value(state, worth, state.tgt, (g - gg, y + gg - yy, r + yy), cur, p)
    # A re-roll, or a Cancel that rolls those dice again: on average over the new faces.
    kept = (g - gg, y - yy, r - rr)
    total = 0.0
    for (ng, ny, nr), prob in _tables(b)[2][gg + yy + rr]:
        dice = (kept[0] + ng, kept[1] + ny, kept[2] + nr)
        total += prob * _dice_value(state, worth, state.tgt, dice, cur, p)
    return total


# -- the model -------------------------------------------------------------------------------


def _roll_value(state, worth, s, roller, p):
    """Player p's standing, on average, after `roller` rolls for space s and applies it."""
    b = state._b
    k = min(b.ndice, state._total(s))
    total = 0.0
    for dice, prob in _tables(b)[2][k]:
        total += prob * _dice_value(state, worth, s, dice, roller, p)
    return total


def _dice_value(state, worth, s, dice, roller, p):
    """Player p's standing after `roller` applies dice (greens, yellows, reds) on space s."""
    b = state._b
    dist, value = _tables(b)[:2]
    n = state.n
    w = list(worth)
    left = [state.cnt[s * n + o] for o in range(n)]
    here = value[dist[s]]
    up = value[_nearest(b.up[s], dist, True)] - here
    g = dice[0]
    own = min(g, left[roller])
    w[roller] += own * up
    left[roller] -= own
    g -= own
    for o in _order(worth, n, roller, False):  # greens left over: the weakest's mice
        m = min(g, left[o])
        w[o] += m * up
        left[o] -= m
        g -= m
    r = dice[2] if b.dn[s] else 0
    if r:
        down = value[_nearest(b.dn[s], dist, False)] - here
        for o in _order(worth, n, roller, True):  # reds: the leader's mice first
            m = min(r, left[o])
            w[o] += m * down
            r -= m
        if r:  # only the roller's own mice are left: the mildest way down
            w[roller] += min(r, left[roller]) * (value[_nearest(b.dn[s], dist, True)] - here)
    return _standing(w, p, n)


def _standing(w, p, n):
    """Player p's worth less the best opponent's."""
    best = 0.0
    for q in range(n):
        if q != p and w[q] > best:
            best = w[q]
    return w[p] - best


def _order(worth, n, roller, strongest_first):
    """The roller's opponents, weakest (or strongest) first; seats break ties."""
    others = [q for q in range(n) if q != roller]
    others.sort(key=lambda q: (-worth[q] if strongest_first else worth[q], q))
    return others


def _nearest(mask, dist, closest):
    """Of the spaces in mask, the distance of the one closest to (or farthest from) the table."""
    best = None
    for d in range(len(dist)):
        if mask >> d & 1:
            if best is None or (dist[d] < best if closest else dist[d] > best):
                best = dist[d]
    return best


def _worths(state):
    """Each player's worth: the sum over their mice of 1/2**(steps to the table)."""
    b = state._b
    dist, value = _tables(b)[:2]
    n = state.n
    cnt = state.cnt
    w = [0.0] * n
    for s in range(b.S):
        v = value[dist[s]]
        for p in range(n):
            c = cnt[s * n + p]
            if c:
                w[p] += c * v
    for p in range(n):
        w[p] += state.score[p]  # cheeses already won (festival, extra cheeses)
    return w


def _tables(b):
    """For Board b: the steps from each space to the table, the worth of a mouse at each
    distance, and each number of dice's colour counts with their probabilities."""
    if _TABLES[0] is b:
        return _TABLES[1]
    far = b.S  # more than any path
    dist = [far] * b.S
    dist[b.top] = 0
    changed = True
    while changed:  # relax the links up until nothing changes: the shortest way to the table
        changed = False
        for s in range(b.S):
            for d in range(b.S):
                if b.up[s] >> d & 1 and dist[d] + 1 < dist[s]:
                    dist[s] = dist[d] + 1
                    changed = True
    value = [1.0 / (1 << d) for d in range(far + 1)]
    nf = sum(b.faces)
    pg, py, pr = b.faces[0] / nf, b.faces[1] / nf, b.faces[2] / nf
    rolls = []
    for k in range(b.ndice + 1):
        out = []
        fact = _factorial(k)
        for g in range(k + 1):
            for y in range(k - g + 1):
                r = k - g - y
                ways = fact // (_factorial(g) * _factorial(y) * _factorial(r))
                prob = ways * pg**g * py**y * pr**r
                if prob > 0:
                    out.append(((g, y, r), prob))
        rolls.append(out)
    _TABLES[0] = b
    _TABLES[1] = (dist, value, rolls)
    return _TABLES[1]


def _factorial(k):
    f = 1
    for i in range(2, k + 1):
        f *= i
    return f


def _best(rng, legal, scores):
    """The action with the highest score; a tie is broken by the random source."""
    top = max(scores)
    best = [legal[i] for i in range(len(legal)) if scores[i] >= top - TIE]
    return best[rng.below(len(best))]

