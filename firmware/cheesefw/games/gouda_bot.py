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
by the engine's seeded source, so a seed replays the same game on both VMs. `think` is a
generator (see games.decide): it yields after each space, choice or marker it judges, so the
engine spreads a decision over its ticks; it never yields while it has the state changed.
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

_TABLES = [None, None]  # the last Board and its tables (see _tables)


def think(state, rng, level="strong", seats=None):
    """The board's action for the player to act (the power's player at a choice); in a
    reaction window, the power one of `seats` (default: any player) plays, or PASS."""
    phase = state.phase
    legal = state.legal_actions()
    if len(legal) == 1 or not legal:
        return legal[0] if legal else PASS
    yield
    if _TABLES[0] is not state.board:  # a game's first decision: its tables, a space a step
        yield from _make_tables(state.board)
    if phase == PLACE:
        return _place(state, rng, legal, level)
    if phase == GO:
        return (yield from _designate(state, rng, legal, level))
    if phase == MOVE:
        return _move(state, rng, legal, level)
    if phase == CHOOSE:
        model = _Model(state)
        scores = []
        p, t = state.power_player, state.power_type
        for a in legal:
            scores.append((yield from _choice_value(state, p, t, a, model)))
            yield
        return _best(rng, legal, scores)
    if state.current_player() == REACTION:
        seats = list(range(state.n)) if seats is None else seats
        return (yield from react(state, rng, seats, level, legal))
    return legal[rng.below(len(legal))]


def react(state, rng, seats, level="strong", legal=None):
    """In a reaction window: the power one of `seats` plays, or PASS (a generator, as think);
    legal: the window's actions where the caller has listed them (a step's work of their own,
    some 4 ms of a Pico with six players)."""
    if legal is None:
        legal = state.legal_actions()
        yield
    keep = KEEP[level]
    best = []
    most = keep
    model = _Model(state)
    yield
    for a in legal:
        if a == PASS or a[1] not in seats:
            continue
        t = POWERS.index(a[2])
        if level == "beginner" and t not in BEGINNER_POWERS:
            continue
        gain = yield from _power_gain(state, a[1], t, level, model)
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
    """Setup: beginners anywhere; strong joins its own mice, then the others' (more dice for
    its rolls: a straggler left on a crowded start space still rolls five dice). With the
    default placement, where all of a player's mice go on one space, joining the others wins
    about two games in a hundred more than a random space (measured in test_gouda_bot.py)."""
    if level == "beginner":
        return legal[rng.below(len(legal))]
    b = state.board
    n = state.n
    me = state.current_player()
    cnt = state.mice
    scores = []
    for a in legal:
        at = b.ids.index(a[1]) * n
        mice = 0
        for q in range(n):
            mice += cnt[at + q]
        scores.append(cnt[at + me] * 64 + mice)  # own mice first (at most 30 on a space)
    return _best(rng, legal, scores)


def _designate(state, rng, legal, level):
    b = state.board
    spaces = [b.ids.index(a[1]) for a in legal]
    if level == "beginner":  # the most advanced mouse rolls
        dist = _tables(b)[0]
        return _best(rng, legal, [-dist[s] for s in spaces])
    model = _Model(state)
    scores = []
    for s in spaces:
        scores.append((yield from model.roll(s, state.turn)))
        yield
    return _best(rng, legal, scores)


def _move(state, rng, legal, level):
    """Greens to your own mice, reds to the others' (the leader's first, when strong)."""
    b = state.board
    dist = _tables(b)[0]
    me = state.turn
    green = state.greens_left > 0
    worth = _Model(state).worth if level == "strong" else None
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


