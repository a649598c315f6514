"""A journal the board cannot read, kept: never thrown away, never in the way of the next game.

Imported only when a journal is set aside, so that its code and its messages' names are in
no heap of a board whose journal is whole.
"""


def set_aside(board, name, why, copy=None):
    """Move the journal name, whole, to name.bad (or copy(name.bad) it there: a journal kept
    outside the filesystem), and why to name.why (said on the console too). why: the number
    of a whole line that is no move, the exception its replay raised, or None (its first line
    names no game)."""
    if why is None:
        why = "its first line names no game"
    elif type(why) is int:
        why = ("line %d is no move (too long, nested too deep, or not JSON); the moves "
               "before it resumed" % why)
    else:
        why = "not resumed: %s: %s" % (type(why).__name__, why)
    if copy is None:
        board.rename(name, name + ".bad")
    else:
        copy(name + ".bad")
    print("%s set aside as %s.bad: %s" % (name, name, why))
    board.write_file(name + ".why", why.encode())
