"""The kitchen game's rule table read into a Board (kitchen_moves.py), and a game's options.

Rulebook: shared/seeds/004_4a20ab2640828fd3.txt; interpretations: docs/rules.md. This runs only
when a game is set up (kitchen.State) or a table checked (kitchen.check_table): the board lets go
of its code once it has run, so that play keeps only the Board.
"""

from cheesefw import table_fields
from cheesefw.games.kitchen_moves import EDGE, PASS, STOP, Board, square_ids


def read_board(rules, kinds):
    """The Board of a rule table whose tiles are of kinds, checked as play reads it
    (ValueError naming the field)."""
    try:
        board = _read_board(rules)
        check_rules(rules, board, kinds)
    except (TypeError, KeyError, IndexError, AttributeError) as e:
        # A shape the checks did not foresee: still a clear refusal, never a crash.
        raise ValueError(
            "kitchen rules: malformed table (%s: %s)" % (type(e).__name__, e)
        ) from None
    return board


def _read_board(rules):
    board = Board()
    grid = field(rules, "grid", dict)
    cols = int_in(grid, "cols", 2, 26, "grid.")
    rows = int_in(grid, "rows", 2, 9, "grid.")  # one-digit rows keep ids sortable
    n = cols * rows
    board.rows = rows
    board.n = n
    board.ids = square_ids(rows, n)
    board.nbrs = bytes(nb for sq in range(n) for nb in _neighbours(sq, cols, rows))
    board.open = bytes([PASS | STOP]) * n  # template: every square free to pass and stop
    board.table = bytearray(n)
    for sid in field(rules, "table", list):
        board.table[board.square(sid, "table")] = 1
    holes = [board.square(sid, "holes") for sid in field(rules, "holes", list)]
    if len(holes) != 4 or len(set(holes)) != 4:
        raise ValueError("kitchen rules: holes expected 4 distinct squares, got %r" % (holes,))
    for h in holes:
        if len(board.around(h)) == 4 or board.table[h]:
            raise ValueError(
                "kitchen rules: holes expected edge squares off the table, got " + board.ids[h]
            )
    board.holes = holes  # mouse m starts in holes[m]
    # The squares "in front of" each hole: the cat may not stop there while its mouse is in.
    board.fronts = [board.around(h) for h in holes]
    # The squares dealt a tile, in square order: all but the holes (under the table too).
    board.floor = [sq for sq in range(n) if sq not in holes]
    return board


def check_rules(rules, board, kinds):
    """Raise ValueError naming the field when the rule table cannot be played."""
    field(rules, "version", int)
    deck = field(rules, "deck", dict)
    total = 0
    for kind in deck:
        if kind not in kinds:
            raise ValueError("kitchen rules: deck expected kinds %s, got %r" % (kinds, kind))
        total += int_in(deck, kind, 0, board.n, "deck.")
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
        int_in(win, key, 1, deck.get("cheese", 0), "win.")
    int_in(win, "turn_limit", 1, 10000, "win.")
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


# The table's fields, each refusal naming the game (named as table_fields names them, and as
# kalle_table does: one name each on the board).
field, int_in = table_fields.for_game("kitchen")


def _neighbours(sq, cols, rows):
    """The squares left of, above, below and right of sq that are on the grid, then EDGE up to
    four (Board.nbrs)."""
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
    return around + [EDGE] * (4 - len(around))
