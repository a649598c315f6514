"""The static part of Kalle Kanalratte (kalle.py): the grid of gully cards from the rule table,
its card ids and neighbours, and the checks of the table and the options.

Cards are small ints inside the game, column-major (`sq = col * rows + row`), so that their order
is the order of their ids "a1", "a2", ... "d4" (column letter, row number from 1): sorting ints
sorts ids, on both VMs. Two cards are adjacent when one of the table's grid steps (or its reverse)
leads from one to the other: the rulebook's "horizontally, vertically or diagonally".
"""

from cheesefw import const, table_fields

_MAX_SIDE = const(6)  # one-digit rows keep ids sortable; 36 cards keep an action in one byte
_ROUNDS_MAX = const(3)  # times each player may be the starter (the rulebook: 2 or 1)
PLAYERS = ("2", "3", "4", "5")

# The actions and phases of a game (kalle.py), here so that the board's players (kalle_bot.py)
# read them without importing the game.
KEEP = "keep"  # the starter swaps nothing ("can swap": a swap is allowed, not required)
NEXT = "next"  # the round's result has been seen: on to the next round

# The phases, in the order they come.
DEAL = "deal"  # chance: the animal for the next card, face down
HIDE = "hide"  # the starter swaps the rat with one card (secret)
PLACE = "place"  # the searcher on the starter's right places the guard
SEARCH = "search"  # a searcher moves the guard one card and turns it
SWAP = "swap"  # the starter swaps two adjacent cards, or keeps
LAST = "last"  # last-chance variant: the searchers in turn name a card each
GUESS = "guess"  # the starter turns the card they believe hides the rat
SHOW = "show"  # the round is over; its result on show until NEXT
OVER = "over"


class Grid:
    """The square of gully cards: ids, neighbours and the adjacent pairs a swap may take."""

    def __init__(self, rules):
        grid = field(rules, "grid", dict)
        cols = int_in(grid, "cols", 2, _MAX_SIDE, "grid.")
        rows = int_in(grid, "rows", 2, _MAX_SIDE, "grid.")
        self.rows = rows
        self.n = n = cols * rows
        self.ids = [chr(97 + c) + str(r + 1) for c in range(cols) for r in range(rows)]
        steps = field(grid, "steps", list, "grid.")
        for step in steps:
            if type(step) is not list or len(step) != 2 or [d for d in step if type(d) is not int]:
                raise ValueError("kalle rules: grid.steps expected [dcol, drow] pairs, got %r"
                                 % (step,))
        nbrs = []
        for sq in range(n):
            col, row = divmod(sq, rows)
            around = []
            for dc, dr in steps:
                for sign in (1, -1):
                    c, r = col + sign * dc, row + sign * dr
                    if (dc or dr) and 0 <= c < cols and 0 <= r < rows:
                        around.append(c * rows + r)
            nbrs.append(tuple(sorted(set(around))))
        self.nbrs = nbrs
        # The swaps' pairs, (a, b) with a < b, sorted: their index is their code in the history.
        self.pairs = [(a, b) for a in range(n) for b in nbrs[a] if a < b]
        if not _connected(nbrs):
            raise ValueError("kalle rules: grid.steps expected a connected grid "
                             "(every card reachable from every other), got %r" % (steps,))

    def square(self, sid, what="card"):
        """The int of card id `sid`; ValueError for anything else."""
        if type(sid) is str and len(sid) == 2:
            sq = (ord(sid[0]) - 97) * self.rows + ord(sid[1]) - 49
            if 0 <= sq < self.n and self.ids[sq] == sid:
                return sq
        raise ValueError("kalle: %s expected a card id a1..%s, got %r" % (what, self.ids[-1], sid))


def check_rules(rules, grid):
    """Raise ValueError naming the field when the rule table cannot be played."""
    field(rules, "version", int)
    cards = field(rules, "cards", dict)
    rat = field(cards, "rat", str, "cards.")
    animals = field(cards, "animals", list, "cards.")
    if len(animals) != grid.n:
        raise ValueError("kalle rules: cards.animals expected %d animals (one a card of the grid; "
                         "with the rat, %d cards), got %d" % (grid.n, grid.n + 1, len(animals)))
    names = [rat] + animals
    for name in names:
        if type(name) is not str or not name or names.count(name) > 1:
            raise ValueError("kalle rules: cards.animals expected distinct names (and not the "
                             "rat's), got %r" % (name,))
    rounds = field(rules, "rounds", dict)
    for key in PLAYERS:
        int_in(rounds, key, 1, _ROUNDS_MAX, "rounds.")
    for key in rounds:
        if key not in PLAYERS:
            raise ValueError("kalle rules: rounds expected player counts %s, got %r"
                             % (PLAYERS, key))
    uncover = int_in(rules, "uncover", 1, grid.n - 1, "")
    # The last chance needs a face-down card for every searcher and then one for the starter.
    if grid.n - uncover < int(PLAYERS[-1]):
        raise ValueError("kalle rules: uncover expected at most %d (a face-down card for each of "
                         "5 players' guesses), got %d" % (grid.n - int(PLAYERS[-1]), uncover))
    int_in(rules, "search_limit", uncover, 1000, "")
    house = field(rules, "house", dict)
    for key in ("must_swap", "last_chance"):
        field(house, key, bool, "house.")
    palette = field(rules, "palette", dict)
    for kind in palette:
        rgb = palette[kind]
        if type(rgb) is not list or len(rgb) != 3 or [c for c in rgb if type(c) is not int]:
            raise ValueError("kalle rules: palette.%s expected [r, g, b], got %r" % (kind, rgb))
    for kind in names + ["lid", "guard"]:
        if kind not in palette:
            raise ValueError("kalle rules: palette.%s expected [r, g, b] (a card must show), "
                             "got nothing" % kind)
    return names


# The table's fields, each refusal naming the game.
field, int_in = table_fields.for_game("kalle")


def _connected(nbrs):
    seen = bytearray(len(nbrs))
    seen[0] = 1
    todo = [0]
    while todo:
        for nb in nbrs[todo.pop()]:
            if not seen[nb]:
                seen[nb] = 1
                todo.append(nb)
    return all(seen)
