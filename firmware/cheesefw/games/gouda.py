"""The Gouda race (Gouda! Gouda!, Eurogames 2002). Rulebook: shared/seeds/001_034f658690eb2b22.txt.

Mice race from the bottom of the board (a big jug and two crates) to the table at the top, where
the cheese is. On their turn a player designates a space holding one of their mice, rolls one die
per mouse in it (any colour, at most 5) and applies every result to a different mouse of that
space, theirs or not: green one space up, red one space down, yellow nothing. The first mouse on
the table wins for its owner. Options: the power markers, the cheese festival, extra cheeses along
the course. Every ambiguity of the rulebook is decided in docs/rules.md, next to the
sentence it interprets and the test that checks it. gouda_powers.py holds the powers, the
rule-table reader and the action codes.

Actions (tuples become lists in JSON; cheesefw.games.as_action turns them back):
  ("place", space)         setup: put your mice on a start space (all of them, or one with
                           the option placement "each")
  ("go", space)            designate the space to roll for (also: an Extra Turn given to the roller)
  ("move", owner, space)   apply the next result: a mouse of `owner` goes to `space`
  ("play", player, power)  in a REACTION window: play a power marker
  ("dice", g, y, r)        a power's choice of dice: how many greens, yellows and reds
  ("space", space)         a Transfer's new space
  ("undo",)                a Cancel's choice: cancel the last power played
  PASS                     close a REACTION window
Chance outcomes: "green", "yellow" or "red" for a die; a power's name for a dealt marker.
"""

import binascii

