"""A new firmware's first boot (its trial): every game module imported and every rule table
read once, so that a module that does not import, or a table that does not pass, shows now
rather than when its game is chosen. Imported only then (cheesefw.startup), and let go after.
Each step says so on the console: a host watching the trial hears that the board is at it."""

import gc

from cheesefw.modules import forget


def import_every_game(feed=None):
    """Import each game module once, and let it go (feed() keeps the trial's watchdog fed)."""
    from cheesefw.games import GAMES

    for name in GAMES:
        __import__("cheesefw.games." + name)
        forget("cheesefw.games.")
        gc.collect()
        print("trial: %s imported" % name)
        if feed:
            feed()


def check_every_table(board, feed=None):
    """Read the rule table of every game the board shows as a game start reads it, so that
    each one that passes has its stamp now (cheesefw.checked), not at its first game. One that
    does not is said on the console and checked again then."""
    from cheesefw.engine.core import load_rules
    from cheesefw.games import GAMES

    for name in GAMES:
        if name in board.profile["maps"]:
            try:
                load_rules(board, name)
            except (ValueError, MemoryError) as e:
                print("%s: no table stamped: %s" % (name, e))
        gc.collect()
        print("trial: %s table read" % name)
        if feed:
            feed()
