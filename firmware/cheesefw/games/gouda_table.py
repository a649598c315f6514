"""The Gouda race's rule table read into a Board, and a game's options checked against it.

Rulebook: shared/seeds/001_034f658690eb2b22.txt; interpretations: docs/rules.md. This runs
only when a game is set up (gouda.State) or a table checked (gouda.check_table): the board lets
go of its code as soon as it has run, so that play keeps only the Board (gouda_powers.py).
"""

from cheesefw.games.gouda_powers import COLOURS, MAX_PLAYERS, NT, POWERS, Board
from cheesefw.table_fields import choose_options


def read_board(rules):
    """A new Board from a parsed rule table; ValueError naming the field when it is bad."""
    try:
        return _read_board(rules)
    except (TypeError, KeyError, IndexError, AttributeError) as e:
        # A shape the checks below did not foresee: still a clear refusal, never a crash.
        raise ValueError("rules: malformed table (%s: %s)" % (type(e).__name__, e)) from None


def _read_board(rules):
    b = Board()
    if type(rules) is not dict:
        raise ValueError(f"rules: expected a dict, got {type(rules)!r}")
    # A space is [id, name, "ids up", "ids down", x, y]: positional, and the links as
    # space-separated ids, because a board parses this table in a small heap.
    spaces = _field(rules, "spaces", list)
    ids = []
    for e in spaces:
        ok = type(e) is list and len(e) == 6 and type(e[0]) is str and e[0] not in ids
        ok = ok and type(e[1]) is str and type(e[2]) is str and type(e[3]) is str
        if not ok or type(e[4]) is not int or type(e[5]) is not int:
            raise ValueError(f"rules.spaces: expected [id, name, up, down, x, y], got {e!r}")
        ids.append(e[0])
    b.ids = ids = tuple(sorted(ids))
    b.S = S = len(ids)
    if S > 30:
        raise ValueError(f"rules.spaces: expected at most 30 spaces, got {S}")
    up = [0] * S
    dn = [0] * S
    for e in spaces:
        i = ids.index(e[0])
        up[i] = _links(e[2], e[0] + ".up", ids, i)
        dn[i] = _links(e[3], e[0] + ".down", ids, i)
    # Links as bitmasks (bit d set: space d), small ints that cost no allocation:
    b.up = tuple(up)  # up[s]: where a green may take a mouse from s
    b.dn = tuple(dn)  # dn[s]: where a red may take it; 0 on the start spaces
    b.top = _id(rules.get("top"), "top", ids)
    b.start = bytes(sorted(_id(x, "start", ids) for x in _field(rules, "start", list)))
    if not b.start or b.top in b.start:
        got = rules["start"]
        raise ValueError(f"rules.start: expected spaces other than the top, got {got!r}")
    for i in range(S):
        if (i == b.top) == (up[i] != 0):  # the top alone has no way up
            want = "no space above" if i == b.top else "a space above"
            raise ValueError(f"rules.spaces.{ids[i]}.up: expected {want}")
    for s in b.start:  # a race that cannot end is refused: the top, from every start
        seen = reach = 1 << s
        while reach and not seen >> b.top & 1:
            ahead = 0
            for i in range(S):
                if reach >> i & 1:
                    ahead |= up[i]
            reach = ahead & ~seen
            seen |= ahead
        if not seen >> b.top & 1:
            raise ValueError(f"rules.start.{ids[s]}: expected a way up to {ids[b.top]}")
    for x in _field(rules, "lat", list):
        _id(x, "lat", ids)
    dice = _field(rules, "dice", dict)
    b.ndice = _field(dice, "n", int, "dice.n", 1, 5)
    faces = _field(dice, "faces", list, "dice.faces")
    b.faces = faces = bytes(faces.count(c) for c in COLOURS)
    nf = sum(faces)
    if not nf or nf != len(dice["faces"]):
        got = dice["faces"]
        raise ValueError(f"rules.dice.faces: expected colours of {COLOURS!r}, got {got!r}")
    # The chance outcomes of a die, sorted by name, with the faces' probabilities.
    b.roll = tuple(sorted((COLOURS[i], faces[i] / nf) for i in range(3) if faces[i]))
    pl = _field(rules, "players", list)
    if len(pl) != 2 or type(pl[0]) is not int or type(pl[1]) is not int:
        raise ValueError(f"rules.players: expected [min, max], got {pl!r}")
    if not 1 <= pl[0] <= pl[1] <= MAX_PLAYERS:
        raise ValueError(f"rules.players: expected 1 <= min <= max <= 6, got {pl!r}")
    b.players = (pl[0], pl[1])
    b.mice_each = _field(rules, "mice_per_player", int, None, 1, 50)
    powers = _field(rules, "powers", dict)
    types = _field(powers, "types", list, "powers.types")
    if sorted(types) != list(POWERS):
        raise ValueError(f"rules.powers.types: expected {POWERS!r}, got {types!r}")
    b.each = _field(powers, "each", int, "powers.each", 0, 40)
    variants = _field(rules, "variants", dict)
    fest = _field(variants, "festival", dict, "variants.festival")
    b.feast = _field(fest, "cheese", int, "variants.festival.cheese", 1, 40)
    extra = _field(variants, "extra_cheese", dict, "variants.extra_cheese")
    pairs = []
    for x in extra:
        v = _field(extra, x, int, "variants.extra_cheese." + str(x), 1, 50)
        pairs.append((_id(x, "variants.extra_cheese", ids), v))
    b.extra = tuple(sorted(pairs))  # (space, value) of the designer's cheeses
    b.extra_top = extra.get(ids[b.top], 1)  # what a table cheese is worth with them
    most = b.feast * b.extra_top + sum(v for s, v in pairs if s != b.top)
    if most > 255:  # scores are kept in bytes
        raise ValueError(f"rules.variants: expected at most 255 points in all, got {most}")
    _field(rules, "palette", dict)
    signs = rules.get("signs", {})  # the powers' signs on the die pixels (optional)
    if type(signs) is not dict:
        raise ValueError(f"rules.signs: expected a dict, got {signs!r}")
    for key in signs:
        pattern = signs[key]
        if type(pattern) is not str or not 0 < len(pattern) <= 8 or pattern.strip("01"):
            got = repr(pattern)
            raise ValueError(f"rules.signs.{key}: expected 1 to 8 of 0 and 1, got {got}")
    # The action codes (see the class docstring).
    b.c_col = 1
    b.c_deal = b.c_col + 3
    b.c_go = b.c_deal + NT
    b.c_move = b.c_go + S
    b.c_place = b.c_move + MAX_PLAYERS * S
    b.c_play = b.c_place + S
    b.c_space = b.c_play + MAX_PLAYERS * NT
    b.c_dice = b.c_space + S
    b.c_undo = b.c_dice + 216
    assert b.c_undo < 65280  # the history stores big codes in two bytes
    return b


