"""Pure helpers of the kitchen game (kitchen.py): the board, its square ids, where a piece may
go (access, the arrow's squares, the path search), and the checks of the rule table and options.

Squares are small ints inside the game, column-major (`sq = col * rows + row`), so that their
order is the order of their ids "a1", "a2", ... "f7" (column letter a.., row number from 1):
sorting ints sorts ids, on both VMs.
"""

from cheesefw import table_fields

PASS = 1  # the moving piece may step through this square
STOP = 2  # the moving piece may end its move on this square
SHOWN = "shown"  # the tile left on a square where the cat turned over a cheese


class Board:
    """The static kitchen from the rule table: grid, ids, neighbours, table, mouse holes."""

    def __init__(self, rules):
        grid = field(rules, "grid", dict)
        cols = _int_in(grid, "cols", 2, 26, "grid.")
        rows = _int_in(grid, "rows", 2, 9, "grid.")  # one-digit rows keep ids sortable
        n = cols * rows
        self.rows = rows
        self.n = n
        self.ids = [chr(97 + c) + str(r + 1) for c in range(cols) for r in range(rows)]
        self.nbrs = [_neighbours(sq, cols, rows) for sq in range(n)]
        self.open = bytes([PASS | STOP]) * n  # template: every square free to pass and stop
        self.table = bytearray(n)
        for sid in field(rules, "table", list):
            self.table[self.square(sid, "table")] = 1
        holes = [self.square(sid, "holes") for sid in field(rules, "holes", list)]
        if len(holes) != 4 or len(set(holes)) != 4:
            raise ValueError("kitchen rules: holes expected 4 distinct squares, got %r" % (holes,))
        for h in holes:
            if len(self.nbrs[h]) == 4 or self.table[h]:
                raise ValueError(
                    "kitchen rules: holes expected edge squares off the table, got " + self.ids[h]
                )
        self.holes = holes  # mouse m starts in holes[m]
        # The squares "in front of" each hole: the cat may not stop there while its mouse is in.
        self.fronts = [self.nbrs[h] for h in holes]
        # The squares dealt a tile, in square order: all but the holes (under the table too).
        self.floor = [sq for sq in range(n) if sq not in holes]

    def square(self, sid, what="square"):
        """The int of square id `sid`; ValueError for anything else."""
        if type(sid) is str and len(sid) == 2:
            sq = (ord(sid[0]) - 97) * self.rows + ord(sid[1]) - 49
            if 0 <= sq < self.n and self.ids[sq] == sid:
                return sq
        raise ValueError(
            "kitchen: %s expected a square id a1..%s, got %r" % (what, self.ids[-1], sid)
        )


def access(s, m):
    """Per square of game state `s`: may mouse m (the cat: m = -1) PASS through it, STOP on it?"""
    b = s.board
    acc = bytearray(b.open)
    if m < 0:
        house = s.rules["house"]
        for sq in s.mice:
            if sq >= 0 and not b.table[sq]:
                acc[sq] = STOP  # "niet over een andere speler springen": go round, or catch it
        for h in b.holes:
            # The holes are the mice's refuge: the cat never goes into one. House rule
            # cat_in_holes (the text forbids holes only to the arrow): through and onto an
            # empty hole, never onto a mouse hiding in one.
            if not house.get("cat_in_holes") or h in s.mice:
                acc[h] = 0
        for sq in range(b.n):
            if s.tiles[sq] == SHOWN:
                acc[sq] = 0  # "de kat mag niet meer over zichtbare stukken kaas lopen"
        catch = house.get("catch_in_front_of_hole")
        for k in range(4):
            if not s.out[k]:
                for sq in b.fronts[k]:
                    if not (catch and acc[sq] == STOP and sq in s.mice):
                        acc[sq] &= PASS  # "mag de kat niet voor het hol gaan staan"
    else:
        for k in range(4):
            if k != m and s.mice[k] >= 0:
                acc[s.mice[k]] = 0  # no jumping over a mouse; "in een hol past maar 1 muis"
        if s.cat >= 0 and not b.table[s.cat]:
            acc[s.cat] = 0  # go round the cat (on the table it is above the mice)
    return acc


def free_squares(s, m, here):
    """Arrow: every square mouse m (the cat: m = -1) on `here` may be put on, sorted."""
    b = s.board
    acc = access(s, m)
    squares = []
    for sq in range(b.n):
        if not acc[sq] & STOP or sq == here:
            continue  # for the cat this already rules out holes and visible cheese
        if m < 0 and (sq in s.mice or sq in b.holes):
            continue  # the cat: "niet op een muis ... of op een muizenhol" (nor above a mouse)
        if m >= 0 and (sq in b.holes or s.tiles[sq] == SHOWN):
            continue  # a mouse: "niet op een zichtbaar stuk kaas of in een hol"
        squares.append(sq)
    return squares