def _power_gain(state, p, t, level, model=None):
    """How much standing player p gains by playing a marker of type t now (its best use); a
    generator that yields after each use it judges."""
    cur = state.turn
    model = model or _Model(state)
    if state.window != W_ROLL:  # after the moves: an Extra Turn, or a Cancel of one
        if t == EXTRA and p == cur:
            return 1.0  # a second turn of your own is always worth a marker
        if t == CANCEL and state.last_power == EXTRA and state.extra_turn != NONE and cur != p:
            leader = _standing(model.worth, cur, state.n) > 0
            return 1.0 if leader else 0.0  # a leader's second turn is worth stopping
        return 0.0
    g, _, r = state.dice
    base = model.dice(state.target, g, r, p)  # the roll as it lies
    if level == "beginner":
        if t == UPGRADE and p != cur or t == DOWNGRADE and p == cur:
            return 0.0
    saved = state.power_type
    state.power_type = t  # the choices the power would offer, as the game lists them
    try:
        codes = state._choices()
    finally:
        state.power_type = saved
    yield
    decode = state.board.decode
    best = -9.0
    for c in codes:
        v = yield from _choice_value(state, p, t, decode(c), model)
        if v > best:
            best = v
        yield
    return best - base


def _choice_value(state, p, t, a, model=None):
    """Player p's standing after power t is played with choice a (a reroll: on average); a
    generator, as the model's rolls are."""
    b = state.board
    model = model or _Model(state)
    kind = a[0]
    if kind == "go":  # an Extra Turn for the roller, on the space p designates
        return (yield from model.roll(b.ids.index(a[1]), p))
    g, y, r = state.dice
    if kind == "space":
        return model.dice(b.ids.index(a[1]), g, r, p)
    if kind == "undo":
        s = state.undo
        return model.dice(s[3], s[0], s[2], p)
    gg, yy, rr = a[1], a[2], a[3]
    if t == UPGRADE:  # yellows become green, reds yellow
        return model.dice(state.target, g + yy, r - rr, p)
    if t == DOWNGRADE:  # greens become yellow, yellows red
        return model.dice(state.target, g - gg, r + yy, p)
    # A re-roll, or a Cancel that rolls those dice again: on average over the new faces.
    return (yield from model.reroll(state.target, g - gg, r - rr, gg + yy + rr, p))


# -- the model -------------------------------------------------------------------------------


class _Model:
    """The position as the bot judges it, for one decision: each player's worth, the roller's
    opponents in order, and the rolls judged so far (only greens and reds move mice, so a roll
    is judged once per space and count of greens and reds, however many choices lead to it)."""

    def __init__(self, state):
        self.state = state
        self.b = b = state.board
        self.dist, self.value, self.rolls, self.moves = _tables(b)
        self.n = n = state.n
        self.roller = roller = state.turn
        self.worth = worth = _worths(state, self.dist, self.value)
        others = [q for q in range(n) if q != roller]
        others.sort(key=lambda q: (worth[q], q))
        self.weakest = others  # greens the roller must give away go to the weakest first
        self.strongest = sorted(others, key=lambda q: (-worth[q], q))  # reds: the leader first
        self.memo = {}  # standings (and averages, under negative keys) judged so far
        self.applied = {}  # each player's worth after a roll, by space, greens and reds

    def roll(self, s, p):
        """Player p's standing, on average, after the roller rolls for space s (a generator,
        as reroll)."""
        k = min(self.b.ndice, self.state._total(s))
        return (yield from self.reroll(s, 0, 0, k, p))

    def reroll(self, s, g, r, k, p):
        """p's standing, on average, when k dice are rolled to join g greens and r reds: a
        generator that yields after each colour count it judges (five dice have 21, judged in
        one go 2-6 ms of a Pico)."""
        key = -((((s * 8 + g) * 8 + r) * 8 + k) * 8 + p) - 1  # below 0: apart from dice()'s
        total = self.memo.get(key)
        if total is None:
            total = 0.0
            dice = self.dice
            for ng, nr, prob in self.rolls[k]:
                total += prob * dice(s, g + ng, r + nr, p)
                yield
            self.memo[key] = total
        return total

    def dice(self, s, g, r, p):
        """Player p's standing after the roller applies g greens and r reds on space s."""
        key = (s * 8 + g) * 8 + r
        v = self.memo.get(key * 8 + p)
        if v is None:
            w = self.applied.get(key)
            if w is None:
                w = self.applied[key] = self._apply(s, g, r)
            v = self.memo[key * 8 + p] = _standing(w, p, self.n)
        return v

    def _apply(self, s, g, r):
        """Each player's worth after the roller applies g greens and r reds on space s."""
        n = self.n
        cnt = self.state.mice
        roller = self.roller
        w = list(self.worth)
        left = [cnt[s * n + o] for o in range(n)]
        up, down, mild = self.moves[s]
        own = min(g, left[roller])
        w[roller] += own * up
        left[roller] -= own
        g -= own
        for o in self.weakest:
            m = min(g, left[o])
            w[o] += m * up
            left[o] -= m
            g -= m
        if r and down:
            for o in self.strongest:
                m = min(r, left[o])
                w[o] += m * down
                r -= m
            if r:  # only the roller's own mice are left: the mildest way down
                w[roller] += min(r, left[roller]) * mild
        return w