from cheesefw import const
from cheesefw.games import CHANCE, REACTION, TERMINAL, History
from cheesefw.games.gouda_powers import (
    CHOOSE,
    COLOURS,
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

# The fields of to_dict(): small ints, and bytearrays (as lists of ints).
_INTS = const((
    "phase", "setup_count", "turn", "designated", "target", "to_roll", "greens_left",
    "reds_left", "window", "last_power", "power_player", "power_type", "extra_turn",
    "again", "cheese", "arrived",
))
_BYTES = const((
    "mice", "gone", "dice", "hand", "pool", "undo", "course", "score", "arrival",
))

NAME = "gouda"
OPTIONS = (
    ("players", (2, 3, 4, 5, 6)),
    # "together": each player in turn puts all their mice on one start space (the rulebook's
    # "place them in one of the first three spaces"); "each": one mouse at a time, round-robin.
    ("placement", ("together", "each")),
    ("powers", (False, True)),
    ("markers", (3, 4, 5, "series")),  # markers per player; "series": one of each of the 6 powers
    ("festival", (False, True)),
    ("extra_cheese", (False, True)),  # the designer's cheeses along the course, scored by place
)


def bot_move(state, rng, level="strong", seats=None):
    """The board's action (gouda_bot.py) for the player to act; in a reaction window, the power
    one of `seats` plays, or PASS. (No bot_players: no option gives a seat to the board.)"""
    from cheesefw.games import decide, gouda_bot

    return decide(gouda_bot.think(state, rng, level, seats))


def check_table(rules):
    """Check a rule table as a game would read it (ValueError naming the field), keeping
    nothing: what the board runs before it accepts a new table. (The reader stays imported for
    the State the check makes next: the check lets go of the game's modules at its end.)"""
    from cheesefw.games import gouda_table

    gouda_table.read_board(rules)


def _read(rules, options):
    """The table's Board and the game's options, read by gouda_table, which the board lets go
    of at once: it runs only when a game is set up, and play needs none of its code."""
    from cheesefw.games import gouda_table
    from cheesefw.modules import forget

    try:
        b = gouda_table.read_board(rules)
        return b, gouda_table.read_options(OPTIONS, options, b)
    finally:
        gouda_table = None
        forget("cheesefw.games.gouda_table", "cheesefw.table_fields")


class State(Powers):
    """One game of the Gouda race: setup, turns, powers and the end, driven by actions."""

    def __init__(self, rules, options=None):
        # The rule table is read into the Board, all play needs of it: the table itself is
        # not kept (parsed, Gouda's is some 3.5 KB of a board's heap).
        b, o = _read(rules, options)
        self.options = o
        self.board = b
        self.n = n = o["players"]
        # Setup. With powers the markers are dealt first; then each player in turn puts all their
        # mice on a start space (or, with placement "each", one mouse, round after round).
        self.phase = PLACE
        self.setup_count = 0  # markers dealt, then placements made, so far
        self.turn = 0  # whose turn it is, the roller; "The youngest player starts the game"
        self.mice = bytearray(b.S * n)  # mice[s * n + p]: the mice of player p on space s
        self.gone = bytearray(n)  # mice that ate a festival cheese and left the game
        # The roll: the space designated, the space it applies to (a Transfer moves it), the dice.
        self.designated = 0
        self.target = 0
        self.dice = bytearray(3)  # greens, yellows, reds on show
        self.to_roll = 0  # dice still to roll
        self.greens_left = 0  # greens still to apply
        self.reds_left = 0  # reds still to apply
        # Powers: hands, the pool they are dealt from, the window, the power being played.
        self.hand = bytearray(n * NT)
        self.pool = bytearray(NT)
        self.window = W_ROLL  # the window open: after the roll, or after the moves
        self.last_power = NONE  # the last power played in this window chain: what a Cancel undoes
        # What a Cancel of that power restores, the roll before it: greens, yellows, reds, the
        # target, the pending Extra Turn.
        self.undo = bytearray(5)
        self.power_player = 0  # the power's player, while they choose
        self.power_type = 0  # the power's type, while they choose
        # A pending Extra Turn: NONE, OWN, or the space an opponent designated for the roller.
        self.extra_turn = NONE
        self.again = 0  # 1 while the roller plays the second turn an Extra Turn gave
        # Cheese and scores.
        self.cheese = b.feast if o["festival"] else 1  # cheeses left on the table
        self.course = bytearray(b.S)  # the value of the extra cheese on each space, 0 for none
        self.score = bytearray(n)
        self.arrival = bytearray([NONE] * n)  # per player: its place in the order of arrival
        self.arrived = 0  # players who have reached the table so far
        self._log = bytearray(64)  # the history: one byte per action (three for a big code)
        self._log_len = 0  # bytes used in _log
        self._actions = 0  # actions in it
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
                self.phase = DEAL

    # -- whose turn, and what they may do ----------------------------------------------------

    def num_players(self):
        """How many seats the game has."""
        return self.n

    def current_player(self):
        """The player to act, or CHANCE, REACTION, TERMINAL."""
        phase = self.phase
        if phase == DEAL or phase == ROLL:
            return CHANCE
        if phase == REACT:
            return REACTION
        if phase == OVER:
            return TERMINAL
        if phase == CHOOSE:
            return self.power_player
        if phase == PLACE:
            return self.setup_count % self.n  # "together": n placements, one a player
        return self.turn

    def legal_actions(self):
        """The legal actions, sorted (PASS first in a REACTION window); [] at chance and the end."""
        decode = self.board.decode
        return [decode(c) for c in self._legal()]

    def chance_outcomes(self):
        """At a chance node: sorted (outcome, probability) pairs; [] elsewhere."""
        if self.phase == ROLL:
            return list(self.board.roll)
        if self.phase == DEAL:  # "the power markers are shuffled": draw from what is left
            total = sum(self.pool)
            return [(POWERS[t], self.pool[t] / total) for t in range(NT) if self.pool[t]]
        return []

    def roller(self):
        """At a die roll: the player whose turn it is (a re-roll is theirs to watch too)."""
        return self.turn

    def chance_is_roll(self):
        """True at a die roll (the players roll it), False at the deal of the markers (unseen)."""
        return self.phase == ROLL

    def action_player(self, a):
        """Who takes action a: the marker's owner for a play, REACTION for PASS in a window."""
        c = self.board.encode(a, self.n)
        if self.phase == REACT:
            if c == 0:
                return REACTION
            return (c - self.board.c_play) // NT
        return self.current_player()

    def apply_action(self, a):
        """Apply a legal action or chance outcome; raise ValueError and change nothing otherwise."""
        b = self.board
        c = b.encode(a, self.n)
        phase = self.phase
        if phase == DEAL or phase == ROLL:
            ok = c in [b.encode(x, 0) for x, _ in self.chance_outcomes()]
        else:
            ok = c in self._legal()
        if not ok:
            raise ValueError(f"illegal action: expected one of {self._expected()!r}, got {a!r}")
        self._push(c)
        if phase == DEAL:
            self._deal(c - b.c_deal)
        elif phase == PLACE:
            self._place(c - b.c_place)
        elif phase == GO:
            self._roll(c - b.c_go)
        elif phase == ROLL:
            self._die(c - b.c_col)
        elif phase == MOVE:
            c -= b.c_move
            self._move(c // b.S, c % b.S)
        elif phase == REACT and c == 0:
            self._pass()
        elif phase == REACT:
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
        self.hand[self.setup_count // m * NT + t] += 1
        self.setup_count += 1
        if self.setup_count == self.n * m:
            self.setup_count = 0
            self.phase = PLACE

    def _place(self, s):
        # In turn: a player sees where the others put their mice before placing theirs.
        n = self.n
        each = self.options["placement"] == "each"
        self.mice[s * n + self.setup_count % n] += 1 if each else self.board.mice_each
        self.setup_count += 1
        if self.setup_count == (n * self.board.mice_each if each else n):
            self.setup_count = 0
            self.turn = 0
            self.phase = GO

    # -- a turn: designate, roll, react, apply -----------------------------------------------

    def _roll(self, s):
        """Roll for space s: one die per mouse in it, all colours counted, at most 5."""
        self.designated = self.target = s
        self.dice[0] = self.dice[1] = self.dice[2] = 0
        self.to_roll = min(self.board.ndice, self._total(s))
        self.window = W_ROLL
        self.last_power = NONE
        self.phase = ROLL

    def _die(self, colour):
        self.dice[colour] += 1
        self.to_roll -= 1
        if not self.to_roll:
            self._open_window()  # the others may react to the roll (or to a re-roll)

    def _open_window(self):
        """Open a reaction window, or go on as if all passed when nobody holds a marker."""
        if max(self.hand):
            self.phase = REACT
        else:
            self._pass()

    def _pass(self):
        self.last_power = NONE
        if self.window == W_ROLL:
            self._apply_roll()
        else:
            self._next_turn()

    def _apply_roll(self):
        # Each result moves a different mouse of the target space: greens first, then reds (the
        # order cannot change where mice end). A red on a start space has nowhere to go.
        self.greens_left = self.dice[0]
        self.reds_left = self.dice[2] if self.board.dn[self.target] else 0
        if self.greens_left or self.reds_left:
            self.phase = MOVE
        else:
            self._end_turn()

    def _move(self, o, d):
        """A mouse of player o leaves the target space for d; a moved mouse is done for the turn."""
        n = self.n
        self.mice[self.target * n + o] -= 1
        self.mice[d * n + o] += 1
        if self.greens_left:
            self.greens_left -= 1
        else:
            self.reds_left -= 1
        self._arrive(o, d)
        if self.phase != OVER and not (self.greens_left or self.reds_left):
            self._end_turn()

    def _end_turn(self):
        self.window = W_END
        self.last_power = NONE
        self._open_window()  # Extra Turn time

    def _next_turn(self):
        extra = self.extra_turn
        self.extra_turn = NONE
        self.again = 1 if extra != NONE else 0
        if extra == OWN:
            self.phase = GO  # the same roller plays a second turn
        elif extra != NONE:
            self._roll(extra)  # a second turn, on the space an opponent designated
        else:
            n = self.n
            for i in range(1, n + 1):  # clockwise: the next player with a mouse still in play
                p = (self.turn + i) % n
                if self._has_mice(p):
                    self.turn = p
                    self.phase = GO
                    return
            self.phase = OVER  # nobody has a mouse left (only with tables of very few mice)

    # -- the end -----------------------------------------------------------------------------

    def _arrive(self, o, d):
        """A mouse of player o reached space d: the table's cheese, or a cheese on the course."""
        b = self.board
        if d == b.top:
            self.cheese -= 1
            self.score[o] += b.extra_top if self.options["extra_cheese"] else 1
            if self.arrival[o] == NONE:
                self.arrival[o] = self.arrived
                self.arrived += 1
            if self.options["festival"]:  # it eats its cheese and leaves the game
                self.mice[d * self.n + o] -= 1
                self.gone[o] += 1
            if not self.cheese:  # "as soon as": results not yet applied are lost
                self.greens_left = self.reds_left = 0
                self.phase = OVER
        elif self.course[d]:  # an extra cheese: the mouse takes it and races on
            self.score[o] += self.course[d]
            self.course[d] = 0

    def is_terminal(self):
        """True when the game is over."""
        return self.phase == OVER

    def scores(self):
        """Cheese per player: 1 per table cheese, or the designer's points with extra cheeses."""
        return list(self.score)

    def ranking(self):
        """Players best first: most cheese, earliest on the table, seat; [] until the end."""
        if self.phase != OVER:
            return []
        order = list(range(self.n))
        order.sort(key=lambda p: (-self.score[p], self.arrival[p], p))
        return order

    def winners(self):
        """The winning player, in a list; [] until the end."""
        r = self.ranking()
        return r[:1] if r and self.score[r[0]] else []

    # -- what the board shows ----------------------------------------------------------------

    def hint(self, a):
        """What to light to offer action a: {"spaces": [space ids], "text": short label}."""
        b = self.board
        a = b.decode(b.encode(a, self.n))
        target = b.ids[self.target]
        if a == "pass":
            return {"spaces": [], "text": "pass", "mark": "pass"}
        if a in COLOURS:
            return {"spaces": [target], "text": a}
        if type(a) is str:
            return {"spaces": [], "text": "deal"}  # never shows what was dealt
        kind = a[0]
        # "count": the die pixels count the mice of each colour on that space; "paint": the
        # space the mouse leaves blinks in its owner's colour (whose mouse it is), the space it
        # enters in white. (The space it enters may already show that colour: the one it
        # leaves shows other colours whenever there is a choice of owner.)
        if kind == "go" and self.phase == CHOOSE:  # an Extra Turn's space, for the roller
            return {"spaces": [a[1]], "text": "extra turn", "mark": "extra", "count": a[1]}
        if kind == "go":
            return {"spaces": [a[1]], "text": "roll", "count": a[1]}
        if kind == "move":
            return {"spaces": sorted([target, a[2]]),
                    "text": "up" if self.greens_left else "down", "paint": [[target, a[1]]]}
        if kind == "place":
            return {"spaces": [a[1]], "text": "place", "count": a[1]}
        if kind == "play":
            h = {"spaces": [], "text": a[2]}
        elif kind == "space":
            h = {"spaces": sorted([target, a[1]]), "text": "transfer", "count": a[1]}
        elif kind == "dice":
            h = {"spaces": [target], "text": f"{a[1]}g {a[2]}y {a[3]}r"}
        else:
            last = POWERS[self.last_power] if self.last_power < NT else ""
            h = {"spaces": [], "text": "cancel " + last}
        h.update(self._hint_power(a))  # the power's colour on the status pixel, the dice after it
        return h

    def view(self):
        """Mice, cheeses, the target space, the dice on show and the counters; never a hand."""
        b = self.board
        n = self.n
        ids = b.ids
        phase = self.phase
        rolling = phase == ROLL or phase == MOVE
        rolling = rolling or ((phase == REACT or phase == CHOOSE) and self.window == W_ROLL)
        pieces = []
        marks = []
        for s in range(b.S):
            for p in range(n):
                for _ in range(self.mice[s * n + p]):
                    pieces.append([ids[s], p])
            for _ in range(self.cheese if s == b.top else (1 if self.course[s] else 0)):
                marks.append([ids[s], "cheese"])
            if rolling and s == self.target:
                marks.append([ids[s], "target"])
        dice = []
        if rolling:
            for i in range(3):
                for _ in range(self.dice[i]):
                    dice.append(COLOURS[i])
        status = {"cheese": self.cheese}
        if self.options["powers"]:  # face down in front of each player: how many is public
            status["markers"] = [sum(self.hand[p * NT : p * NT + NT]) for p in range(n)]
        if self.options["festival"] or self.options["extra_cheese"]:
            status["score"] = list(self.score)
        turn = self.current_player()
        v = {"turn": turn, "pieces": pieces, "marks": marks, "dice": dice, "status": status}
        if self.again or self.extra_turn != NONE:  # the status light: why they go again
            v["mark"] = "extra"
            status["extra_turn"] = 1
        return v

    def hand_of(self, p):
        """The markers player p holds, sorted by name (for their eyes only)."""
        out = []
        for t in range(NT):
            out.extend([POWERS[t]] * self.hand[p * NT + t])
        return out

    # -- journal -----------------------------------------------------------------------------

    @property
    def history(self):
        """The actions and chance outcomes applied since State(rules, options), in order.

        A list-like view of the journal (see cheesefw.games.History): list(history) copies it.
        """
        return History(self._count, self._history_codes, self.board.decode)

    def to_dict(self):
        """The whole state as a plain dict (the history as hex: one byte per action)."""
        h = binascii.hexlify(memoryview(self._log)[: self._log_len]).decode()
        d = {"o": dict(self.options), "h": h}
        for key in _INTS:
            d[key] = getattr(self, key)
        for key in _BYTES:
            d[key] = list(getattr(self, key))
        return d

    @classmethod
    def from_dict(cls, rules, d):
        """Rebuild the state that to_dict() described; ValueError on a malformed dict."""
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
            field = getattr(st, key)
            if type(v) is not list or len(v) != len(field):
                raise ValueError(f"state.{key}: expected a list of {len(field)} ints, got {v!r}")
            for i in range(len(v)):
                if type(v[i]) is not int or not 0 <= v[i] <= 255:
                    raise ValueError(f"state.{key}: expected ints 0..255, got {v[i]!r}")
                field[i] = v[i]
        h = d.get("h")
        if type(h) is not str or len(h) % 2:
            raise ValueError(f"state.h: expected a hex string, got {h!r}")
        try:
            st._log = bytearray(binascii.unhexlify(h)) + bytearray(16)
        except ValueError:
            raise ValueError(f"state.h: expected a hex string, got {h!r}") from None
        st._log_len = len(h) // 2
        st._actions = -1  # counted when first asked (_count): a resumed game need not walk its log
        if st.phase > OVER:
            raise ValueError(f"state.phase: expected a phase 0..{OVER}, got {st.phase!r}")
        return st

    def __eq__(self, other):
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    # -- private helpers ---------------------------------------------------------------------

    def _legal(self):
        """The legal actions as sorted codes (code order is action order)."""
        phase = self.phase
        b = self.board
        if phase == PLACE:
            return [b.c_place + s for s in b.start]  # "in one of the first three spaces"
        if phase == GO:
            return self._goes(self.turn, b.c_go)
        if phase == MOVE:
            n = self.n
            t = self.target
            to = b.up[t] if self.greens_left else b.dn[t]
            out = []
            for o in range(n):
                if self.mice[t * n + o]:  # any mouse of the space, the roller's or not
                    for d in range(b.S):  # where the board offers a lateral space, roller chooses
                        if to >> d & 1:
                            out.append(b.c_move + o * b.S + d)
            return out
        if phase == REACT:
            return [0] + self._plays()
        if phase == CHOOSE:
            return self._choices()
        return []

    def _goes(self, p, base):
        """Codes base + s of the spaces s where player p has at least one mouse."""
        n = self.n
        top = self.board.top
        return [base + s for s in range(self.board.S) if s != top and self.mice[s * n + p]]

    def _total(self, s):
        """Mice on space s, all colours."""
        n = self.n
        t = 0
        for i in range(s * n, s * n + n):
            t += self.mice[i]
        return t

    def _has_mice(self, p):
        """Has player p a mouse that can still be designated (off the table)?"""
        n = self.n
        top = self.board.top
        for s in range(self.board.S):
            if s != top and self.mice[s * n + p]:
                return True
        return False

    def _expected(self):
        if self.phase == DEAL or self.phase == ROLL:
            return [x for x, _ in self.chance_outcomes()]
        return self.legal_actions()

    def _push(self, c):
        """Append code c to the history: one byte, or 255 then two bytes for a code >= 255."""
        if self._log_len + 3 > len(self._log):
            self._log = self._log + bytearray(256)  # grow in steps: little slack
        h = self._log
        i = self._log_len
        if self._actions >= 0:  # (else still to be counted, all at once)
            self._actions += 1
        if c < 255:
            h[i] = c
            self._log_len = i + 1
        else:
            h[i] = 255
            h[i + 1] = c >> 8
            h[i + 2] = c & 255
            self._log_len = i + 3

    def _count(self):
        """How many actions the history holds."""
        if self._actions < 0:
            self._actions = sum(1 for _ in self._history_codes())
        return self._actions

    def _history_codes(self):
        """The history's codes in order, read back from the bytes _push wrote."""
        h = self._log
        i = 0
        while i < self._log_len:
            c = h[i]
            i += 1
            if c == 255:  # a code >= 255 follows in two bytes
                c = h[i] << 8 | h[i + 1]
                i += 2
            yield c