def read_options(choices, options, b):
    """The options chosen from `choices` (OPTIONS; defaults filled in) that Board b can play;
    ValueError on a bad key or value."""
    o = choose_options("gouda", choices, options)
    n = o["players"]
    lo, hi = b.players
    if not lo <= n <= hi:
        raise ValueError(f"option players: expected {lo}..{hi}, got {n!r}")
    m = o["markers"]
    if o["powers"] and m != "series" and n * m > NT * b.each:
        most = NT * b.each // n
        raise ValueError(f"option markers: expected at most {most} per player, got {m!r}")
    return o


def _field(d, key, kind, name=None, low=None, high=None):
    """d[key], checked to be of type kind (and within low..high for an int). (Its arguments
    are named as table_fields's, loaded beside it: one name each on the board.)"""
    v = d.get(key)
    if type(v) is not kind or (low is not None and not low <= v <= high):
        want = kind.__name__ if low is None else f"an int {low}..{high}"
        raise ValueError(f"rules.{name or key}: expected {want}, got {v!r}")
    return v


def _id(v, name, ids):
    """The index of space id v, read from rules.<name>."""
    if type(v) is not str or v not in ids:
        raise ValueError(f"rules.{name}: expected a space id, got {v!r}")
    return ids.index(v)


def _links(v, where, ids, i):
    """The space ids listed in v (space-separated) as a bitmask; never space i itself."""
    mask = 0
    for x in v.split():
        d = ids.index(x) if x in ids else i  # (an unknown id is refused as space i would be)
        if d == i or mask >> d & 1:
            raise ValueError(f"rules.spaces.{where}: expected other space ids, got {x!r}")
        mask |= 1 << d
    return mask
