"""Pure helpers of the kitchen game (kitchen.py): the board, its square ids, and where a piece
may go (access, the arrow's squares, the path search). kitchen_table.py reads the rule table.

Squares are small ints inside the game, column-major (`sq = col * rows + row`), so that their
order is the order of their ids "a1", "a2", ... "f7" (column letter a.., row number from 1):
sorting ints sorts ids, on both VMs.
"""

PASS = 1  # the moving piece may step through this square
STOP = 2  # the moving piece may end its move on this square
SHOWN = "shown"  # the tile left on a square where the cat turned over a cheese
EDGE = 255  # in Board.nbrs: no square there, the grid ends

# The cat's side (the mice are side 0), the dice, and the phase and action of the game
# (kitchen.py, which keeps its other phases) that the board's players (kitchen_bot.py) read,
# here so that they read them without importing the game.
CAT = 1
DIE = ("grey", "blue")  # "de muizen spelen met de grijze dobbelsteen en de kat met de blauwe"
STAY = "stay"  # the only action when the piece(s) to move cannot move at all
PICK = "pick"  # the mice choose which mouse moves (action: the square it stands on)


class Board:
    """The static kitchen from the rule table (kitchen_table.read_board fills it): grid, ids,
    neighbours, table, mouse holes. A grid is small arithmetic, and kept as such: `nbrs` holds
    four bytes a square (the squares left, above, below and right of it, then EDGE), not a list
    of tuples; `ids` is a tuple of the squares' ids."""

    def around(self, sq):
        """The squares next to sq, orthogonally (a tuple)."""
        i = 4 * sq
        return tuple(nb for nb in self.nbrs[i:i + 4] if nb != EDGE)

    def square(self, sid, what="square"):
        """The int of square id `sid`; ValueError for anything else."""
        if type(sid) is str and len(sid) == 2:
            col, row = ord(sid[0]) - 97, ord(sid[1]) - 49  # (rows are one digit: 2..9)
            sq = col * self.rows + row
            if col >= 0 and 0 <= row < self.rows and sq < self.n:
                return sq
        raise ValueError(
            "kitchen: %s expected a square id a1..%s, got %r" % (what, self.ids[-1], sid)
        )


def square_ids(rows, n):
    """The square ids by square, "a1".."f7" (column letter, row number), made once: made when
    asked, they saved the board 1 KB of heap but cost 170-320 us each on a Pico (two builtin
    calls and a join), and a view, a move's name and the board's players ask for dozens."""
    return tuple(chr(97 + sq // rows) + chr(49 + sq % rows) for sq in range(n))


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


def search(board, start, steps, access, revisit, first=False):
    """The squares a piece on `start` reaches in exactly `steps` orthogonal steps, sorted
    (first: only the first one found, whether it can move at all, which a pick asks of every
    mouse: the whole search took a Pico 2 ms a mouse).

    `access[sq]` says what the piece may do on sq (PASS through it, STOP on it). A path never
    comes back to `start`; unless `revisit`, it never visits any square twice either.

    A generator, for the board's player to step a slice of a tick at a time (games.decide runs
    it to its end): it yields after each way of the first two steps (a 6-step search from the
    open floor follows up to 972 paths, 16 ms of a Pico in one go), or each step when
    `revisit`.
    """
    if revisit:
        # Only the start is barred: where a piece can be after each step is all that counts,
        # so the squares are found a step at a time (no path is followed twice).
        layer = [start]
        for left in range(steps, 0, -1):
            yield
            need = STOP if left == 1 else PASS
            seen = bytearray(board.n)
            for sq in layer:
                for k in range(4 * sq, 4 * sq + 4):  # the neighbours, read in place
                    nb = board.nbrs[k]
                    if nb == EDGE:
                        break
                    if nb != start and access[nb] & need:
                        if first and left == 1:
                            return [nb]
                        seen[nb] = 1
            layer = [sq for sq in range(board.n) if seen[sq]]
        return layer
    found = bytearray(board.n)
    nbrs = board.nbrs
    path = [start]
    if steps <= 2:
        _walk(nbrs, path, steps, access, found, first)
    else:  # the paths, a way of their first two steps at a time (each through a PASS square)
        for way in nbrs[4 * start:4 * start + 4]:
            if way == EDGE or not access[way] & PASS:
                continue
            path.append(way)
            for on in nbrs[4 * way:4 * way + 4]:
                if on == EDGE or on == start or not access[on] & PASS:
                    continue  # (a square is no neighbour of its own: `way` is not here)
                yield
                path.append(on)
                if _walk(nbrs, path, steps - 2, access, found, first):
                    return [sq for sq in range(board.n) if found[sq]]
                path.pop()
            path.pop()
    return [sq for sq in range(board.n) if found[sq]]


def _walk(nbrs, path, left, access, found, first):
    # Depth-first over paths of at most 6 steps: `path` is the one list reused all the way down,
    # and the neighbours are read from nbrs in place (a board's bot walks thousands of paths).
    # True when `first` and a square was found: the walk ends there.
    i = 4 * path[-1]
    for k in range(i, i + 4):
        nb = nbrs[k]
        if nb == EDGE:
            break
        if nb in path:  # (the start among them: a path never comes back to it)
            continue
        if left == 1:
            if access[nb] & STOP:
                found[nb] = 1
                if first:
                    return True
        elif access[nb] & PASS:
            path.append(nb)
            if _walk(nbrs, path, left - 1, access, found, first):
                return True
            path.pop()
    return False
