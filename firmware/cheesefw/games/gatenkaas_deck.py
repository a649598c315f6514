"""The Gatenkaas deck and play area from the rule table (gatenkaas.py plays with them).

A card is `width` x `height` cells; its face is one byte a cell, row by row: BODY (printed
card), HOLE, or MOUSE + colour. Cards are ids: 0 the start card, 1..cats the cat cards, then
the mouse cards, in the table's order. A placement lays a card with its top-left corner on
(col, row) of the play area, turned `turn` quarter turns clockwise; `Deck.cells` says which
area cell each face cell lands on. Area cells are ints `row * cols + col`; their ids are
"a1".. (column letter, row number from 1), as the profile's map names them.
"""

from cheesefw import const

_BODY = const(0)  # (private: no other module reads it, and the board keeps no name for it)
HOLE = 1
MOUSE = 2  # + colour (0..3): a mouse printed in the colour of seat `colour`

# The rulebook's make-up: "29 cards: 1 start card, 4 cat cards and 24 mouse cards", "4 mice
# (1 per colour)", "32 pieces of cheese"; "There are cards with 1 or 2 holes" (Deck checks it).
_CAT_CARDS = const(4)
_MOUSE_CARDS = const(24)
_COLOURS = const(4)
_CHEESE = const(32)

# Where each card is (State.where): the pile, the table, out of the game, or a hand.
PILE = 0
TABLE = 1
OUT = 2  # discarded, face up
REMOVED = 3  # "With 3 players, remove 1 cat card from the game"
HAND = 4  # + seat

# The actions (gatenkaas.py): a placement is `(card * 4 + turn) * 256 + cell`, sorted by card,
# then turn, then the corner cell in reading order; DISCARD + card sets a card aside.
DISCARD = 0x8000  # + card: no card in hand can be laid, so this one goes out of the game


def placement(card, col, row, turn, cols):
    """The action that lays `card` with its corner on (col, row), turned `turn` quarters."""
    return (card * 4 + turn) * 256 + row * cols + col


def unpack(a):
    """(card, turn, corner cell) of a placement action."""
    return a >> 10, (a >> 8) & 3, a & 255


