"""Where a Gatenkaas hand may be laid: the legal placements, and the cat card's rule.

Placements are found a turn at a time: the layout's `over(turn)` gives every corner cell
where a card would lie on the table and on no cat card, with the seen mice it would lie on
as a bit mask; a mouse card's non-hole cells (`Deck.solid`) then say at once how many it
blocks. The cat card's rule looks for one place where an unplayed mouse card could still go.
"""

from cheesefw.games.gatenkaas_deck import HAND, PILE
from cheesefw.games.gatenkaas_layout import POP, Codes


def placing(state, hand):
    """The legal placements of the cards in `hand`, sorted (by card, turn, corner cell), as a
    generator's return: it yields after each 8 corners found, each 4 checked for a cat card,
    each 16 of a card's placements counted or written and after each card, so a board player
    steps it over its ticks (gatenkaas.State.legal_steps).

    Counted first, then written into a buffer of exactly their size: a buffer grown a
    placement at a time leaves a trail of freed blocks that fragments a small heap (for
    the same reason each turn's corners go into a buffer of their greatest number)."""
    lay = state.layout
    d = state.deck
    spots = []  # per turn: (corner cell, mask) byte pairs, so each turn is scanned once
    for turn in range(4):
        pairs = bytearray(2 * lay.most_over(turn))
        n = 0
        for spot in lay.over(turn):
            if spot < 0:  # a row of cells looked at (a late layout has hundreds to scan)
                yield
                continue
            pairs[n] = spot >> 8
            pairs[n + 1] = spot & 255
            n += 2
            if n & 15 == 0:  # (each 8 corners)
                yield
        spots.append(memoryview(pairs)[:n])
        yield
    cat_ok = [None] * 4  # per turn, per spot: may a cat card go there (the same for all four)
    witnesses = None  # where unplayed mouse cards could go now
    for card in hand:
        if d.is_cat(card):
            for turn in d.turns[card]:
                if cat_ok[turn] is None:
                    if witnesses is None:
                        witnesses = yield from mouse_spots(state, spots)
                        witnesses = yield from spread(state, witnesses)
                    pairs = spots[turn]
                    ok = cat_ok[turn] = bytearray(len(pairs) // 2)
                    for i in range(len(ok)):
                        ok[i] = leaves_a_move(state, pairs[2 * i], turn, witnesses)
                        if i & 3 == 3:  # (each look may walk hundreds of witnesses)
                            yield
    found = None
    for fill in (False, True):  # count, then write
        n = 0
        for card in hand:
            yield
            solid = d.solid[card]
            cat = d.is_cat(card)
            for turn in d.turns[card]:
                pairs = spots[turn]
                high = card * 4 + turn
                for i in range(0, len(pairs), 2):
                    if i & 31 == 30:  # (each 16 corners: a late layout has hundreds)
                        yield
                    if cat:  # "A cat card may block an unlimited number of mice"
                        ok = cat_ok[turn][i // 2]
                    else:  # "they must block at least 1 mouse, but no more than 2 mice"
                        ok = 1 <= POP[pairs[i + 1] & solid] <= 2
                    if ok:
                        if fill:
                            found[n] = high
                            found[n + 1] = pairs[i]
                        n += 2
        if not fill:
            found = bytearray(n)
    return Codes(found)


def leaves_a_move(state, cell, turn, witnesses):
    """"It is not allowed to place a cat card in such a way that it becomes impossible for
    the following player(s) to continue": after it, some mouse card not yet played (in a
    hand or the pile: public knowledge) must still have a legal place, if one had before.

    A cat card only turns the cells it covers into cat cells, so the places left after it are
    the places now (`witnesses`) that do not touch it: one such place is enough."""
    if not witnesses:
        return True  # nobody could go on before: the cat card takes nothing away
    d = state.deck
    w, h = d.span(turn)
    col, row = cell % d.cols, cell // d.cols
    for j in range(0, len(witnesses), 2):
        wcell, wturn = witnesses[j], witnesses[j + 1]
        ww, wh = d.span(wturn)
        wcol, wrow = wcell % d.cols, wcell // d.cols
        if wcol >= col + w or col >= wcol + ww or wrow >= row + h or row >= wrow + wh:
            return True
    return False


def spread(state, witnesses):
    """The witnesses reordered with the farthest apart first (leftmost, rightmost, top,
    bottom): most cat placements then find one clear of them at the first or second look. A
    generator's return: it yields each 16 witnesses (a late layout has hundreds)."""
    d = state.deck
    n = len(witnesses) // 2
    yield
    if n < 3:
        return witnesses
    # The first witness of the least and greatest column and row, found in one pass (lists of
    # every column and row would cost the heap a kilobyte at the moment it is fullest).
    width = d.cols
    left = right = top = bottom = 0
    for i in range(1, n):
        if i & 15 == 15:
            yield
        cell = witnesses[2 * i]
        col, row = cell % width, cell // width
        if col < witnesses[2 * left] % width:
            left = i
        if col > witnesses[2 * right] % width:
            right = i
        if row < witnesses[2 * top] // width:
            top = i
        if row > witnesses[2 * bottom] // width:
            bottom = i
    first = sorted({left, right, top, bottom})
    # Written into a buffer of the witnesses' size, with no list of the order: this runs when
    # the heap is fullest, at a game's first turn.
    out = bytearray(len(witnesses))
    k = 0
    for pick in (True, False):  # the four extremes, then the rest in their order
        for i in first if pick else range(n):
            if i & 15 == 15:
                yield
            if pick or i not in first:
                out[k] = witnesses[2 * i]
                out[k + 1] = witnesses[2 * i + 1]
                k += 2
    return out


def mouse_spots(state, spots):
    """The places (corner cell, turn: byte pairs) where some unplayed mouse card could be
    laid, as a generator's return (it yields each 16 corners); `spots` holds, per turn, the
    (corner cell, mask) pairs of the layout's over()."""
    d = state.deck
    solids = []
    for card in range(d.cats + 1, d.size):
        if (state.where[card] == PILE or state.where[card] >= HAND) and \
                d.solid[card] not in solids:
            solids.append(d.solid[card])
    out = bytearray(sum(len(pairs) for pairs in spots))  # at most one place per corner
    n = 0
    fits = bytearray(256)  # per mask met so far: 1 some unplayed card fits, 2 none does
    for turn in range(4):
        pairs = spots[turn]
        for i in range(0, len(pairs), 2):
            if i & 31 == 30:  # (each 16 corners)
                yield
            m = pairs[i + 1]
            if not fits[m]:
                fits[m] = 2
                for solid in solids:
                    if 1 <= POP[m & solid] <= 2:
                        fits[m] = 1
                        break
            if fits[m] == 1:
                out[n] = pairs[i]
                out[n + 1] = turn
                n += 2
    return memoryview(out)[:n]
