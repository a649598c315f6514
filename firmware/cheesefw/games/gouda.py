"""The Gouda race (Gouda! Gouda!, Eurogames 2002). Rulebook: shared/seeds/001_034f658690eb2b22.txt.

Mice race from the bottom of the board (a big jug and two crates) to the table at the top, where
the cheese is. On their turn a player designates a space holding one of their mice, rolls one die
per mouse in it (any colour, at most 5) and applies every result to a different mouse of that
space, theirs or not: green one space up, red one space down, yellow nothing. The first mouse on
the table wins for its owner. Options: the power markers (gouda_powers.py), the cheese festival,
extra cheeses along the course. Each ambiguity of the rulebook is decided in docs/rules-gouda.md,
next to the sentence it interprets and the test that checks it.

Actions (tuples become lists in JSON; cheesefw.games.as_action turns them back):
  ("place", space)         setup: put one of your mice on a start space
  ("go", space)            designate the space to roll for (also an Extra Turn given to the roller)
  ("move", owner, space)   apply the next result: a mouse of `owner` goes to `space`
  ("play", player, power)  in a REACTION window: play a power marker
  ("dice", g, y, r)        a power's choice of dice: how many greens, yellows and reds
  ("space", space)         a Transfer's new space
  ("undo",)                a Cancel's choice: cancel the last power played
  PASS                     close a REACTION window
Chance outcomes: "green", "yellow" or "red" for a die; a power's name for a dealt marker.
"""

import binascii

from cheesefw.games import CHANCE, PASS, REACTION, TERMINAL
from cheesefw.games.gouda_powers import (
    CHOOSE,
    DEAL,
    GO,
    MOVE,
    NONE,
    NT,
    OVER,
    OWN,
    PLACE,
    POWERS,
    REACT,
    ROLL,
    W_END,
    W_ROLL,
    Powers,
)

NAME = "gouda"
OPTIONS = (
    ("players", (2, 3, 4, 5, 6)),
    ("powers", (False, True)),
    ("markers", (3, 4, 5, "series")),  # markers per player; "series": one of each of the 6 powers
    ("festival", (False, True)),
    ("extra_cheese", (False, True)),  # the designer's cheeses along the course, scored by place
)

COLOURS = ("green", "yellow", "red")  # die faces, best first; dice[i] counts COLOURS[i]
MAX_PLAYERS = 6  # the box holds six colours; action codes are laid out for six


