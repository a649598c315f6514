"""The board's own cat, for children who play the mice against the board.

It plays only legal moves, and sensible ones: it catches a mouse when it can,
otherwise it goes where the nearest mouse it may catch is closest, and it starts
on the table square nearest the mice. Ties are broken by the random source, so
it is not predictable, and the same seed replays the same game.
"""

from cheesefw.games.kitchen import STAY


def _xy(sid):
    return ord(sid[0]) - 97, int(sid[1:])


def _distance(a, b):
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    return abs(ax - bx) + abs(ay - by)


def choose(state, rng):
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
