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

They weigh squares as the game's ints and name only the action they choose by its id: a square
id parsed back (Board.square, checked) costs a Pico some 200 us, and a decision weighs dozens.
"""

from cheesefw.games.kitchen_moves import CAT, DIE, PICK, SHOWN, STAY, access, search


def _distance(b, x, y):
    """Steps between squares x and y of board b, ignoring walls (columns plus rows apart)."""
    return abs(x // b.rows - y // b.rows) + abs(x % b.rows - y % b.rows)


def think(state, rng, level="strong"):
    """The board's action for the side to move, a legal action of `state`, as a generator (see
    games.decide): it yields after each square, mouse or roll of the die it weighs, and in each
    path search (the game's legal actions first, which the state keeps: kitchen_moves.search)."""
    if level == "strong":
        return (yield from strong_cat(state, rng) if state.side == CAT else strong_mice(state, rng))
    yield from state.legal_steps()
    if state.side == CAT:
        return (yield from choose_cat(state, rng))
    return (yield from choose_mice(state, rng))


def choose_cat(state, rng):
    """The cat's action at a cat decision: a legal action of `state` (a generator: it yields
    after each square it weighs; an arrow offers some 30)."""
    legal = state.legal_actions()
    b = state.board
    prey = _prey(state)
    squares = [a for a in legal if a != STAY]
    if not squares:
        return legal[rng.below(len(legal))]
    where = yield from _squares(b, squares)
    catch = [squares[i] for i in range(len(squares)) if where[i] in prey]
    if catch:
        return catch[rng.below(len(catch))]
    if not prey:  # every mouse is safe: wander
        return squares[rng.below(len(squares))]
    scores = []
    for sq in where:
        yield
        scores.append(min(_distance(b, sq, m) for m in prey))
    best = min(scores)
    near = [squares[i] for i in range(len(squares)) if scores[i] == best]
    return near[rng.below(len(near))]


def _squares(b, ids):
    """The squares of square ids, each parsed once (a generator: it yields after each, some 200
    us of a Pico: an arrow offers the cat some 30, which in one go held a tick 10 ms)."""
    where = []
    for a in ids:
        yield
        where.append(b.square(a))
    return where


def _mouse_value(state, sq, cat):
    """How good square sq is for a mouse to stop on: cheese, tiles, home, away from the cat
    (cat: the cat's square, judged by the steps to it; -1: not so, the strong mice judge it by
    the cat's paths)."""
    b = state.board
    tile = state.tiles[sq]
    value = 0
    if tile == SHOWN and sq != state.cat:
        value += 6  # a cheese the cat left: a sure piece
    elif tile is not None and not b.table[sq]:
        value += 2  # a face-down tile: maybe cheese
    if sq in b.holes and state.cheese >= state.goal and not state.home:
        value += 8  # the cheese is in: bring it home
    if cat >= 0:
        near = _distance(b, sq, cat)
        if near <= 3 and not b.table[sq] and sq not in b.holes:
            value -= 4 - near  # within the cat's reach
    return value


def choose_mice(state, rng):
    """The mice's action: which mouse (its square), then where it stops (a generator: it yields
    after each mouse or square it judges)."""
    legal = state.legal_actions()
    if state.phase == PICK:  # judge each mouse by the best square it could reach
        scores = []
        for a in legal:
            yield
            if a == STAY:
                scores.append(-10)
                continue
            reach = yield from _mouse_reach(state, a)
            scores.append(max([_mouse_value(state, sq, state.cat) for sq in reach] or [-9]))
    else:  # (an arrow offers some 30 squares: one in one go took a Pico 15 ms)
        b = state.board
        scores = []
        for a in legal:
            yield
            scores.append(_mouse_value(state, b.square(a), state.cat) if a != STAY else -10)
    best = max(scores)
    top = [legal[i] for i in range(len(legal)) if scores[i] == best]
    return top[rng.below(len(top))]


def _mouse_reach(state, sid):
    """The squares the mouse on square id sid may reach with the roll, as the game's hint
    lights them but for its own: its paths alone (the hint lists every mouse's legal moves
    first, four times this work). A generator, as the search."""
    b = state.board
    sq = b.square(sid)
    acc = access(state, state.mice.index(sq))
    return search(b, sq, state.roll, acc, state.rules["house"]["revisit"])


# -- strong: one roll ahead --------------------------------------------------------------


def _prey(state):
    """The squares of the mice the cat may catch: on the floor, not in a hole or under the table."""
    b = state.board
    return [sq for sq in state.mice if sq >= 0 and sq not in b.holes and not b.table[sq]]


def _cat_reach(state, start):
    """Square -> the chance that the cat's next roll from `start` can end there (a generator:
    it yields after each face of the die it follows, and in its paths)."""
    faces = state.rules["dice"][DIE[CAT]]
    acc = access(state, -1)
    revisit = state.rules["house"]["revisit"]
    chance = {}
    for f in sorted(set(faces)):
        yield
        p = faces.count(f) / len(faces)
        for sq in (yield from search(state.board, start, f, acc, revisit)):
            chance[sq] = chance.get(sq, 0.0) + p
    return chance


def strong_cat(state, rng):
    """Catch when it can; otherwise stop where the next roll most likely catches a mouse,
    closest to the prey, and off face-down tiles (a cheese the cat turns over is the mice's)."""
    legal = yield from state.legal_steps()  # (the cat's paths, in steps of their own)
    yield
    squares = [a for a in legal if a != STAY]
    prey = _prey(state)
    b = state.board
    where = yield from _squares(b, squares)
    catch = [squares[i] for i in range(len(squares)) if where[i] in prey]
    if catch:
        return catch[rng.below(len(catch))]
    if not squares or not prey:
        return (yield from choose_cat(state, rng))
    scores = []
    for sq in where:
        reach = yield from _cat_reach(state, sq)
        hit = 0.0
        for m in prey:
            hit = max(hit, reach.get(m, 0.0))
        near = min(_distance(b, sq, m) for m in prey)
        tile = state.tiles[sq]
        face_down = tile is not None and tile != SHOWN and not b.table[sq]
        scores.append(10 * hit - 0.5 * near - (1.0 if face_down else 0.0))
    return _best(rng, squares, scores)


def strong_mice(state, rng):
    """Each square weighed by what it holds and by the chance the cat's next roll reaches it;
    at a pick, the mouse whose move gains most over staying where it is."""
    legal = yield from state.legal_steps()  # (every mouse's paths, in steps of their own)
    yield
    b = state.board
    danger = (yield from _cat_reach(state, state.cat)) if state.cat >= 0 else {}

    def value(sq):
        v = _mouse_value(state, sq, -1)
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
            reach = yield from _mouse_reach(state, a)
            scores.append(max([value(x) for x in reach] or [-99]) - value(b.square(a)))
    else:
        scores = []
        for a in legal:
            yield
            scores.append(value(b.square(a)) if a != STAY else -99)
    return _best(rng, legal, scores)


def _best(rng, legal, scores):
    top = max(scores)
    best = [legal[i] for i in range(len(legal)) if scores[i] >= top - 1e-5]
    return best[rng.below(len(best))]
