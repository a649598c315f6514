"""Helpers of the Gouda race (gouda.py): the power markers, the rule-table reader, action codes.

Rulebook: shared/seeds/001_034f658690eb2b22.txt; interpretations: docs/rules.md.
Split from gouda.py so that each file reads in one sitting:
  - the constants both files need (powers, phases, windows);
  - Board: the rule table read once and checked (ValueError naming the field), and the action
    codes -- every action is a small int inside, so legal lists are lists of ints, the history
    is one byte per action, and sorting codes sorts the actions;
  - Powers: optional rule 1, mixed into gouda.State;

How a power is played ("Each marker may be used ... during their own turn or during another
player's turn"):
  a roll ends, or a turn ends  ->  REACTION window: PASS, or ("play", player, power)
  the power's player makes its choice (which dice, which space) at a decision node
  the effect happens at once (re-rolled dice are the next chance node: the roller rolls
  them), then a new window opens in which
  anyone may react again -- with a Cancel, which undoes that last power.
"""

# The powers, sorted by name: a power's index is also its place in sorted action lists.
POWERS = ("cancel", "downgrade", "extra", "reroll", "transfer", "upgrade")
CANCEL = 0
DOWNGRADE = 1
EXTRA = 2
REROLL = 3
TRANSFER = 4
UPGRADE = 5
NT = 6  # power types: hand[p * NT + t] is how many markers of type t player p holds

COLOURS = ("green", "yellow", "red")  # die faces, best first; dice[i] counts COLOURS[i]
MAX_PLAYERS = 6  # the box holds six colours; the action codes are laid out for six

# The phases of a game, in the order they come.
DEAL = 0  # chance: the next marker of the deal (powers only)
PLACE = 1  # setup: the next player puts one mouse on a start space
GO = 2  # the roller designates a space
ROLL = 3  # chance: one die at a time
REACT = 4  # a reaction window: PASS or any player's power
CHOOSE = 5  # the power's player makes its choice
MOVE = 6  # the roller applies the results, greens first, then reds
OVER = 7

W_ROLL = 0  # the window after a roll, before any mouse moves
W_END = 1  # the window after the moves: Extra Turn time

NONE = 255  # no power / no space / not yet
OWN = 254  # an Extra Turn is pending and the roller designates the space


