"""Where a Gatenkaas hand may be laid: the legal placements, and the cat card's rule.

Placements are found a turn at a time: the layout's `over(turn)` gives every corner cell
where a card would lie on the table and on no cat card, with the seen mice it would lie on
as a bit mask; a mouse card's non-hole cells (`Deck.solid`) then say at once how many it
blocks. The cat card's rule looks for one place where an unplayed mouse card could still go.
"""

from cheesefw.games.gatenkaas_deck import HAND, PILE
from cheesefw.games.gatenkaas_layout import POP, Codes


def placements(state, hand):
    """The legal placements of the cards in `hand`, sorted (by card, turn, corner cell)."""
    lay = state.layout
    d = state.deck
    spots = []  # per turn: (corner cell, mask) byte pairs, so each turn is scanned once
    for turn in range(4):
        pairs = bytearray()
        for spot in lay.over(turn):
            pairs.append(spot >> 8)
            pairs.append(spot & 255)
        spots.append(pairs)
    found = bytearray()
    witnesses = None  # for a cat card: where unplayed mouse cards could go now
    for card in hand:
        cat = d.is_cat(card)
        solid = d.solid[card]
        if cat and witnesses is None:
            witnesses = mouse_spots(state)
        for turn in d.turns[card]:
            pairs = spots[turn]
            high = card * 4 + turn
            for i in range(0, len(pairs), 2):
                if cat:  # "A cat card may block an unlimited number of mice"
                    ok = leaves_a_move(state, pairs[i], turn, witnesses)
                else:  # "they must block at least 1 mouse, but no more than 2 mice"
                    ok = 1 <= POP[pairs[i + 1] & solid] <= 2
                if ok:
                    found.append(high)
                    found.append(pairs[i])
    return Codes(found)


def leaves_a_move(state, cell, turn, witnesses):
    """"It is not allowed to place a cat card in such a way that it becomes impossible for
    the following player(s) to continue": after it, some mouse card not yet played (in a
    hand or the pile: public knowledge) must still have a legal place, if one had before."""
    if not witnesses:
        return True  # nobody could go on before: the cat card takes nothing away
    d = state.deck
    w, h = d.span(turn)
    col, row = cell % d.cols, cell // d.cols
    spots = witnesses
    for j in range(0, len(spots), 2):  # one lying clear of the cat card stays legal after
        wcell, wturn = spots[j], spots[j + 1]
        ww, wh = d.span(wturn)
        wcol, wrow = wcell % d.cols, wcell // d.cols
        if wcol >= col + w or col >= wcol + ww or wrow >= row + h or row >= wrow + wh:
            return True
    lay = state.layout
    saved = lay.save()
    lay.lay(1, cell, turn)  # any cat card covers the same cells: all count as CAT
    found = mouse_spots(state, True)
    lay.restore(saved)
    return bool(found)


def mouse_spots(state, first=False):
    """The places (corner cell, turn: byte pairs) where some unplayed mouse card could be
    laid; with `first`, only the first found."""
    d = state.deck
    solids = []
    for card in range(d.cats + 1, d.size):
        if (state.where[card] == PILE or state.where[card] >= HAND) and \
                d.solid[card] not in solids:
            solids.append(d.solid[card])
    out = bytearray()
    fits = bytearray(256)  # per mask met so far: 1 some unplayed card fits, 2 none does
    for turn in range(4):
        for spot in state.layout.over(turn):
            m = spot & 255
            if not fits[m]:
                fits[m] = 2
                for solid in solids:
                    if 1 <= POP[m & solid] <= 2:
                        fits[m] = 1
                        break
            if fits[m] == 1:
                out.append(spot >> 8)
                out.append(turn)
                if first:
                    return out
    return out
