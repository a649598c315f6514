"""Game modules: pure rules, one module per game (see docs/game-contract.md).

The constants below are what `State.current_player()` returns when no single
player is to act. They are shared so that the engine needs no game-specific code.
"""

CHANCE = -1  # the die (or a shuffle) decides: pick one of chance_outcomes()
TERMINAL = -2  # the game is over
REACTION = -3  # any player may act (e.g. play a power); PASS closes the window

PASS = "pass"  # the action that closes a REACTION window with nothing played

GAMES = ("gouda", "kitchen", "kalle", "katz", "gatenkaas")


def load(name):
    """Import and return the game module called `name` (one of GAMES)."""
    if name not in GAMES:
        raise ValueError("unknown game: expected one of %s, got %r" % (GAMES, name))
    module = __import__("cheesefw.games." + name, None, None, ["State"])
    return module


def decide(thinking):
    """A board player's thinking (a `<game>_bot.think` generator) run to its end: the action
    it returns. The engine steps the same generator a slice per tick instead. (Any generator
    made to be stepped so, run to its end: what it returns.)"""
    try:
        while True:
            next(thinking)
    except StopIteration as done:
        return done.value


def as_action(value):
    """Turn an action read back from JSON (lists) into the game's form (tuples)."""
    if isinstance(value, list):
        return tuple(as_action(v) for v in value)
    return value


class History:
    """The actions and chance outcomes applied so far, read from a state's compact log.

    It behaves as the list the contract names -- len(), indexing, slices (as lists), iteration,
    == with a list -- but decodes only what is asked: len() and a page of the log cost no heap on
    the board, where the decoded list of a long game would not fit in 64 KB. list(history) makes
    a real list (for json.dumps, say).
    """

    def __init__(self, count, codes, decode):
        self._count = count  # () -> how many actions
        self._codes = codes  # () -> an iterator over their codes
        self._decode = decode  # code -> action

    def __len__(self):
        return self._count()

    def __iter__(self):
        decode = self._decode
        for c in self._codes():
            yield decode(c)

    def __getitem__(self, key):
        n = len(self)
        if type(key) is int:
            if key < 0:
                key += n
            if not 0 <= key < n:
                raise IndexError("history index out of range")
            start, stop = key, key + 1
        else:
            try:
                start, stop, step = key.start, key.stop, key.step
            except AttributeError:  # a port without slice attributes
                return list(self)[key]
            if step not in (None, 1):
                return list(self)[key]
            start = 0 if start is None else max(0, start + n if start < 0 else start)
            stop = n if stop is None else min(n, stop + n if stop < 0 else stop)
        out = []
        decode = self._decode
        j = 0
        for c in self._codes():
            if j >= stop:
                break
            if j >= start:
                out.append(decode(c))
            j += 1
        return out[0] if type(key) is int else out

    def __eq__(self, other):
        return isinstance(other, (list, tuple, History)) and same_items(self, other)

    def __repr__(self):
        return repr(list(self))


def same_items(ours, theirs):
    """Whether two sequences hold equal items in the same order, read one by one: a History or a
    hand's Codes compares with a list without making a list of itself."""
    if len(theirs) != len(ours):
        return False
    theirs = iter(theirs)
    for a in ours:
        if a != next(theirs):
            return False
    return True
