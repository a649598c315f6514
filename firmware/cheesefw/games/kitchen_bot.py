"""The board's own players: the cat, for children who play the mice against the board,
and the mice, for a child who plays the cat (or a board that plays itself).

Both play only legal moves, and sensible ones. At "beginner" level the cat catches a
mouse when it can, otherwise it goes where the nearest mouse it may catch is closest; the
mice go for cheese (a visible one first, then face-down tiles), home when the cheese is in,
and keep a few steps away from the cat. At "strong" level both look one roll ahead with the
real paths: the cat goes where the chance of a catch at its next roll is highest, and the
mice weigh each square by the chance that the cat's next roll reaches it, moving the mouse
whose move gains most. Ties are broken by the random source, so neither is predictable, and
the same seed replays the same game.
"""

from cheesefw.games.kitchen_moves import CAT, DIE, PICK, SHOWN, STAY, access, destinations


def _xy(sid):
    return ord(sid[0]) - 97, int(sid[1:])


def _distance(a, b):
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    return abs(ax - bx) + abs(ay - by)


def think(state, rng, level="strong"):
    """The board's action for the side to move, a legal action of `state`, as a generator (see
    games.decide): it yields after each square, mouse or roll of the die it weighs."""
    if level == "strong":
        return (yield from strong_cat(state, rng) if state.side == CAT else strong_mice(state, rng))
    yield
    if state.side == CAT:
        return choose_cat(state, rng)
    return (yield from choose_mice(state, rng))


def choose_cat(state, rng):
    """The cat's action at a cat decision: a legal action of `state`."""
    legal = state.legal_actions()
    ids = state.board.ids
    # Mice it may catch: on the floor, not in a hole, not hidden under the table.
    prey = [ids[sq] for sq in state.mice
            if sq >= 0 and sq not in state.board.holes and not state.board.table[sq]]
    squares = [a for a in legal if a != STAY]
    if not squares:
        return legal[rng.below(len(legal))]
    catch = [a for a in squares if a in prey]
    if catch:
        return catch[rng.below(len(catch))]
    if not prey:  # every mouse is safe: wander
        return squares[rng.below(len(squares))]

    def score(a):
        return min(_distance(a, m) for m in prey)

    best = min(score(a) for a in squares)
    near = [a for a in squares if score(a) == best]
    return near[rng.below(len(near))]


def _mouse_value(state, sid, near_cat=True):
    """How good a square is for a mouse to stop on: cheese, tiles, home, away from the cat
    (near_cat: judged by the steps to the cat; the strong mice judge it by the cat's paths)."""
    b = state.board
    sq = b.square(sid)
    tile = state.tiles[sq]
    value = 0
    if tile == SHOWN and sq != state.cat:
        value += 6  # a cheese the cat left: a sure piece
    elif tile is not None and not b.table[sq]:
        value += 2  # a face-down tile: maybe cheese
    if sq in b.holes and state.cheese >= state.goal and not state.home:
        value += 8  # the cheese is in: bring it home
    if near_cat and state.cat >= 0:
        near = _distance(sid, b.ids[state.cat])
        if near <= 3 and not b.table[sq] and sq not in b.holes:
            value -= 4 - near  # within the cat's reach
    return value


def choose_mice(state, rng):
    """The mice's action: which mouse (its square), then where it stops (a generator: it yields
    after each mouse it judges)."""
    legal = state.legal_actions()
    if state.phase == PICK:  # judge each mouse by the best square it could reach
        scores = []
        for a in legal:
            yield
            if a == STAY:
                scores.append(-10)
                continue
            reach = _mouse_reach(state, a)
            scores.append(max([_mouse_value(state, s) for s in reach] or [-9]))
    else:
        scores = [_mouse_value(state, a) if a != STAY else -10 for a in legal]
    best = max(scores)
    top = [legal[i] for i in range(len(legal)) if scores[i] == best]
    return top[rng.below(len(top))]


def _mouse_reach(state, sid):
    """The squares (ids) the mouse on square sid may reach with the roll, as the game's hint
    lights them but for its own: its paths alone (the hint lists every mouse's legal moves
    first, four times this work)."""
    b = state.board
    sq = b.square(sid)
    acc = access(state, state.mice.index(sq))
    ids = b.ids
    return [ids[x] for x in destinations(b, sq, state.roll, acc, state.rules["house"]["revisit"])]


# -- strong: one roll ahead --------------------------------------------------------------


def _prey(state):
    """The squares of the mice the cat may catch: on the floor, not in a hole or under the table."""
    b = state.board
    return [sq for sq in state.mice if sq >= 0 and sq not in b.holes and not b.table[sq]]


def _cat_reach(state, start):
    """Square -> the chance that the cat's next roll from `start` can end there (a generator:
    it yields after each face of the die it follows)."""
    faces = state.rules["dice"][DIE[CAT]]
    acc = access(state, -1)
    revisit = state.rules["house"]["revisit"]
    chance = {}
    for f in sorted(set(faces)):
        yield
        p = faces.count(f) / len(faces)
        for sq in destinations(state.board, start, f, acc, revisit):
            chance[sq] = chance.get(sq, 0.0) + p
    return chance


def strong_cat(state, rng):
    """Catch when it can; otherwise stop where the next roll most likely catches a mouse,
    closest to the prey, and off face-down tiles (a cheese the cat turns over is the mice's)."""
    legal = state.legal_actions()
    squares = [a for a in legal if a != STAY]
    prey = _prey(state)
    b = state.board
    catch = [a for a in squares if b.square(a) in prey]
    if catch:
        return catch[rng.below(len(catch))]
    if not squares or not prey:
        return choose_cat(state, rng)
    ids = b.ids
    scores = []
    for a in squares:
        reach = yield from _cat_reach(state, b.square(a))
        hit = 0.0
        for sq in prey:
            hit = max(hit, reach.get(sq, 0.0))
        near = min(_distance(a, ids[m]) for m in prey)
        tile = state.tiles[b.square(a)]
        face_down = tile is not None and tile != SHOWN and not b.table[b.square(a)]
        scores.append(10 * hit - 0.5 * near - (1.0 if face_down else 0.0))
    return _best(rng, squares, scores)


def strong_mice(state, rng):
    """Each square weighed by what it holds and by the chance the cat's next roll reaches it;
    at a pick, the mouse whose move gains most over staying where it is."""
    legal = state.legal_actions()
    b = state.board
    danger = (yield from _cat_reach(state, state.cat)) if state.cat >= 0 else {}

    def value(sid):
        sq = b.square(sid)
        v = _mouse_value(state, sid, False)
        if not b.table[sq] and sq not in b.holes:
            v -= 12 * danger.get(sq, 0.0)
        return v

    if state.phase == PICK:
        scores = []
        for a in legal:
            yield
            if a == STAY:
                scores.append(-99)
                continue
            reach = _mouse_reach(state, a)
            scores.append(max([value(x) for x in reach] or [-99]) - value(a))
    else:
        yield
        scores = [value(a) if a != STAY else -99 for a in legal]
    return _best(rng, legal, scores)


def _best(rng, legal, scores):
    top = max(scores)
    best = [legal[i] for i in range(len(legal)) if scores[i] >= top - 1e-5]
    return best[rng.below(len(best))]
