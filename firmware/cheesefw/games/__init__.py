"""Game modules: pure rules, one module per game (see docs/game-contract.md).

The constants below are what `State.current_player()` returns when no single
player is to act. They are shared so that the engine needs no game-specific code.
"""

CHANCE = -1  # the die (or a shuffle) decides: pick one of chance_outcomes()
TERMINAL = -2  # the game is over
REACTION = -3  # any player may act (e.g. play a power); PASS closes the window

PASS = "pass"  # the action that closes a REACTION window with nothing played

GAMES = ("gouda", "kitchen")


def load(name):
    """Import and return the game module called `name` (one of GAMES)."""
    if name not in GAMES:
        raise ValueError("unknown game: expected one of %s, got %r" % (GAMES, name))
    module = __import__("cheesefw.games." + name, None, None, ["State"])
    return module


def as_action(value):
    """Turn an action read back from JSON (lists) into the game's form (tuples)."""
    if isinstance(value, list):
        return tuple(as_action(v) for v in value)
    return value
