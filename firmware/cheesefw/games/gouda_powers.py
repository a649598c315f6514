"""Helpers of the Gouda race (gouda.py): the power markers, the action codes.

Rulebook: shared/seeds/001_034f658690eb2b22.txt; interpretations: docs/rules.md.
Split from gouda.py so that each file reads in one sitting:
  - the constants both files need (powers, phases, windows);
  - Board: what play needs of the rule table (gouda_table.py reads and checks it, ValueError
    naming the field), and the action codes -- every action is a small int inside, so legal
    lists are lists of ints, the history is one byte per action, and sorting codes sorts the
    actions;
  - Powers: optional rule 1, the part of gouda.State that plays the power markers.

How a power is played ("Each marker may be used ... during their own turn or during another
player's turn"):
  a roll ends, or a turn ends  ->  REACTION window: PASS, or ("play", player, power)
  the power's player makes its choice (which dice, which space) at a decision node
  the effect happens at once (re-rolled dice are the next chance node: the roller rolls
  them), then a new window opens in which
  anyone may react again -- with a Cancel, which undoes that last power.
"""

from cheesefw import const

# The powers, sorted by name: a power's index is also its place in sorted action lists.
POWERS = ("cancel", "downgrade", "extra", "reroll", "transfer", "upgrade")
CANCEL = 0
DOWNGRADE = 1
EXTRA = 2
_REROLL = const(3)  # (private, as the next: no other module reads it, no name on the board)
_TRANSFER = const(4)
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
    """The rule table as play reads it (filled by gouda_table.read_board): spaces indexed in
    sorted-id order, links, dice, players, variants.

    Action codes, in this order: PASS 0; die colours; dealt powers; ("go", s); ("move", o, s);
    ("place", s); ("play", p, t); ("space", s); ("dice", g, y, r); ("undo",). Within a kind the
    codes follow the sorted order of the actions, PASS comes before the plays and the dice before
    "undo": so wherever kinds mix in a legal list, sorted codes are sorted actions.
    """

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


class Powers:
    """Optional rule 1, the power markers: the part of gouda.State (its base class) that says
    which plays a window offers, which choices a power gives, and what each does to the roll.

    It works on the State's fields: `hand` and `window` (who may play what, and when); the roll
    (`dice`, `target`, `designated`, `to_roll`); the power being played (`power_player`,
    `power_type`); `extra_turn`; and `last_power` with `undo`, what a Cancel takes back.
    """

    def _plays(self):
        """Codes of the ("play", player, power) actions open in this window, sorted."""
        out = []
        hand = self.hand
        base = self.board.c_play
        transfer = None  # worked out once, and only if someone holds a Transfer
        for p in range(self.n):
            for t in range(NT):
                if not hand[p * NT + t]:
                    continue
                if t == _TRANSFER and transfer is None:
                    transfer = len(self._transfers()) > 0
                if self._can_play(p, t, transfer):
                    out.append(base + p * NT + t)
        return out

    def _can_play(self, p, t, transfer):
        """May player p, who holds a marker of type t, play it now?"""
        if self.window == W_END:
            # After the moves only an Extra Turn makes sense, and a Cancel of it.
            if t == EXTRA:
                return self.extra_turn == NONE and self._has_mice(self.turn)
            return t == CANCEL and self.last_power != NONE
        g, y, r = self.dice
        if t == UPGRADE:
            return y + r > 0  # "greens cannot be upgraded"
        if t == DOWNGRADE:
            return g + y > 0  # reds cannot be downgraded
        if t == _TRANSFER:
            return transfer
        return t == _REROLL or t == CANCEL  # an Extra Turn waits for the end of the turn

    def _play(self, p, t):
        """Player p plays a marker of type t: "Once used, a marker must be removed"."""
        self.hand[p * NT + t] -= 1
        if t == EXTRA and p == self.turn:
            # "immediately play a second turn": nothing to choose now, the roller designates later.
            self._before_power(t)
            self.extra_turn = OWN
            self._open_window()
            return
        self.power_player = p
        self.power_type = t
        self.phase = CHOOSE

    def _choices(self):
        """Codes of the choices open to the power's player, sorted."""
        b = self.board
        t = self.power_type
        if t == _TRANSFER:
            return [b.c_space + s for s in self._transfers()]
        if t == EXTRA:
            # "oblige an opponent to immediately play a second turn by designating a space for them"
            return self._goes(self.turn, b.c_go)
        out = []
        if self.window == W_ROLL:
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
        if t == CANCEL and self.last_power != NONE:
            out.append(b.c_undo)  # "One can also cancel the effects of a power marker."
        return out

    def _choose(self, c):
        """Apply the power being played, with the choice c (a legal code)."""
        b = self.board
        t = self.power_type
        if c == b.c_undo:
            # Back to the roll as it was before the last power (a cancelled Cancel included).
            keep = bytes(self.undo)
            self._before_power(CANCEL)
            self.dice[0] = keep[0]
            self.dice[1] = keep[1]
            self.dice[2] = keep[2]
            self.target = keep[3]
            self.extra_turn = keep[4]
        elif c >= b.c_dice:
            c -= b.c_dice
            gg = c // 36
            yy = c // 6 % 6
            rr = c % 6
            self._before_power(t)
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
                self.to_roll = gg + yy + rr
                self.phase = ROLL
                return
        elif c >= b.c_space:
            self._before_power(t)
            self.target = c - b.c_space
        else:
            self._before_power(t)
            self.extra_turn = c - b.c_go
        self._open_window()

    def _hint_power(self, a):
        """The extra hint of a power's play or choice: the power's colour, and the dice after it."""
        if a[0] == "play":
            return {"mark": a[2], "sign": a[2]}  # its colour, and its sign on the die pixels
        t = self.power_type if self.phase == CHOOSE else CANCEL
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

    def _before_power(self, t):
        """Before power t acts: the roll as it stands goes to `undo`, for a Cancel to restore."""
        s = self.undo
        s[0] = self.dice[0]
        s[1] = self.dice[1]
        s[2] = self.dice[2]
        s[3] = self.target
        s[4] = self.extra_turn
        self.last_power = t

    def _transfers(self):
        """Where a Transfer may send the roll: another space, with as many mice or more."""
        need = self._total(self.designated)  # "at least as many mice as the space initially chosen"
        top = self.board.top
        out = []
        for s in range(self.board.S):
            if s != self.target and s != top and self._total(s) >= need:
                out.append(s)
        return out


def _small(x, n):
    """x as an int 0..n-1 (a bool is refused)."""
    if type(x) is not int or not 0 <= x < n:
        raise ValueError(f"expected an int 0..{n - 1}, got {x!r}")
    return x
