"""The cards on the Gatenkaas table, cell by cell, and what a new card would do there.

Per area cell three bytes, kept up to date as cards are laid (gatenkaas.py plays them):
- top: 1 + the id of the card lying on top there, 0 for the bare table;
- shown: 1 + the id of the card whose face one sees there (through holes), 0 for the table;
- seen: 1 + the colour of the mouse one sees there, 0 when no mouse shows.
A mouse is one cell, so it is either seen or blocked: never "partly covered".
"""

from cheesefw import const
from cheesefw.games import same_items
from cheesefw.games.gatenkaas_deck import HOLE, MOUSE

_NOT_LEGAL = const(-1)  # judge(): the card may not lie there at all

# What a card laid on a cell would lie on (Layout.grade): nothing, a card, a seen mouse, a cat.
# (Private constants, as _NOT_LEGAL: no module but this one reads them, and the board keeps no
# name for them.)
_FREE = const(0)
_CARD = const(1)
_MOUSE_SEEN = const(2)
_CAT = const(3)

POP = bytes(bin(i).count("1") for i in range(256))  # set bits of a byte


class Layout:
    def __init__(self, deck):
        self.deck = deck
        n = deck.n
        self.top = bytearray(n)
        self.shown = bytearray(n)
        self.seen = bytearray(n)
        self.grade = bytearray(n)  # _FREE, _CARD, _MOUSE_SEEN or _CAT: all a placement needs
        # For each turn, the area-cell delta of each face cell from the card's corner cell.
        cols = deck.cols
        self.deltas = [bytes(dr * cols + dc for dc, dr in deck.offsets[t]) for t in range(4)]
        # The rows and columns cards cover so far (a new card must touch them).
        self.box = [deck.cols, deck.rows, -1, -1]

    def lay(self, card, cell, turn):
        """Put `card` down with its corner on `cell`: it covers, and its holes show through."""
        d = self.deck
        face = d.faces[card]
        deltas = self.deltas[turn]
        top, shown, seen, grade = self.top, self.shown, self.seen, self.grade
        cat = d.is_cat(card)
        for i in range(len(face)):
            c = cell + deltas[i]
            top[c] = card + 1
            kind = face[i]
            if kind != HOLE:  # a hole keeps what shows below it
                shown[c] = card + 1
                seen[c] = kind - MOUSE + 1 if kind >= MOUSE else 0
            grade[c] = _CAT if cat else _MOUSE_SEEN if seen[c] else _CARD
        box = self.box
        w, h = d.span(turn)
        col, row = cell % d.cols, cell // d.cols
        box[0], box[1] = min(box[0], col), min(box[1], row)
        box[2], box[3] = max(box[2], col + w - 1), max(box[3], row + h - 1)

    def over(self, turn):
        """Where a card laid with `turn` fits the area, lies on some card and on no cat card
        ("No other card may be placed on top of a cat card"): `corner << 8 | mask` per corner
        cell in cell order, mask's bit i set when face cell i would lie on a seen mouse; and -1
        after each row of cells looked at (where a board player's step may end). A generator: a
        whole turn's corners never sit in the heap at once."""
        cols = self.deck.cols
        deltas = self.deltas[turn]
        grade = self.grade
        rows, columns = self._corners(turn)
        for row in rows:
            base = row * cols
            for col in columns:
                cell = base + col
                on = 0
                mask = 0
                bit = 1
                for x in deltas:
                    g = grade[cell + x]
                    if g:
                        if g == _CAT:
                            break
                        on = 1
                        if g == _MOUSE_SEEN:
                            mask |= bit
                    bit <<= 1
                else:
                    if on:
                        yield cell << 8 | mask
            yield -1

    def _corners(self, turn):
        """The rows and the columns of the corner cells where a card laid with `turn` could
        touch the cards so far and stay in the area."""
        d = self.deck
        w, h = d.span(turn)
        box = self.box
        return (range(max(0, box[1] - h + 1), min(d.rows - h, box[3]) + 1),
                range(max(0, box[0] - w + 1), min(d.cols - w, box[2]) + 1))

    def most_over(self, turn):
        """At most how many corners over(turn) yields: a buffer's size, found without it."""
        rows, columns = self._corners(turn)
        return len(rows) * len(columns)

    def judge(self, card, cell, turn):
        """How many seen mice `card` laid there would block; _NOT_LEGAL when it would leave the
        area, lie on a cat card or touch no card on the table."""
        d = self.deck
        if not d.fits(cell % d.cols, cell // d.cols, turn):
            return _NOT_LEGAL
        face = d.faces[card]
        blocked = 0
        on = 0
        for i in range(len(face)):
            g = self.grade[cell + self.deltas[turn][i]]
            if g == _CAT:
                return _NOT_LEGAL
            on += g != _FREE
            blocked += g == _MOUSE_SEEN and face[i] != HOLE
        return blocked if on else _NOT_LEGAL

    def seen_through(self, card, cell, turn):
        """The colours of the mice seen through the holes of `card` laid there, in face order."""
        face = self.deck.faces[card]
        deltas = self.deltas[turn]
        out = []
        for i in range(len(face)):
            if face[i] == HOLE:
                k = self.seen[cell + deltas[i]]
                if k:
                    out.append(k - 1)
        return out

    def cells_of(self, cell, turn):
        return [cell + x for x in self.deltas[turn]]

    def count_seen(self, colours):
        """Per colour, the mice one sees on the table now."""
        seen = self.seen  # (counted in C, not a walk of every cell)
        return [seen.count(bytes((k + 1,))) for k in range(colours)]


class Codes:
    """A sorted list of actions below 65536, two bytes each: a whole hand's placements (several
    hundred) cost a bytearray, not a list of ints. It behaves as the list the contract names:
    len(), indexing, iteration, `in` (a binary search) and == with a list."""

    def __init__(self, data):
        self.data = data  # bytearray: high byte, low byte of each action, in sorted order

    def __len__(self):
        return len(self.data) // 2

    def __getitem__(self, i):
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("action index out of range")
        return self.data[2 * i] << 8 | self.data[2 * i + 1]

    def __iter__(self):
        data = self.data
        for i in range(0, len(data), 2):
            yield data[i] << 8 | data[i + 1]

    def __contains__(self, a):
        if type(a) is not int:
            return False
        low = first_at(self, a)
        return low < len(self) and self[low] == a

    def __eq__(self, other):
        return same_items(self, other)

    def __repr__(self):
        return repr(list(self))


def first_at(items, x):
    """Where x is, or would go, in sorted items (its first place): found by halving."""
    low, high = 0, len(items)
    while low < high:
        mid = (low + high) // 2
        if items[mid] < x:
            low = mid + 1
        else:
            high = mid
    return low