def _standing(w, p, n):
    """Player p's worth less the best opponent's."""
    best = 0.0
    for q in range(n):
        if q != p and w[q] > best:
            best = w[q]
    return w[p] - best


def _nearest(mask, dist, closest):
    """Of the spaces in mask, the distance of the one closest to (or farthest from) the table."""
    best = None
    for d in range(len(dist)):
        if mask >> d & 1:
            if best is None or (dist[d] < best if closest else dist[d] > best):
                best = dist[d]
    return best


def _worths(state, dist, value):
    """Each player's worth: the sum over their mice of 1/2**(steps to the table), plus the
    cheeses already won."""
    n = state.n
    cnt = state.mice
    w = [0.0] * n
    for s in range(state.board.S):
        v = value[dist[s]]
        for p in range(n):
            c = cnt[s * n + p]
            if c:
                w[p] += c * v
    for p in range(n):
        w[p] += state.score[p]
    return w


def _tables(b):
    """For Board b: the steps from each space to the table, the worth of a mouse at each
    distance, each number of dice's colour counts with their probabilities, and what a move
    up or down from each space changes in a mouse's worth."""
    if _TABLES[0] is not b:
        for _ in _make_tables(b):
            pass
    return _TABLES[1]


def _make_tables(b):
    """_tables' work, into _TABLES: a generator that yields after each space it relaxes."""
    far = b.S  # more than any path
    dist = [far] * b.S
    dist[b.top] = 0
    changed = True
    while changed:  # relax the links up until nothing changes: the shortest way to the table
        changed = False
        for s in range(b.S):
            yield
            for d in range(b.S):
                if b.up[s] >> d & 1 and dist[d] + 1 < dist[s]:
                    dist[s] = dist[d] + 1
                    changed = True
    value = [1.0 / (1 << d) for d in range(far + 1)]
    nf = sum(b.faces)
    pg, py, pr = b.faces[0] / nf, b.faces[1] / nf, b.faces[2] / nf
    rolls = []
    for k in range(b.ndice + 1):
        yield
        out = []
        fact = _factorial(k)
        for g in range(k + 1):
            for y in range(k - g + 1):
                r = k - g - y
                ways = fact // (_factorial(g) * _factorial(y) * _factorial(r))
                prob = ways * pg**g * py**y * pr**r
                if prob > 0:
                    out.append((g, r, prob))  # yellows move nobody
        rolls.append(out)
    # What a move from each space changes in a mouse's worth: a green to the best space up,
    # a red to the worst space down (an opponent's) or the mildest (the roller's own).
    moves = []
    for s in range(b.S):
        yield
        here = value[dist[s]]
        up = value[_nearest(b.up[s], dist, True)] - here if b.up[s] else 0.0
        down = value[_nearest(b.dn[s], dist, False)] - here if b.dn[s] else 0.0
        mild = value[_nearest(b.dn[s], dist, True)] - here if b.dn[s] else 0.0
        moves.append((up, down, mild))
    _TABLES[0] = b
    _TABLES[1] = (dist, value, rolls, moves)


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

