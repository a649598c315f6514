"""The board's own players: the cat, for children who play the mice against the board,
and the mice, for a child who plays the cat (or a board that plays itself).

Both play only legal moves, and sensible ones. The cat catches a mouse when it can,
otherwise it goes where the nearest mouse it may catch is closest. The mice go for
cheese (a visible one first, then face-down tiles), home when the cheese is in, and
keep away from the cat. Ties are broken by the random source, so neither is
predictable, and the same seed replays the same game.
"""

from cheesefw.games.kitchen import CAT, PICK, STAY
from cheesefw.games.kitchen_moves import SHOWN


def _xy(sid):
    return ord(sid[0]) - 97, int(sid[1:])


def _distance(a, b):
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    return abs(ax - bx) + abs(ay - by)


def choose(state, rng):
    """The board's action for the side to move: a legal action of `state`."""
    if state.side == CAT:
        return choose_cat(state, rng)
    return choose_mice(state, rng)


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


def _mouse_value(state, sid):
    """How good a square is for a mouse to stop on: cheese, tiles, home, away from the cat."""
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
    if state.cat >= 0:
        near = _distance(sid, b.ids[state.cat])
        if near <= 3 and not b.table[sq] and sq not in b.holes:
            value -= 4 - near  # within the cat's reach
    return value


def choose_mice(state, rng):
    """The mice's action: which mouse (its square), then where it stops."""
    legal = state.legal_actions()
    if state.phase == PICK:  # judge each mouse by the best square it could reach

        def best_reach(a):
            reach = [s for s in state.hint(a)["spaces"] if s != a]
            return max([_mouse_value(state, s) for s in reach] or [-9])

        scores = [best_reach(a) if a != STAY else -10 for a in legal]
    else:
        scores = [_mouse_value(state, a) if a != STAY else -10 for a in legal]
    best = max(scores)
    top = [legal[i] for i in range(len(legal)) if scores[i] == best]
    return top[rng.below(len(top))]
