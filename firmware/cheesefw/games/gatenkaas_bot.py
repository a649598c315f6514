"""The board's own Gatenkaas player: it lays the card that does the most for its own mouse
colour and the least for the others'.

A placement is judged by what it changes at once, in points: cheese its holes hand out, mice
of a colour it blocks (a point less at the end) and mice printed on it (a point more). The
strong player takes the best of (own gain - the best other seat's gain); the beginner only
avoids placements that cost its own colour, and is otherwise random. Ties go to the random
source, so the same seed replays the same game.

`think` is a generator (see games.decide): it yields after each placement it judges, so the
engine can spread a hand's several hundred placements over its ticks.
"""

from cheesefw.games.gatenkaas_deck import DISCARD, HOLE, MOUSE


def gains(state, a, out):
    """Into out, a list of four (per colour 0..3): the points action `a` would give (negative:
    it blocks them). Filled in place, with no list, tuple or cell list of its own: the player
    judges several hundred placements a hand, and their garbage (96 KB a hand at 64 bits)
    brought the collector into its thinking ticks."""
    out[0] = out[1] = out[2] = out[3] = 0
    if a >= DISCARD:
        return out
    face = state.deck.faces[a >> 10]  # (the card, turn and corner cell of unpack(a))
    deltas = state.layout.deltas[(a >> 8) & 3]
    cell = a & 255
    seen = state.layout.seen
    left = state.supply - sum(state.cheese)
    n = state.num_players()
    for i in range(len(face)):
        k = seen[cell + deltas[i]] - 1  # the colour seen there now, -1 for none
        if face[i] == HOLE:
            if k >= 0 and k < n and left > 0:
                out[k] += 1  # it eats through the hole
                left -= 1
        else:
            if k >= 0:
                out[k] -= 1  # blocked
            if face[i] >= MOUSE:
                out[face[i] - MOUSE] += 1  # a new mouse on show
    return out


def think(state, rng, level="strong"):
    """Yields while it judges; returns a legal action for the seat on turn."""
    legal = yield from state.legal_steps()  # (a hand's placements: the game's own steps)
    yield
    me = state.player
    n = state.num_players()
    # One byte a placement (score + 64): a hand's several hundred scores cost no list of ints.
    scores = bytearray(len(legal))
    g = [0, 0, 0, 0]  # each placement's gains, in place
    i = 0
    for a in legal:
        gains(state, a, g)
        if level == "strong":
            other = None  # the most another seat gains (no list of theirs: see gains)
            for s in range(n):
                if s != me and (other is None or g[s] > other):
                    other = g[s]
            score = 2 * g[me] - (other or 0)
        else:
            score = 0 if g[me] >= 0 else -1
        scores[i] = max(0, min(255, score + 64))
        i += 1
        yield
    best = max(scores)
    ties = 0
    for i in range(len(scores)):
        ties += scores[i] == best
        if i & 31 == 31:  # (a hand's several hundred: a step each 32)
            yield
    k = rng.below(ties)
    for i in range(len(scores)):
        if scores[i] == best:
            if k == 0:
                return legal[i]
            k -= 1
        if i & 31 == 31:
            yield
