"""The board's own players for Kalle Kanalratte: a searcher and a starter.

The searcher knows only what a player at the table sees: which cards are face up, where the
guard stands, and the swaps the starter made this round (`State.seen`). It never reads where the
rat is (a test checks its choice does not change when only the rat moves). As a careful child
would, it remembers the swaps: a card the starter moved away from the guard is suspect, since
that is how a starter saves the rat. The strong searcher walks the guard to the most suspect
face-down card; the beginner turns any face-down card next to the guard.

The starter knows where the rat is (it hid it). The strong one moves the rat away when the guard
comes next to it, confuses the searchers with a decoy swap otherwise, and always remembers where
the rat is at the end; the beginner swaps at random and remembers three times in four.
Ties are broken by the random source: the same seed replays the same game.
"""

from cheesefw.games.kalle_table import GUESS, HIDE, KEEP, LAST, PLACE, SEARCH, SHOW, SWAP


def think(state, rng, level="strong"):
    """The board's action for the seat to act, a legal action of `state`, as a generator (see
    games.decide) with one step: every decision of this game is short."""
    legal = state.legal_actions()
    yield
    phase = state.phase
    strong = level == "strong"
    if phase == SHOW:
        return legal[0]
    if phase == HIDE:
        return legal[rng.below(len(legal))]
    if phase == SWAP:
        return _swap(state, rng, legal) if strong else legal[rng.below(len(legal))]
    if phase == GUESS:
        return _guess(state, rng, legal, strong)
    # The searchers' decisions: from what everyone saw.
    if phase == PLACE:  # the middle: the guard has most cards around it there
        g = state.grid
        most = max(len(g.nbrs[sq]) for sq in range(g.n))
        legal = [g.ids[sq] for sq in range(g.n) if len(g.nbrs[sq]) == most]
    elif phase == SEARCH:
        legal = _search(state, legal, strong)
    elif phase == LAST and strong:
        legal = _most(legal, suspicion(state), _squares(state.grid))
    return legal[rng.below(len(legal))]


def suspicion(state):
    """Per card, how likely a careful searcher thinks it hides the rat (0: face up)."""
    g = state.grid
    weight = [0 if state.up[sq] else 2 for sq in range(g.n)]
    seen = state.seen
    for i in range(0, len(seen), 3):
        a, b, guard = seen[i], seen[i + 1], seen[i + 2]
        weight[a], weight[b] = weight[b], weight[a]
        near = g.nbrs[guard]
        if a in near and b not in near:  # what lay at a went away from the guard
            weight[b] += 3
        elif b in near and a not in near:
            weight[a] += 3
    for sq in range(g.n):
        if state.up[sq]:
            weight[sq] = 0  # face up cards are animals, whatever was swapped
    return weight


def _squares(g):
    """Each card id's square, in a dict made once a decision: Grid.square checks what it is
    given (some 200 us a call on a Pico), and a decision looks up dozens of ids."""
    return dict((sid, sq) for sq, sid in enumerate(g.ids))


def _search(state, legal, strong):
    g = state.grid
    square = _squares(g)
    down = [a for a in legal if not state.up[square[a]]]
    if not strong:
        return down or legal
    weight = suspicion(state)
    if down:
        return _most(down, weight, square)
    # Every card around is face up: step towards the most suspect card.
    target = max(weight)
    goals = [sq for sq in range(g.n) if weight[sq] == target]
    best = min(_steps(g, square[a], goals) for a in legal)
    return [a for a in legal if _steps(g, square[a], goals) == best]


def _most(ids, weight, square):
    top = max(weight[square[a]] for a in ids)
    return [a for a in ids if weight[square[a]] == top]


def _steps(g, start, goals):
    """Guard moves from start to the nearest of goals (breadth first)."""
    dist = {start: 0}
    todo = [start]
    for sq in todo:
        if sq in goals:
            return dist[sq]
        for nb in g.nbrs[sq]:
            if nb not in dist:
                dist[nb] = dist[sq] + 1
                todo.append(nb)
    return g.n


def _swap(state, rng, legal):
    """The strong starter: the rat away from the guard when it comes close, else a decoy.

    One pass over the swaps, keeping only the few that qualify: the list of every swap is
    already the largest thing a move holds on a small heap."""
    g = state.grid
    square = _squares(g)
    rat = state.rat()
    near = g.nbrs[state.guard]
    away = []  # swaps that take the rat from beside the guard to a card not beside it
    decoys = []  # two face-down cards, one beside the guard, so a searcher cannot tell
    for a in legal:
        if a == KEEP:
            continue
        x, y = square[a[0]], square[a[1]]
        if rat == x or rat == y:
            if rat in near and (y if rat == x else x) not in near:
                away.append(a)
        elif not state.up[x] and not state.up[y] and (x in near) != (y in near):
            decoys.append(a)
    if away:
        return away[rng.below(len(away))]
    if decoys and rng.below(3):
        return decoys[rng.below(len(decoys))]
    if legal[0] == KEEP:
        return KEEP
    return legal[rng.below(len(legal))]  # (with no KEEP, every legal action is a swap)


def _guess(state, rng, legal, strong):
    rat = state.grid.ids[state.rat()]
    if rat in legal and (strong or rng.below(4)):
        return rat
    return legal[rng.below(len(legal))]