class Deck:
    """The static game: play area, card faces, kinds, the cells each placement covers."""

    def __init__(self, rules):
        grid = field(rules, "grid", dict)
        self.cols = cols = int_in(grid, "cols", 3, 26, "grid.")
        self.rows = rows = int_in(grid, "rows", 3, 99, "grid.")
        self.n = cols * rows
        if self.n > 256:  # a cell is one byte: in the layout and in each action's code
            raise ValueError("gatenkaas rules: grid expected at most 256 cells, got %dx%d"
                             % (cols, rows))
        card = field(rules, "card", dict)
        self.width = w = int_in(card, "width", 1, cols, "card.")
        self.height = h = int_in(card, "height", 1, rows, "card.")
        if w * h > 8:  # a card's cells are the bits of one byte (gatenkaas_layout.over)
            raise ValueError("gatenkaas rules: card expected at most 8 cells, got %dx%d" % (w, h))
        if max(w, h) > min(cols, rows):  # a turned card must fit too
            raise ValueError("gatenkaas rules: card expected to fit the grid %dx%d turned, got "
                             "%dx%d" % (cols, rows, w, h))
        colours = field(rules, "colours", list)
        if len(colours) != _COLOURS or [c for c in colours if type(c) is not str or not c]:
            raise ValueError("gatenkaas rules: colours expected %d names, got %r"
                             % (_COLOURS, colours))
        letters = [c[0] for c in colours]
        if len(set(letters)) != _COLOURS or "o" in letters or "." in letters:
            raise ValueError("gatenkaas rules: colours expected distinct first letters (not o),"
                             " got %r" % (colours,))
        self.letters = "".join(letters)
        start = field(rules, "start", dict)
        faces = [self._face(field(start, "face", list, "start."), "start.face")]
        cats = field(rules, "cats", list)
        mice = field(rules, "mice", list)
        for kind, cards, count in (("cats", cats, _CAT_CARDS), ("mice", mice, _MOUSE_CARDS)):
            if len(cards) != count:
                raise ValueError("gatenkaas rules: %s expected %d cards (the rulebook's make-up),"
                                 " got %d" % (kind, count, len(cards)))
            for i in range(len(cards)):
                faces.append(self._face(cards[i], "%s[%d]" % (kind, i)))
        self.faces = faces
        self.cats = _CAT_CARDS  # ids 1..cats are the cat cards
        self.size = len(faces)
        self._check_holes()
        # Where face cell i lands for each turn: (dcol, drow) from the placement's corner.
        self.offsets = [_turned(w, h, t) for t in range(4)]
        self.turns = [self._distinct_turns(c) for c in range(self.size)]
        # Per card, the bits of its face cells that are not holes: those block what they cover.
        self.solid = bytes(sum(1 << i for i in range(w * h) if f[i] != HOLE) for f in faces)
        self.start = (0,) + self._start_placement(start)

    def is_cat(self, card):
        return 1 <= card <= self.cats

    def span(self, turn):
        """(cols, rows) a card covers laid with `turn` quarter turns."""
        return (self.width, self.height) if turn % 2 == 0 else (self.height, self.width)

    def cells(self, col, row, turn):
        """The area cells under face cells 0.. of a card laid at (col, row) turned `turn`."""
        cols = self.cols
        return [(row + dr) * cols + col + dc for dc, dr in self.offsets[turn]]

    def fits(self, col, row, turn):
        w, h = self.span(turn)
        return 0 <= col and 0 <= row and col + w <= self.cols and row + h <= self.rows

    def cell_id(self, cell):
        """A cell's space id: its column's letter and its row's number, "c12" (one string made,
        not three: each costs a Pico some 150 us)."""
        return "%c%d" % (97 + cell % self.cols, cell // self.cols + 1)

    def _face(self, rows, where):
        w, h = self.width, self.height
        if type(rows) is not list or len(rows) != h or [r for r in rows
                                                        if type(r) is not str or len(r) != w]:
            raise ValueError("gatenkaas rules: %s expected %d rows of %d cells, got %r"
                             % (where, h, w, rows))
        face = bytearray(w * h)
        for i in range(w * h):
            ch = rows[i // w][i % w]
            if ch == "o":
                face[i] = HOLE
            elif ch != ".":
                k = self.letters.find(ch)
                if k < 0:
                    raise ValueError("gatenkaas rules: %s expected cells '.', 'o' or one of %r, "
                                     "got %r" % (where, self.letters, ch))
                face[i] = MOUSE + k
        return bytes(face)

    def _check_holes(self):
        """The start card has no hole; cat and mouse cards 1 or 2 ("cards with 1 or 2 holes")."""
        for c in range(self.size):
            holes = len([b for b in self.faces[c] if b == HOLE])
            if c == 0:
                where, ok = "start.face", holes == 0
            else:
                kind, i = ("cats", c - 1) if self.is_cat(c) else ("mice", c - 1 - self.cats)
                where, ok = "%s[%d]" % (kind, i), holes in (1, 2)
            if not ok:
                want = "no hole" if c == 0 else "1 or 2 holes"
                raise ValueError("gatenkaas rules: %s expected %s, got %d" % (where, want, holes))
        for c in range(1 + self.cats, self.size):
            if len([b for b in self.faces[c] if b >= MOUSE]) == 0:
                raise ValueError("gatenkaas rules: mice[%d] expected at least one mouse, got none"
                                 % (c - 1 - self.cats))

    def _distinct_turns(self, card):
        """The quarter turns that lay a different picture (a symmetric face has fewer)."""
        face = self.faces[card]
        seen = []
        turns = []
        for t in range(4):
            picture = sorted((self.offsets[t][i], face[i]) for i in range(len(face)))
            if picture not in seen:
                seen.append(picture)
                turns.append(t)
        return bytes(turns)

    def _start_placement(self, start):
        col = int_in(start, "col", 0, self.cols - 1, "start.")
        row = int_in(start, "row", 0, self.rows - 1, "start.")
        turn = int_in(start, "turn", 0, 3, "start.")
        if not self.fits(col, row, turn):
            raise ValueError("gatenkaas rules: start expected a card inside the %dx%d grid, got "
                             "col %d row %d turn %d" % (self.cols, self.rows, col, row, turn))
        return (col, row, turn)


def _turned(w, h, t):
    """Offsets of face cells (row by row, w x h) after t clockwise quarter turns."""
    out = []
    for i in range(w * h):
        c, r = i % w, i // w
        cw, ch = w, h
        for _ in range(t):  # one clockwise turn of a cw x ch picture: (c, r) -> (ch-1-r, c)
            c, r = ch - 1 - r, c
            cw, ch = ch, cw
        out.append((c, r))
    return out


def check_rules(rules, deck):
    """The rest of the table: hand, players, cats out, cheese, tallies, palette."""
    field(rules, "version", int)
    players = field(rules, "players", dict)
    low = int_in(players, "min", 2, _COLOURS, "players.")
    high = int_in(players, "max", low, _COLOURS, "players.")
    hand = int_in(rules, "hand", 1, 10, "")
    if hand * high > deck.size - 1 - deck.cats:
        raise ValueError("gatenkaas rules: hand expected at most %d cards for %d players, got %d"
                         % ((deck.size - 1 - deck.cats) // high, high, hand))
    out = field(rules, "cats_out", dict)
    for key in out:
        if key not in [str(n) for n in range(low, high + 1)]:
            raise ValueError("gatenkaas rules: cats_out expected player counts %d..%d, got %r"
                             % (low, high, key))
        int_in(out, key, 0, deck.cats, "cats_out.")
    cheese = field(rules, "cheese", int)
    if cheese != _CHEESE:
        raise ValueError("gatenkaas rules: cheese expected %d (the rulebook's make-up), got %r"
                         % (_CHEESE, cheese))
    tallies = field(rules, "side_spaces", list)
    if len(tallies) % _COLOURS or [t for t in tallies if type(t) is not str]:
        raise ValueError("gatenkaas rules: side_spaces expected the same number of tally ids "
                         "per seat (%d seats), got %r" % (_COLOURS, tallies))
    for kind, rgb in field(rules, "palette", dict).items():
        if type(rgb) is not list or len(rgb) != 3 or [c for c in rgb if type(c) is not int]:
            raise ValueError("gatenkaas rules: palette.%s expected [r, g, b], got %r"
                             % (kind, rgb))
    return out


def field(d, key, kind, where=""):
    """d[key], which must be of type `kind`; ValueError naming the field otherwise."""
    value = d.get(key) if isinstance(d, dict) else None
    if type(value) is not kind:
        raise ValueError("gatenkaas rules: %s%s expected %s, got %r"
                         % (where, key, kind.__name__, value))
    return value


def int_in(d, key, low, high, where):
    value = field(d, key, int, where)
    if not low <= value <= high:
        raise ValueError("gatenkaas rules: %s%s expected %d..%d, got %d"
                         % (where, key, low, high, value))
    return value
