"""The rule table of Alles für die Katz (katz.py), read and checked as play needs it.

The track is the table's "spaces", in order: the pantry (where every mouse starts), the fields
from the first one (the arrow at the pantry's exit) on, each a yellow field or an empty can (a
trap), then the mouse hole. Inside the game a place is a small int, its position on the track:
0 the pantry, 1..n the fields, n + 1 the hole.
"""

from cheesefw import const

PANTRY = "pantry"
FIELD = "field"
TRAP = "trap"
HOLE = "hole"
CLOVER = "clover"  # the die's joker face
KINDS = (PANTRY, FIELD, TRAP, HOLE)
_MAX_FIELDS = const(39)  # a move (place, steps) is one history byte: place * 6 + steps - 1 < 240
_MAX_STEPS = const(6)
_MAX_PLAYERS = const(6)  # the seats a board has
_MAX_MICE = const(8)
KEYS = ("version", "game", "spaces", "first", "dice", "mice_per_player", "players", "palette")


class Track:
    """The static game from a rule table: places, traps, the die, mice and players."""

    def __init__(self, rules):
        if not isinstance(rules, dict):
            raise ValueError("katz rules: the table expected an object, got %r" % (rules,))
        _known(rules, KEYS, "")
        field(rules, "version", int)
        if rules.get("game") != "katz":
            raise ValueError("katz rules: game expected 'katz', got %r" % (rules.get("game"),))
        spaces = field(rules, "spaces", list)
        ids = []
        kinds = []
        for i in range(len(spaces)):
            entry = spaces[i]
            if (type(entry) is not list or len(entry) != 2 or type(entry[0]) is not str
                    or not entry[0] or entry[1] not in KINDS):
                raise ValueError("katz rules: spaces[%d] expected [id, one of %s], got %r"
                                 % (i, "/".join(KINDS), entry))
            if entry[0] in ids:
                raise ValueError("katz rules: spaces[%d] expected a new id, got %r again"
                                 % (i, entry[0]))
            ids.append(entry[0])
            kinds.append(entry[1])
        if not kinds or kinds[0] != PANTRY or kinds.count(PANTRY) != 1:
            raise ValueError("katz rules: spaces expected the pantry first and only there, got %r"
                             % (kinds[:1],))
        if kinds[-1] != HOLE or kinds.count(HOLE) != 1:
            raise ValueError("katz rules: spaces expected the mouse hole last and only there, "
                             "got %r" % ("no hole" if HOLE not in kinds else kinds[-1],))
        n = len(ids) - 2
        if not 1 <= n <= _MAX_FIELDS:
            raise ValueError("katz rules: spaces expected 1..%d fields between pantry and hole, "
                             "got %d" % (_MAX_FIELDS, n))
        first = rules.get("first")
        if first != ids[1]:
            raise ValueError("katz rules: first expected the field after the pantry, %r, got %r"
                             % (ids[1], first))
        if kinds[1] == TRAP:
            raise ValueError("katz rules: first expected a yellow field, got the trap %s" % first)
        self.ids = ids  # by place: pantry, fields, hole
        self.n = n  # the fields; the hole is place n + 1
        self.trap = bytes(1 if k == TRAP else 0 for k in kinds)  # by place
        dice = field(rules, "dice", dict)
        _known(dice, ("faces", "clover"), "dice.")
        faces = field(dice, "faces", list, "dice.")
        bad = [f for f in faces if f != CLOVER and (type(f) is not int or not 1 <= f <= _MAX_STEPS)]
        if not faces or bad:
            raise ValueError("katz rules: dice.faces expected faces 1..%d or %r, got %r"
                             % (_MAX_STEPS, CLOVER, faces))
        clover = field(dice, "clover", list, "dice.")
        if (len(clover) != 2 or [c for c in clover if type(c) is not int]
                or not 1 <= clover[0] <= clover[1] <= _MAX_STEPS):
            raise ValueError("katz rules: dice.clover expected [fewest, most] steps within 1..%d, "
                             "got %r" % (_MAX_STEPS, clover))
        self.clover = (clover[0], clover[1])
        # The chance outcomes: the numbers ascending, then the clover; weighted by count.
        values = sorted(set(f for f in faces if f != CLOVER))
        if CLOVER in faces:
            values.append(CLOVER)
        self.outcomes = [(v, faces.count(v) / len(faces)) for v in values]
        self.mice = _int_in(rules, "mice_per_player", 1, _MAX_MICE)
        players = field(rules, "players", list)
        if (len(players) != 2 or [p for p in players if type(p) is not int]
                or not 1 <= players[0] <= players[1] <= _MAX_PLAYERS):
            raise ValueError("katz rules: players expected [fewest, most] within 1..%d, got %r"
                             % (_MAX_PLAYERS, players))
        self.players = (players[0], players[1])
        for kind, rgb in field(rules, "palette", dict).items():
            if type(rgb) is not list or len(rgb) != 3 or [c for c in rgb if type(c) is not int]:
                raise ValueError("katz rules: palette.%s expected [r, g, b], got %r" % (kind, rgb))

    def place(self, sid, what="space"):
        """The place of space id `sid` (not the hole: nothing moves from there)."""
        if type(sid) is str:
            for p in range(self.n + 1):
                if self.ids[p] == sid:
                    return p
        raise ValueError("katz: %s expected a space id from %s to %s, got %r"
                         % (what, self.ids[0], self.ids[self.n], sid))


def field(d, key, kind, where=""):
    """d[key], which must be of type `kind`; ValueError naming the field otherwise."""
    value = d.get(key) if isinstance(d, dict) else None
    if type(value) is not kind:
        raise ValueError("katz rules: %s%s expected %s, got %r"
                         % (where, key, kind.__name__, value))
    return value


def _known(d, keys, where):
    for key in sorted(d):
        if key not in keys:
            raise ValueError("katz rules: %s%s expected no such key (one of %s), got it"
                             % (where, key, ", ".join(keys)))


def _int_in(d, key, low, high):
    value = field(d, key, int)
    if not low <= value <= high:
        raise ValueError("katz rules: %s expected %d..%d, got %d" % (key, low, high, value))
    return value
