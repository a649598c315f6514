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

from cheesefw.games.gatenkaas_deck import DISCARD, HOLE, MOUSE, unpack


def gains(state, a):
    """Per colour (0..3), the points action `a` would give (negative: it blocks them)."""
    out = [0, 0, 0, 0]
    if a >= DISCARD:
        return out
    card, turn, cell = unpack(a)
    face = state.deck.faces[card]
    lay = state.layout
    cells = lay.cells_of(cell, turn)
    left = state.supply - sum(state.cheese)
    n = state.num_players()
    for i in range(len(face)):
        k = lay.seen[cells[i]] - 1  # the colour seen there now, -1 for none
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
    i = 0
    for a in legal:
        g = gains(state, a)
        if level == "strong":
            score = 2 * g[me] - max([g[s] for s in range(n) if s != me] or [0])
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