def destinations(board, start, steps, access, revisit):
    """The squares a piece on `start` reaches in exactly `steps` orthogonal steps, sorted.

    `access[sq]` says what the piece may do on sq (PASS through it, STOP on it). A path never
    comes back to `start`; unless `revisit`, it never visits any square twice either.
    """
    if revisit:
        # Only the start is barred: where a piece can be after each step is all that counts,
        # so the squares are found a step at a time (no path is followed twice).
        layer = [start]
        for left in range(steps, 0, -1):
            need = STOP if left == 1 else PASS
            seen = bytearray(board.n)
            for sq in layer:
                for nb in board.nbrs[sq]:
                    if nb != start and access[nb] & need:
                        seen[nb] = 1
            layer = [sq for sq in range(board.n) if seen[sq]]
        return layer
    found = bytearray(board.n)
    _walk(board.nbrs, [start], steps, access, False, found)
    return [sq for sq in range(board.n) if found[sq]]


def check_rules(rules, board, kinds):
    """Raise ValueError naming the field when the rule table cannot be played."""
    field(rules, "version", int)
    deck = field(rules, "deck", dict)
    total = 0
    for kind in deck:
        if kind not in kinds:
            raise ValueError("kitchen rules: deck expected kinds %s, got %r" % (kinds, kind))
        total += _int_in(deck, kind, 0, board.n, "deck.")
    if total != len(board.floor):
        want = len(board.floor)
        raise ValueError(
            "kitchen rules: deck expected %d tiles (one a square), got %d" % (want, total)
        )
    dice = field(rules, "dice", dict)
    for colour in ("grey", "blue"):
        faces = field(dice, colour, list)
        if not faces or [f for f in faces if type(f) is not int or not 1 <= f <= 6]:
            raise ValueError("kitchen rules: dice.%s expected faces 1..6, got %r" % (colour, faces))
    win = field(rules, "win", dict)
    for key in ("cheese", "short_cheese"):
        _int_in(win, key, 1, deck.get("cheese", 0), "win.")
    _int_in(win, "turn_limit", 1, 10000, "win.")
    for key in ("all_out", "one_home"):
        field(win, key, bool, "win.")
    house = field(rules, "house", dict)
    for key in ("catch_under_table", "arrow_turns_tile", "revisit"):
        field(house, key, bool, "house.")
    for key in ("cat_in_holes", "catch_in_front_of_hole"):  # newer: a table may lack them
        if key in house:
            field(house, key, bool, "house.")
    for kind, rgb in field(rules, "palette", dict).items():
        if type(rgb) is not list or len(rgb) != 3 or [c for c in rgb if type(c) is not int]:
            raise ValueError("kitchen rules: palette.%s expected [r, g, b], got %r" % (kind, rgb))


def choose_options(table, options):
    """The options of a game: `options` checked against `table` (the OPTIONS), defaults filled."""
    return table_fields.choose_options("kitchen", table, options)


def field(d, key, kind, where=""):
    """d[key], which must be of type `kind`; ValueError naming the field otherwise."""
    return table_fields.field("kitchen", d, key, kind, where)


def _int_in(d, key, low, high, where):
    value = field(d, key, int, where)
    if not low <= value <= high:
        raise ValueError(
            "kitchen rules: %s%s expected %d..%d, got %d" % (where, key, low, high, value)
        )
    return value


def _neighbours(sq, cols, rows):
    col, row = divmod(sq, rows)
    around = []
    if col > 0:
        around.append(sq - rows)
    if row > 0:
        around.append(sq - 1)
    if row < rows - 1:
        around.append(sq + 1)
    if col < cols - 1:
        around.append(sq + rows)
    return tuple(around)


def _walk(nbrs, path, left, access, revisit, found):
    # Depth-first over paths of at most 6 steps: `path` is the one list reused all the way down.
    start = path[0]
    for nb in nbrs[path[-1]]:
        if nb == start or (not revisit and nb in path):
            continue
        if left == 1:
            if access[nb] & STOP:
                found[nb] = 1
        elif access[nb] & PASS:
            path.append(nb)
            _walk(nbrs, path, left - 1, access, revisit, found)
            path.pop()