class State(Powers):
    """One game of the Gouda race: setup, turns, powers and the end, driven by actions."""

    def __init__(self, rules, options=None):
        b = _board(rules)
        o = _options(options, b)
        self.rules = rules
        self.options = o
        self._b = b
        self.n = n = o["players"]
        # Setup. With powers the markers are dealt first; then each player in turn puts one mouse
        # on a start space, round after round, until all mice are placed.
        self.ph = PLACE
        self.k = 0  # markers dealt, then mice placed, so far
        self.cur = 0  # the roller; "the youngest player starts the game": player 0
        self.cnt = bytearray(b.S * n)  # cnt[s * n + p]: mice of player p on space s
        self.gone = bytearray(n)  # mice that ate a festival cheese and left the game
        # The roll: the space designated, the space it applies to (a Transfer moves it), the dice.
        self.org = 0
        self.tgt = 0
        self.dice = bytearray(3)  # greens, yellows, reds on show
        self.pend = 0  # dice still to roll
        self.ag = 0  # greens still to apply
        self.ar = 0  # reds still to apply
        # Powers: hands, the pool they are dealt from, the window, the power being played.
        self.hand = bytearray(n * NT)
        self.pool = bytearray(NT)
        self.win = W_ROLL
        self.last = NONE  # the last power played in this window chain: what a Cancel undoes
        self.snap = bytearray(5)  # the roll before that power: greens, yellows, reds, target, xt
        self.pp = 0  # the power's player while they choose
        self.pt = 0  # the power's type while they choose
        self.xt = NONE  # a pending Extra Turn: NONE, OWN, or the space designated for the roller
        # Cheese and scores.
        self.cheese = b.feast if o["festival"] else 1  # cheeses left on the table
        self.course = bytearray(b.S)  # value of the extra cheese on each space, 0 for none
        self.score = bytearray(n)
        self.arr = bytearray([NONE] * n)  # when each player first reached the table
        self.narr = 0
        self._h = bytearray(16)  # history, one byte per action (3 for rare big codes)
        self._hn = 0
        if o["extra_cheese"]:
            for s, v in b.extra:
                if s != b.top:
                    self.course[s] = v
        if o["powers"]:
            if o["markers"] == "series":
                for i in range(n * NT):
                    self.hand[i] = 1
            else:
                for t in range(NT):
                    self.pool[t] = b.each
                self.ph = DEAL

    # -- whose turn, and what they may do ----------------------------------------------------

    def current_player(self):
        """The player to act, or CHANCE, REACTION, TERMINAL."""
        ph = self.ph
        if ph == DEAL or ph == ROLL:
            return CHANCE
        if ph == REACT:
            return REACTION
        if ph == OVER:
            return TERMINAL
        if ph == CHOOSE:
            return self.pp
        if ph == PLACE:
            return self.k % self.n
        return self.cur

    def legal_actions(self):
        """The legal actions, sorted (PASS first in a REACTION window); [] at chance and the end."""
        return [self._decode(c) for c in self._legal()]

    def chance_outcomes(self):
        """At a chance node: sorted (outcome, probability) pairs; [] elsewhere."""
        if self.ph == ROLL:
            return list(self._b.roll)
        if self.ph == DEAL:
            total = sum(self.pool)
            return [(POWERS[t], self.pool[t] / total) for t in range(NT) if self.pool[t]]
        return []

    def action_player(self, a):
        """Who takes action a: the power's owner for a play, REACTION for PASS in a window."""
        c = self._encode(a)
        if self.ph == REACT:
            if c == 0:
                return REACTION
            return (c - self._b.c_play) // NT
        return self.current_player()

    def apply_action(self, a):
        """Apply a legal action or chance outcome; raise ValueError and change nothing otherwise."""
        c = self._encode(a)
        ph = self.ph
        if ph == DEAL or ph == ROLL:
            ok = c in [self._encode(o) for o, _ in self.chance_outcomes()]
        else:
            ok = c in self._legal()
        if not ok:
            raise ValueError(f"illegal action: expected one of {self._expected()!r}, got {a!r}")
        self._push(c)
        b = self._b
        if ph == DEAL:
            self._deal(c - b.c_deal)
        elif ph == PLACE:
            self._place(c - b.c_place)
        elif ph == GO:
            self._roll(c - b.c_go)
        elif ph == ROLL:
            self._die(c - b.c_col)
        elif ph == MOVE:
            c -= b.c_move
            self._move(c // b.S, c % b.S)
        elif ph == REACT:
            if c == 0:
                self._pass()
            else:
                c -= b.c_play
                self._play(c // NT, c % NT)
        else:
            self._choose(c)

    # -- setup -------------------------------------------------------------------------------

    def _deal(self, t):
        # "Each player, starting with the youngest and continuing clockwise, takes 3 markers at
        # random": player 0 draws all theirs, then player 1, ...; the rest stay out of the game.
        m = self.options["markers"]
        self.pool[t] -= 1
        self.hand[self.k // m * NT + t] += 1
        self.k += 1
        if self.k == self.n * m:
            self.k = 0
            self.ph = PLACE

    def _place(self, s):
        # Round-robin: a player sees where the others put their mice before placing the next one.
        n = self.n
        self.cnt[s * n + self.k % n] += 1
        self.k += 1
        if self.k == n * self._b.mice:
            self.k = 0
            self.cur = 0
            self.ph = GO

    # -- a turn: designate, roll, apply ------------------------------------------------------

    def _roll(self, s):
        """Roll for space s: one die per mouse in it, any colour, at most the dice in the box."""
        self.org = self.tgt = s
        self.dice[0] = self.dice[1] = self.dice[2] = 0
        self.pend = min(self._b.ndice, self._total(s))
        self.win = W_ROLL
        self.last = NONE
        self.ph = ROLL

    def _die(self, colour):
        self.dice[colour] += 1
        self.pend -= 1
        if not self.pend:
            self._window()  # others may react to the roll (or to the power that re-rolled it)

    def _window(self):
        """Open a reaction window, or go on as if all passed when nobody holds a marker."""
        if max(self.hand):
            self.ph = REACT
        else:
            self._pass()

    def _pass(self):
        self.last = NONE
        if self.win == W_ROLL:
            self._apply_roll()
        else:
            self._next_turn()

    def _apply_roll(self):
        # Every result moves a different mouse of the target space, greens first, then reds (the
        # order cannot change where mice end). A red on a start space has nowhere to go: no effect.
        t = self.tgt
        self.ag = self.dice[0]
        self.ar = self.dice[2] if self._b.dn[t] else 0
        if self.ag or self.ar:
            self.ph = MOVE
        else:
            self._end_turn()

    def _move(self, o, d):
        """A mouse of player o leaves the target space for d (a moved mouse never moves again)."""
        n = self.n
        self.cnt[self.tgt * n + o] -= 1
        self.cnt[d * n + o] += 1
        if self.ag:
            self.ag -= 1
        else:
            self.ar -= 1
        self._arrive(o, d)
        if self.ph != OVER and not (self.ag or self.ar):
            self._end_turn()

    def _end_turn(self):
        self.win = W_END
        self.last = NONE
        self._window()  # Extra Turn time

    def _next_turn(self):
        xt = self.xt
        self.xt = NONE
        if xt == OWN:
            self.ph = GO  # the same roller plays a second turn
            return
        if xt != NONE:
            self._roll(xt)  # a second turn on the space an opponent designated
            return
        n = self.n
        for i in range(1, n + 1):  # clockwise: the next player who still has a mouse in play
            p = (self.cur + i) % n
            if self._has_mice(p):
                self.cur = p
                self.ph = GO
                return
        self.ph = OVER  # nobody has a mouse left (only with tables of few mice)

    # -- the end -----------------------------------------------------------------------------

    def _arrive(self, o, d):
        """A mouse of player o reached space d: the table's cheese, or a cheese on the course."""
        b = self._b
        if d == b.top:
            self.cheese -= 1
            self.score[o] += b.extra_top if self.options["extra_cheese"] else 1
            if self.arr[o] == NONE:
                self.arr[o] = self.narr
                self.narr += 1
            if self.options["festival"]:  # it eats its cheese and leaves the game
                self.cnt[d * self.n + o] -= 1
                self.gone[o] += 1
            if not self.cheese:  # "as soon as": the results not yet applied are lost
                self.ag = self.ar = 0
                self.ph = OVER
        elif self.course[d]:  # an extra cheese: the mouse takes it and races on
            self.score[o] += self.course[d]
            self.course[d] = 0

    def is_terminal(self):
        """True when the game is over."""
        return self.ph == OVER

    def scores(self):
        """Cheese per player: 1 per table cheese, or the designer's points with extra cheeses."""
        return list(self.score)

    def ranking(self):
        """Players best first: most cheese, earliest on the table, seat; [] until the end."""
        if self.ph != OVER:
            return []
        order = list(range(self.n))
        order.sort(key=lambda p: (-self.score[p], self.arr[p], p))
        return order

    def winners(self):
        """The winning player, in a list; [] until the end."""
        r = self.ranking()
        return r[:1] if r and self.score[r[0]] else []

    # -- what the board shows ----------------------------------------------------------------

    def hint(self, a):
        """What to light to offer action a: {"spaces": [space ids], "text": short label}."""
        c = self._encode(a)
        b = self._b
        ids = b.ids
        tgt = ids[self.tgt]
        if c == 0:
            return {"spaces": [], "text": "pass"}
        if c < b.c_deal:
            return {"spaces": [tgt], "text": a}
        if c < b.c_go:
            return {"spaces": [], "text": "deal"}  # never shows what was dealt
        if c < b.c_move:
            text = "extra turn" if self.ph == CHOOSE else "roll"
            return {"spaces": [ids[c - b.c_go]], "text": text}
        if c < b.c_place:
            c -= b.c_move
            s = ids[c % b.S]
            return {"spaces": sorted([tgt, s]), "text": "up" if self.ag else "down"}
        if c < b.c_play:
            return {"spaces": [ids[c - b.c_place]], "text": "place"}
        if c < b.c_space:
            return {"spaces": [], "text": a[2]}
        if c < b.c_dice:
            return {"spaces": sorted([tgt, ids[c - b.c_space]]), "text": "transfer"}
        if c < b.c_undo:
            return {"spaces": [tgt], "text": f"{a[1]}g {a[2]}y {a[3]}r"}
        return {"spaces": [], "text": "cancel " + (POWERS[self.last] if self.last < NT else "")}

    def view(self):
        """Mice, cheeses, the target space, the dice on show and the counters; never a hand."""
        b = self._b
        n = self.n
        ids = b.ids
        rolling = self.ph == ROLL or self.ph == MOVE
        rolling = rolling or ((self.ph == REACT or self.ph == CHOOSE) and self.win == W_ROLL)
        pieces = []
        marks = []
        for s in range(b.S):
            for p in range(n):
                for _ in range(self.cnt[s * n + p]):
                    pieces.append([ids[s], p])
            cheese = self.cheese if s == b.top else (1 if self.course[s] else 0)
            for _ in range(cheese):
                marks.append([ids[s], "cheese"])
            if rolling and s == self.tgt:
                marks.append([ids[s], "target"])
        dice = []
        if rolling:
            for i in range(3):
                for _ in range(self.dice[i]):
                    dice.append(COLOURS[i])
        status = {"cheese": self.cheese}
        o = self.options
        if o["powers"]:  # face down in front of each player: how many is public, what is not
            status["markers"] = [sum(self.hand[p * NT : p * NT + NT]) for p in range(n)]
        if o["festival"] or o["extra_cheese"]:
            status["score"] = list(self.score)
        return {
            "turn": self.current_player(),
            "pieces": pieces,
            "marks": marks,
            "dice": dice,
            "status": status,
        }

    def hand_of(self, p):
        """The markers player p holds, sorted by name (for their eyes only)."""
        out = []
        for t in range(NT):
            out.extend([POWERS[t]] * self.hand[p * NT + t])
        return out

    # -- journal -----------------------------------------------------------------------------

    @property
    def history(self):
        """The actions and chance outcomes applied since State(rules, options), in order."""
        out = []
        h = self._h
        i = 0
        while i < self._hn:
            c = h[i]
            i += 1
            if c == 255:
                c = h[i] << 8 | h[i + 1]
                i += 2
            out.append(self._decode(c))
        return out

    def to_dict(self):
        """The whole state as a plain dict (the history as hex, one byte per action)."""
        d = {"o": dict(self.options), "h": _hex(self._h, self._hn)}
        for key in _INTS:
            d[key] = getattr(self, key)
        for key in _BYTES:
            d[key] = list(getattr(self, key))
        return d

    @classmethod
    def from_dict(cls, rules, d):
        """Rebuild the state to_dict() described; ValueError on a malformed dict."""
        if type(d) is not dict or type(d.get("o")) is not dict:
            raise ValueError(f"state: expected a dict from to_dict(), got {d!r}")
        st = cls(rules, d["o"])
        for key in _INTS:
            v = d.get(key)
            if type(v) is not int or not 0 <= v <= 255:
                raise ValueError(f"state.{key}: expected an int 0..255, got {v!r}")
            setattr(st, key, v)
        for key in _BYTES:
            v = d.get(key)
            cur = getattr(st, key)
            if type(v) is not list or len(v) != len(cur):
                raise ValueError(f"state.{key}: expected a list of {len(cur)} ints, got {v!r}")
            for i in range(len(v)):
                if type(v[i]) is not int or not 0 <= v[i] <= 255:
                    raise ValueError(f"state.{key}: expected ints 0..255, got {v[i]!r}")
                cur[i] = v[i]
        h = d.get("h")
        if type(h) is not str or len(h) % 2:
            raise ValueError(f"state.h: expected a hex string, got {h!r}")
        try:
            st._h = bytearray(bytes.fromhex(h)) if h else bytearray(16)
        except ValueError:
            raise ValueError(f"state.h: expected a hex string, got {h!r}") from None
        st._hn = len(h) // 2
        if st.ph > OVER:
            raise ValueError(f"state.ph: expected a phase 0..{OVER}, got {st.ph!r}")
        return st

    def __eq__(self, other):
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    def __ne__(self, other):
        return not self.__eq__(other)

    # -- private helpers ---------------------------------------------------------------------

    def _legal(self):
        """The legal actions as sorted codes (code order is action order)."""
        ph = self.ph
        b = self._b
        if ph == PLACE:
            return [b.c_place + s for s in b.start]
        if ph == GO:
            return self._goes(self.cur, b.c_go)
        if ph == MOVE:
            n = self.n
            t = self.tgt
            to = b.up[t] if self.ag else b.dn[t]
            out = []
            for o in range(n):
                if self.cnt[t * n + o]:  # any mouse of the space, the roller's or not
                    for d in to:  # where the board offers a lateral space, the roller chooses
                        out.append(b.c_move + o * b.S + d)
            return out
        if ph == REACT:
            return [0] + self._plays()
        if ph == CHOOSE:
            return self._choices()
        return []

    def _goes(self, p, base):
        """Codes base + s for the spaces s where player p has at least one mouse."""
        n = self.n
        top = self._b.top
        return [base + s for s in range(self._b.S) if s != top and self.cnt[s * n + p]]

    def _total(self, s):
        """Mice on space s, all colours."""
        n = self.n
        t = 0
        for i in range(s * n, s * n + n):
            t += self.cnt[i]
        return t

    def _has_mice(self, p):
        n = self.n
        top = self._b.top
        for s in range(self._b.S):
            if s != top and self.cnt[s * n + p]:
                return True
        return False

    def _expected(self):
        if self.ph == DEAL or self.ph == ROLL:
            return [o for o, _ in self.chance_outcomes()]
        return self.legal_actions()

    def _push(self, c):
        """Append code c to the history: one byte, or 255 and two bytes for a code >= 255."""
        if self._hn + 3 > len(self._h):
            self._h = self._h + bytearray(len(self._h))  # double: few reallocations
        h = self._h
        i = self._hn
        if c < 255:
            h[i] = c
            self._hn = i + 1
        else:
            h[i] = 255
            h[i + 1] = c >> 8
            h[i + 2] = c & 255
            self._hn = i + 3

    def _encode(self, a):
        """The code of action a; ValueError when a is not an action of this game."""
        b = self._b
        if type(a) is list:
            a = tuple(a)
        if type(a) is str:
            if a == PASS:
                return 0
            if a in COLOURS:
                return b.c_col + COLOURS.index(a)
            if a in POWERS:
                return b.c_deal + POWERS.index(a)
        elif type(a) is tuple and a:
            kind = a[0]
            na = len(a)
            if na == 1 and kind == "undo":
                return b.c_undo
            if na == 2 and kind in _SPACE_KINDS:
                return getattr(b, "c_" + kind) + self._space(a[1])
            if na == 3 and kind == "move":
                return b.c_move + _small(a[1], self.n) * b.S + self._space(a[2])
            if na == 3 and kind == "play" and a[2] in POWERS:
                return b.c_play + _small(a[1], self.n) * NT + POWERS.index(a[2])
            if na == 4 and kind == "dice":
                return b.c_dice + _small(a[1], 6) * 36 + _small(a[2], 6) * 6 + _small(a[3], 6)
        raise ValueError(
            "malformed action: expected PASS, a die colour, a power or a tuple like "
            f"('go', space), got {a!r}"
        )

    def _space(self, x):
        s = self._b.index.get(x) if type(x) is str else None
        if s is None:
            raise ValueError(f"unknown space: expected one of {self._b.ids!r}, got {x!r}")
        return s

    def _decode(self, c):
        """The action of code c (the inverse of _encode)."""
        b = self._b
        ids = b.ids
        if c == 0:
            return PASS
        if c < b.c_deal:
            return COLOURS[c - b.c_col]
        if c < b.c_go:
            return POWERS[c - b.c_deal]
        if c < b.c_move:
            return ("go", ids[c - b.c_go])
        if c < b.c_place:
            c -= b.c_move
            return ("move", c // b.S, ids[c % b.S])
        if c < b.c_play:
            return ("place", ids[c - b.c_place])
        if c < b.c_space:
            c -= b.c_play
            return ("play", c // NT, POWERS[c % NT])
        if c < b.c_dice:
            return ("space", ids[c - b.c_space])
        if c < b.c_undo:
            c -= b.c_dice
            return ("dice", c // 36, c // 6 % 6, c % 6)
        return ("undo",)


# The fields of to_dict(): small ints, and bytearrays (as lists).
_INTS = (
    "ph",
    "k",
    "cur",
    "org",
    "tgt",
    "pend",
    "ag",
    "ar",
    "win",
    "last",
    "pp",
    "pt",
    "xt",
    "cheese",
    "narr",
)
_BYTES = ("cnt", "gone", "dice", "hand", "pool", "snap", "course", "score", "arr")
_SPACE_KINDS = ("go", "place", "space")


class _Board:
    """The rule table read once: spaces indexed in sorted-id order, dice, players, variants.

    Action codes: PASS 0, then die colours, dealt powers, ("go", s), ("move", o, s), ("place", s),
    ("play", p, t), ("space", s), ("dice", g, y, r), ("undo",). Within a kind, codes follow the
    sorted order of the actions, so a sorted list of codes is a sorted list of actions.
    """

    def __init__(self, rules):
        if type(rules) is not dict:
            raise ValueError(f"rules: expected a dict, got {type(rules)!r}")
        spaces = _field(rules, "spaces", list)
        ids = []
        for e in spaces:
            if type(e) is not dict or type(e.get("id")) is not str or e["id"] in ids:
                raise ValueError(f"rules.spaces: expected dicts with unique str ids, got {e!r}")
            ids.append(e["id"])
        self.ids = ids = tuple(sorted(ids))
        self.S = S = len(ids)
        self.index = index = {}
        for i in range(S):
            index[ids[i]] = i
        up = [()] * S
        dn = [()] * S
        for e in spaces:
            i = index[e["id"]]
            up[i] = _links(e, "up", index, i)
            dn[i] = _links(e, "dn", index, i)
        self.up = tuple(up)
        self.dn = tuple(dn)
        self.top = _id(rules.get("top"), "top", index)
        self.start = tuple(sorted(_id(x, "start", index) for x in _field(rules, "start", list)))
        if not self.start or self.top in self.start:
            got = rules["start"]
            raise ValueError(f"rules.start: expected start spaces other than the top, got {got!r}")
        for i in range(S):
            if i != self.top and not up[i]:
                raise ValueError(f"rules.spaces.{ids[i]}.up: expected a space above, got []")
        for x in _field(rules, "lat", list):
            _id(x, "lat", index)
        dice = _field(rules, "dice", dict)
        self.ndice = _field(dice, "n", int, "dice.n", 1, 5)
        faces = _field(dice, "faces", list, "dice.faces")
        counts = [faces.count(c) for c in COLOURS]
        if not faces or sum(counts) != len(faces):
            raise ValueError(f"rules.dice.faces: expected colours from {COLOURS!r}, got {faces!r}")
        nf = len(faces)
        self.roll = tuple(sorted((COLOURS[i], counts[i] / nf) for i in range(3) if counts[i]))
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
        self.feast = _field(
            _field(variants, "festival", dict, "variants.festival"),
            "cheese",
            int,
            "variants.festival.cheese",
            1,
            40,
        )
        extra = _field(variants, "extra_cheese", dict, "variants.extra_cheese")
        pairs = []
        for x in extra:
            v = _field(extra, x, int, "variants.extra_cheese." + str(x), 1, 50)
            pairs.append((_id(x, "variants.extra_cheese", index), v))
        self.extra = tuple(sorted(pairs))
        self.extra_top = extra.get(ids[self.top], 1)
        _field(rules, "palette", dict)
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
        assert self.c_undo < 65280  # two bytes after the 255 escape


_CACHE = [None, None]  # the last rule table read and its _Board: states share it, never copy it


def _board(rules):
    if _CACHE[0] is not rules:
        b = _Board(rules)
        _CACHE[0] = rules
        _CACHE[1] = b
    return _CACHE[1]


def _options(options, b):
    """The options with defaults filled in; ValueError on an unknown key or value."""
    o = {}
    for key, values in OPTIONS:
        o[key] = values[0]
    if options is None:
        options = {}
    if type(options) is not dict:
        raise ValueError(f"options: expected a dict, got {options!r}")
    for key in options:
        allowed = None
        for k, values in OPTIONS:
            if k == key:
                allowed = values
        if allowed is None:
            raise ValueError(f"option: expected one of {[k for k, _ in OPTIONS]!r}, got {key!r}")
        v = options[key]
        ok = False
        for x in allowed:
            ok = ok or (type(x) is type(v) and x == v)  # True is not 1
        if not ok:
            raise ValueError(f"option {key}: expected one of {allowed!r}, got {v!r}")
        o[key] = v
    n = o["players"]
    if not b.players[0] <= n <= b.players[1]:
        lo, hi = b.players
        raise ValueError(f"option players: expected {lo}..{hi}, got {n!r}")
    m = o["markers"]
    if o["powers"] and m != "series" and n * m > NT * b.each:
        most = NT * b.each // n
        raise ValueError(f"option markers: expected at most {most} per player, got {m!r}")
    return o


def _field(d, key, kind, name=None, lo=None, hi=None):
    """d[key], checked to be of type kind (and within lo..hi for ints)."""
    v = d.get(key)
    if type(v) is not kind or (lo is not None and not lo <= v <= hi):
        want = kind.__name__ if lo is None else f"an int {lo}..{hi}"
        raise ValueError(f"rules.{name or key}: expected {want}, got {v!r}")
    return v


def _id(v, name, index):
    """The index of space id v, read from rules.<name>."""
    if type(v) is not str or v not in index:
        raise ValueError(f"rules.{name}: expected a space id, got {v!r}")
    return index[v]


def _links(e, key, index, i):
    """The sorted indices of the spaces listed in e[key] (never the space itself)."""
    v = e.get(key)
    if type(v) is not list:
        where = e["id"]
        raise ValueError(f"rules.spaces.{where}.{key}: expected a list, got {v!r}")
    out = []
    for x in v:
        if type(x) is not str or x not in index or index[x] == i:
            where = e["id"]
            raise ValueError(f"rules.spaces.{where}.{key}: expected other space ids, got {x!r}")
        out.append(index[x])
    return tuple(sorted(out))


def _small(x, n):
    """x as an int 0..n-1 (bools refused)."""
    if type(x) is not int or not 0 <= x < n:
        raise ValueError(f"expected an int 0..{n - 1}, got {x!r}")
    return x


def _hex(buf, n):
    return binascii.hexlify(memoryview(buf)[:n]).decode()