class Board:
    """The rule table, read once: spaces indexed in sorted-id order, dice, players, variants.

    Action codes, in this order: PASS 0; die colours; dealt powers; ("go", s); ("move", o, s);
    ("place", s); ("play", p, t); ("space", s); ("dice", g, y, r); ("undo",). Within a kind the
    codes follow the sorted order of the actions, PASS comes before the plays and the dice before
    "undo": so wherever kinds mix in a legal list, sorted codes are sorted actions.
    """

    def __init__(self, rules):
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
        self.ids = ids = tuple(sorted(ids))
        self.S = S = len(ids)
        if S > 30:
            raise ValueError(f"rules.spaces: expected at most 30 spaces, got {S}")
        up = [0] * S
        dn = [0] * S
        for e in spaces:
            i = ids.index(e[0])
            up[i] = _links(e[2], e[0] + ".up", ids, i)
            dn[i] = _links(e[3], e[0] + ".down", ids, i)
        # Links as bitmasks (bit d set: space d), small ints that cost no allocation:
        self.up = tuple(up)  # up[s]: where a green may take a mouse from s
        self.dn = tuple(dn)  # dn[s]: where a red may take it; 0 on the start spaces
        self.top = _id(rules.get("top"), "top", ids)
        self.start = bytes(sorted(_id(x, "start", ids) for x in _field(rules, "start", list)))
        if not self.start or self.top in self.start:
            got = rules["start"]
            raise ValueError(f"rules.start: expected spaces other than the top, got {got!r}")
        for i in range(S):
            if (i == self.top) == (up[i] != 0):  # the top alone has no way up
                want = "no space above" if i == self.top else "a space above"
                raise ValueError(f"rules.spaces.{ids[i]}.up: expected {want}")
        for s in self.start:  # a race that cannot end is refused: the top, from every start
            seen = reach = 1 << s
            while reach and not seen >> self.top & 1:
                ahead = 0
                for i in range(S):
                    if reach >> i & 1:
                        ahead |= up[i]
                reach = ahead & ~seen
                seen |= ahead
            if not seen >> self.top & 1:
                raise ValueError(f"rules.start.{ids[s]}: expected a way up to {ids[self.top]}")
        for x in _field(rules, "lat", list):
            _id(x, "lat", ids)
        dice = _field(rules, "dice", dict)
        self.ndice = _field(dice, "n", int, "dice.n", 1, 5)
        faces = _field(dice, "faces", list, "dice.faces")
        self.faces = faces = bytes(faces.count(c) for c in COLOURS)
        nf = sum(faces)
        if not nf or nf != len(dice["faces"]):
            got = dice["faces"]
            raise ValueError(f"rules.dice.faces: expected colours of {COLOURS!r}, got {got!r}")
        # The chance outcomes of a die, sorted by name, with the faces' probabilities.
        self.roll = tuple(sorted((COLOURS[i], faces[i] / nf) for i in range(3) if faces[i]))
        pl = _field(rules, "players", list)
        if len(pl) != 2 or type(pl[0]) is not int or type(pl[1]) is not int:
            raise ValueError(f"rules.players: expected [min, max], got {pl!r}")
        if not 1 <= pl[0] <= pl[1] <= MAX_PLAYERS:
            raise ValueError(f"rules.players: expected 1 <= min <= max <= 6, got {pl!r}")
        self.players = (pl[0], pl[1])
        self.mice = _field(rules, "mice_per_player", int, None, 1, 50)
        powers = _field(rules, "powers", dict)
        types = _field(powers, "types", list, "powers.types")
        if sorted(types) != list(POWERS):
            raise ValueError(f"rules.powers.types: expected {POWERS!r}, got {types!r}")
        self.each = _field(powers, "each", int, "powers.each", 0, 40)
        variants = _field(rules, "variants", dict)
        fest = _field(variants, "festival", dict, "variants.festival")
        self.feast = _field(fest, "cheese", int, "variants.festival.cheese", 1, 40)
        extra = _field(variants, "extra_cheese", dict, "variants.extra_cheese")
        pairs = []
        for x in extra:
            v = _field(extra, x, int, "variants.extra_cheese." + str(x), 1, 50)
            pairs.append((_id(x, "variants.extra_cheese", ids), v))
        self.extra = tuple(sorted(pairs))  # (space, value) of the designer's cheeses
        self.extra_top = extra.get(ids[self.top], 1)  # what a table cheese is worth with them
        most = self.feast * self.extra_top + sum(v for s, v in pairs if s != self.top)
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
        self.c_col = 1
        self.c_deal = self.c_col + 3
        self.c_go = self.c_deal + NT
        self.c_move = self.c_go + S
        self.c_place = self.c_move + MAX_PLAYERS * S
        self.c_play = self.c_place + S
        self.c_space = self.c_play + MAX_PLAYERS * NT
        self.c_dice = self.c_space + S
        self.c_undo = self.c_dice + 216
        assert self.c_undo < 65280  # the history stores big codes in two bytes

    def encode(self, a, n):
        """The code of action a in a game of n players; ValueError when a is no such action."""
        if type(a) is list:
            a = tuple(a)
        if type(a) is str:
            if a == "pass":
                return 0
            if a in COLOURS:
                return self.c_col + COLOURS.index(a)
            if a in POWERS:
                return self.c_deal + POWERS.index(a)
        elif type(a) is tuple and a:
            kind = a[0]
            na = len(a)
            if na == 1 and kind == "undo":
                return self.c_undo
            if na == 2 and kind == "go":
                return self.c_go + self._space(a[1])
            if na == 2 and kind == "place":
                return self.c_place + self._space(a[1])
            if na == 2 and kind == "space":
                return self.c_space + self._space(a[1])
            if na == 3 and kind == "move":
                return self.c_move + _small(a[1], n) * self.S + self._space(a[2])
            if na == 3 and kind == "play" and a[2] in POWERS:
                return self.c_play + _small(a[1], n) * NT + POWERS.index(a[2])
            if na == 4 and kind == "dice":
                return self.c_dice + _small(a[1], 6) * 36 + _small(a[2], 6) * 6 + _small(a[3], 6)
        raise ValueError(
            f"malformed action: expected PASS, a colour, a power or ('go', space)..., got {a!r}"
        )

    def decode(self, c):
        """The action of code c (the inverse of encode)."""
        ids = self.ids
        if c == 0:
            return "pass"
        if c < self.c_deal:
            return COLOURS[c - self.c_col]
        if c < self.c_go:
            return POWERS[c - self.c_deal]
        if c < self.c_move:
            return ("go", ids[c - self.c_go])
        if c < self.c_place:
            c -= self.c_move
            return ("move", c // self.S, ids[c % self.S])
        if c < self.c_play:
            return ("place", ids[c - self.c_place])
        if c < self.c_space:
            c -= self.c_play
            return ("play", c // NT, POWERS[c % NT])
        if c < self.c_dice:
            return ("space", ids[c - self.c_space])
        if c < self.c_undo:
            c -= self.c_dice
            return ("dice", c // 36, c // 6 % 6, c % 6)
        return ("undo",)

    def _space(self, x):
        if type(x) is not str or x not in self.ids:
            raise ValueError(f"unknown space: expected one of {self.ids!r}, got {x!r}")
        return self.ids.index(x)


_CACHE = [None, None]  # the last rule table read and its Board: states share it, never copy it


def read_board(rules):
    """A new Board from a parsed rule table; ValueError naming the field when it is bad."""
    try:
        return Board(rules)
    except (TypeError, KeyError, IndexError, AttributeError) as e:
        # A shape the checks above did not foresee: still a clear refusal, never a crash.
        raise ValueError("rules: malformed table (%s: %s)" % (type(e).__name__, e)) from None


def board_for(rules):
    """The Board of a parsed rule table (read once per table)."""
    if _CACHE[0] is not rules:
        b = read_board(rules)
        _CACHE[0] = rules
        _CACHE[1] = b
    return _CACHE[1]


def read_options(spec, options, b):
    """The options with defaults filled in from spec (OPTIONS); ValueError on a bad key or value."""
    o = {}
    for key, values in spec:
        o[key] = values[0]
    if options is None:
        options = {}
    if type(options) is not dict:
        raise ValueError(f"options: expected a dict, got {options!r}")
    for key in options:
        allowed = None
        for k, values in spec:
            if k == key:
                allowed = values
        if allowed is None:
            raise ValueError(f"option: expected one of {[k for k, _ in spec]!r}, got {key!r}")
        v = options[key]
        ok = False
        for x in allowed:
            ok = ok or (type(x) is type(v) and x == v)  # True is not 1
        if not ok:
            raise ValueError(f"option {key}: expected one of {allowed!r}, got {v!r}")
        o[key] = v
    n = o["players"]
    lo, hi = b.players
    if not lo <= n <= hi:
        raise ValueError(f"option players: expected {lo}..{hi}, got {n!r}")
    m = o["markers"]
    if o["powers"] and m != "series" and n * m > NT * b.each:
        most = NT * b.each // n
        raise ValueError(f"option markers: expected at most {most} per player, got {m!r}")
    return o


class Powers:
    """The power markers: legal plays, legal choices, effects (a mixin of gouda.State)."""

    def _plays(self):
        """Codes of the ("play", player, power) actions open in this window, sorted."""
        out = []
        hand = self.hand
        base = self._b.c_play
        transfer = None  # worked out once, and only if someone holds a Transfer
        for p in range(self.n):
            for t in range(NT):
                if not hand[p * NT + t]:
                    continue
                if t == TRANSFER and transfer is None:
                    transfer = len(self._transfers()) > 0
                if self._can_play(p, t, transfer):
                    out.append(base + p * NT + t)
        return out

    def _can_play(self, p, t, transfer):
        """May player p, who holds a marker of type t, play it now?"""
        if self.win == W_END:
            # After the moves only an Extra Turn makes sense, and a Cancel of it.
            if t == EXTRA:
                return self.xt == NONE and self._has_mice(self.cur)
            return t == CANCEL and self.last != NONE
        g, y, r = self.dice
        if t == UPGRADE:
            return y + r > 0  # "greens cannot be upgraded"
        if t == DOWNGRADE:
            return g + y > 0  # reds cannot be downgraded
        if t == TRANSFER:
            return transfer
        return t == REROLL or t == CANCEL  # an Extra Turn waits for the end of the turn

    def _play(self, p, t):
        """Player p plays a marker of type t: "Once used, a marker must be removed"."""
        self.hand[p * NT + t] -= 1
        if t == EXTRA and p == self.cur:
            # "immediately play a second turn": nothing to choose now, the roller designates later.
            self._effect(t)
            self.xt = OWN
            self._window()
            return
        self.pp = p
        self.pt = t
        self.ph = CHOOSE

    def _choices(self):
        """Codes of the choices open to the power's player, sorted."""
        b = self._b
        t = self.pt
        if t == TRANSFER:
            return [b.c_space + s for s in self._transfers()]
        if t == EXTRA:
            # "oblige an opponent to immediately play a second turn by designating a space for them"
            return self._goes(self.cur, b.c_go)
        out = []
        if self.win == W_ROLL:
            g, y, r = self.dice
            if t == UPGRADE:
                g = 0
            elif t == DOWNGRADE:
                r = 0
            for gg in range(g + 1):  # "the number of dice affected is at the discretion ..."
                for yy in range(y + 1):
                    for rr in range(r + 1):
                        if gg or yy or rr:
                            out.append(b.c_dice + gg * 36 + yy * 6 + rr)
        if t == CANCEL and self.last != NONE:
            out.append(b.c_undo)  # "One can also cancel the effects of a power marker."
        return out

    def _choose(self, c):
        """Apply the power being played, with the choice c (a legal code)."""
        b = self._b
        t = self.pt
        if c == b.c_undo:
            # Back to the roll as it was before the last power (a cancelled Cancel included).
            keep = bytes(self.snap)
            self._effect(CANCEL)
            self.dice[0] = keep[0]
            self.dice[1] = keep[1]
            self.dice[2] = keep[2]
            self.tgt = keep[3]
            self.xt = keep[4]
        elif c >= b.c_dice:
            c -= b.c_dice
            gg = c // 36
            yy = c // 6 % 6
            rr = c % 6
            self._effect(t)
            d = self.dice
            if t == UPGRADE:  # one step up: yellow -> green, red -> yellow
                d[0] += yy
                d[1] += rr - yy
                d[2] -= rr
            elif t == DOWNGRADE:  # one step down: green -> yellow, yellow -> red
                d[0] -= gg
                d[1] += gg - yy
                d[2] += yy
            else:
                # Re-roll; and a Cancel of the roll or of some of its dice: those dice are rolled
                # again ("plays a Cancel marker to oblige Dominique to re-roll the dice").
                d[0] -= gg
                d[1] -= yy
                d[2] -= rr
                self.pend = gg + yy + rr
                self.ph = ROLL
                return
        elif c >= b.c_space:
            self._effect(t)
            self.tgt = c - b.c_space
        else:
            self._effect(t)
            self.xt = c - b.c_go
        self._window()

    def _hint_power(self, a):
        """The extra hint of a power's play or choice: the power's colour, and the dice after it."""
        if a[0] == "play":
            return {"mark": a[2], "sign": a[2]}  # its colour, and its sign on the die pixels
        t = self.pt if self.ph == CHOOSE else CANCEL
        out = {"mark": POWERS[t]}
        if a[0] == "undo":
            out["sign"] = "cancel"
        if a[0] == "dice":
            g, y, r = self.dice
            if t == UPGRADE:
                g, y, r = g + a[2], y + a[3] - a[2], r - a[3]
            elif t == DOWNGRADE:
                g, y, r = g - a[1], y + a[1] - a[2], r + a[2]
            else:  # re-rolled or cancelled dice: only the dice kept are known
                g, y, r = g - a[1], y - a[2], r - a[3]
            out["dice"] = [COLOURS[0]] * g + [COLOURS[1]] * y + [COLOURS[2]] * r
        return out

    def _effect(self, t):
        """Before power t acts: remember the roll as it stands, for a Cancel to restore."""
        s = self.snap
        s[0] = self.dice[0]
        s[1] = self.dice[1]
        s[2] = self.dice[2]
        s[3] = self.tgt
        s[4] = self.xt
        self.last = t

    def _transfers(self):
        """Where a Transfer may send the roll: another space, with as many mice or more."""
        need = self._total(self.org)  # "at least as many mice as the space initially chosen"
        top = self._b.top
        out = []
        for s in range(self._b.S):
            if s != self.tgt and s != top and self._total(s) >= need:
                out.append(s)
        return out


def _field(d, key, kind, name=None, lo=None, hi=None):
    """d[key], checked to be of type kind (and within lo..hi for an int)."""
    v = d.get(key)
    if type(v) is not kind or (lo is not None and not lo <= v <= hi):
        want = kind.__name__ if lo is None else f"an int {lo}..{hi}"
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
        if x not in ids or ids.index(x) == i or mask >> ids.index(x) & 1:
            raise ValueError(f"rules.spaces.{where}: expected other space ids, got {x!r}")
        mask |= 1 << ids.index(x)
    return mask


def _small(x, n):
    """x as an int 0..n-1 (a bool is refused)."""
    if type(x) is not int or not 0 <= x < n:
        raise ValueError(f"expected an int 0..{n - 1}, got {x!r}")
    return x
