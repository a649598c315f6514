"""The Gouda race, optional rule 1: the power markers (split from gouda.py to keep it readable).

Rulebook: shared/seeds/001_034f658690eb2b22.txt, "1 - Use of Powers"; the interpretations are in
docs/rules-gouda.md. `Powers` is mixed into gouda.State: it says which plays and choices are legal
and applies their effects. The phase constants live here because both files need them.

How a power is played (the rulebook's "Other players must get their chance to react"):
  a roll ends, or a turn ends  ->  REACTION window: PASS, or ("play", player, power)
  the power's player makes its choice (which dice, which space) at a decision node
  the effect happens at once (a re-roll rolls at once), then a new window opens,
  in which anyone may react again -- Cancel included, which undoes that last power.
"""

# The powers, sorted by name: a power's index is also its place in the sorted action lists.
POWERS = ("cancel", "downgrade", "extra", "reroll", "transfer", "upgrade")
CANCEL = 0
DOWNGRADE = 1
EXTRA = 2
REROLL = 3
TRANSFER = 4
UPGRADE = 5
NT = 6  # power types: hand[p * NT + t] is how many markers of type t player p holds

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

NONE = 255  # no power / no space
OWN = 254  # an Extra Turn is pending and the roller designates the space


class Powers:
    """The power markers: legal plays, legal choices, effects (a mixin of gouda.State)."""

    def _plays(self):
        """Codes of the ("play", player, power) actions open in this window, sorted."""
        out = []
        hand = self.hand
        base = self._b.c_play
        transfer = None  # computed once, only if someone holds a Transfer
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
        """May player p play a power of type t now (they hold one)?"""
        if self.win == W_END:
            # After the moves only an Extra Turn makes sense, and a Cancel of it.
            if t == EXTRA:
                return self.xt == NONE and self._has_mice(self.cur)
            return t == CANCEL and self.last != NONE
        g, y, r = self.dice
        if t == UPGRADE:
            return y + r > 0  # greens cannot be upgraded
        if t == DOWNGRADE:
            return g + y > 0  # reds cannot be downgraded
        if t == TRANSFER:
            return transfer
        return t == REROLL or t == CANCEL

    def _play(self, p, t):
        """Player p plays a marker of type t: it leaves the game at once, used."""
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
                g = 0  # greens cannot be upgraded
            elif t == DOWNGRADE:
                r = 0  # reds cannot be downgraded
            for gg in range(g + 1):
                for yy in range(y + 1):
                    for rr in range(r + 1):
                        if gg or yy or rr:
                            out.append(b.c_dice + gg * 36 + yy * 6 + rr)
        if t == CANCEL and self.last != NONE:
            out.append(b.c_undo)
        return out

    def _choose(self, c):
        """Apply the power being played with the choice c (a legal code)."""
        b = self._b
        t = self.pt
        if c == b.c_undo:
            # Cancel "the effects of a power marker": back to before the last power.
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
                # Re-roll, and Cancel of a roll or of some of its dice: those dice are rolled again
                # ("a Cancel marker to oblige Dominique to re-roll the dice").
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

    def _effect(self, t):
        """Remember the roll as it stands, so that a Cancel can restore it, before power t acts."""
        s = self.snap
        s[0] = self.dice[0]
        s[1] = self.dice[1]
        s[2] = self.dice[2]
        s[3] = self.tgt
        s[4] = self.xt
        self.last = t

    def _transfers(self):
        """Where a Transfer may send the roll: another space, with as many mice or more."""
        need = self._total(self.org)
        top = self._b.top
        out = []
        for s in range(self._b.S):
            if s != self.tgt and s != top and self._total(s) >= need:
                out.append(s)
        return out
