"""The kitchen cat-and-mouse game (Chop! Chop!, Djeco 2017).

Rulebook: shared/seeds/004_4a20ab2640828fd3.txt (Dutch). Where it is ambiguous the decision is
in docs/rules.md, next to the sentence it interprets, with the test that checks it.

Player 0 plays the four mice together, player 1 is the cat. Squares are ids "a1".."f7" (column
letter, row number); kitchen_moves.py holds the board and the path search. Every action is a
square id, a die face, a tile kind or STAY, so the history is kept as one byte an action.
"""

import binascii

from cheesefw import const
from cheesefw.games import CHANCE, TERMINAL, History, decide
from cheesefw.games.kitchen_moves import (
    CAT,
    DIE,
    PICK,
    SHOWN,
    STAY,
    access,
    free_squares,
    search,
)

# The sides, and the phases of a game in the order they come. (The cat's side, the choice of a
# mouse and the rest the board's player reads are kitchen_moves's.) Private constants, as the
# tiles' below: the board keeps the strings, which the game's log and view say anyway, not a
# name for each.
_MICE = const(0)
_DEAL = const("deal")  # chance: the tile for the next floor square, from the shuffled deck
_PLACE = const("place")  # the cat chooses its table square
_ROLL = const("roll")  # chance: the side to play rolls its die
# PICK: the mice choose which mouse moves (action: the square it stands on)
_MOVE = const("move")  # the piece goes exactly the roll (action: the square where it stops)
_BONUS = const("bonus")  # +1/+2: the same piece goes that many squares more
_FREE = const("free")  # arrow: the same piece goes to any square it may stand on
_TAKE = const("take")  # fork: the mouse takes a visible cheese (action: its square)
_OVER = const("over")

NAME = "kitchen"
OPTIONS = (
    ("short_game", (False, True)),  # play to the table's "short_cheese" goal instead of "cheese"
    ("cat", ("player", "board")),  # "board": the board plays the cat (kitchen_bot.py)
    ("mice", ("player", "board")),  # "board": the board plays the mice
)
# Options that say who plays a seat: the menu does not ask them, its seat steps ask seat by
# seat (with the board's beginner level too); the protocol, journals and the lab keep them.
SEAT_OPTIONS = ("cat", "mice")


def check_table(rules):
    """The Board of a rule table, checked as play reads it (ValueError naming the field). (The
    reader stays imported for the State the board's check makes next: the check lets go of
    the game's modules at its end.)"""
    from cheesefw.games import kitchen_table

    return kitchen_table.read_board(rules, KINDS)


def _read(rules, options):
    """The table's Board and the game's options, read by kitchen_table, which the board lets go
    of at once: it runs only when a game is set up, and play needs none of its code."""
    from cheesefw.games import kitchen_table
    from cheesefw.modules import forget
    from cheesefw.table_fields import choose_options

    try:
        options = choose_options(NAME, OPTIONS, options)  # (a bad option: said first)
        return kitchen_table.read_board(rules, KINDS), options
    finally:
        kitchen_table = None
        forget("cheesefw.games.kitchen_table", "cheesefw.table_fields")


def bot_players(options):
    """The seats the board itself plays: the cat, the mice, or both, as the players asked."""
    return [side for side, key in ((_MICE, "mice"), (CAT, "cat")) if options.get(key) == "board"]


def bot_move(state, rng, level="strong"):
    """The board's choice for a seat it plays, "strong" or "beginner" (its rng: the engine's
    seeded source)."""
    from cheesefw.games import kitchen_bot

    return decide(kitchen_bot.think(state, rng, level))


# The tiles. A face-down tile is one of KINDS; a cheese the cat turned over stays, as SHOWN.
_ARROW = const("arrow")
_CHEESE = const("cheese")
_DISH = const("dish")
_FORK = const("fork")
_KNIFE = const("knife")
_PLUS1 = const("plus1")
_PLUS2 = const("plus2")
KINDS = (_ARROW, _CHEESE, _DISH, _FORK, _KNIFE, _PLUS1, _PLUS2)  # sorted: the deal's outcomes

# What to_dict saves besides the options, the history (its log) and the squares of the pieces.
_FIELDS = const(("phase", "side", "tiles", "dealt", "out", "home", "cheese", "roll", "extra",
                 "mover", "bonus", "turns", "winner"))
_PHASES = (_DEAL, _PLACE, _ROLL, PICK, _MOVE, _BONUS, _FREE, _TAKE, _OVER)


class State:
    """One game in the kitchen: set-up, turns, tiles and the end, driven by actions."""

    def __init__(self, rules, options=None):
        # Only the parts play reads: the rest of the parsed table (palette, grid) can be freed.
        self.rules = {k: rules[k] for k in ("dice", "house", "win", "deck")}
        self.board, self.options = _read(rules, options)
        board = self.board
        self.goal = rules["win"]["short_cheese" if self.options["short_game"] else "cheese"]
        self._log = bytearray()  # the history, one byte an action (see _code)
        self._legal_cache = None  # the legal actions, once listed at this node (legal_steps)
        # The pick's hints found at this node, by mouse: a blinking offer is drawn again four
        # times a second, and each hint is a whole path search (up to 939 lines of Python).
        self._picks_hinted = None
        # Set-up: the tiles are still to be dealt, a mouse sits in each hole, the cat in the box.
        self.phase = _DEAL
        self.side = _MICE
        self.tiles = [None] * board.n  # per square: a kind face down, SHOWN, or None (none left)
        self.turned = None  # (square id, kind) of the tile the last action turned over
        self.dealt = 0  # floor squares dealt so far
        self.cat = -1  # its square, -1 until placed
        self.mice = list(board.holes)  # the square of each mouse, -1 once caught
        self.out = [False] * 4  # has mouse m come out (its hole card turned over)?
        self.home = False  # has a mouse come back to a hole?
        self.cheese = 0  # the cheeses the mice have won
        self.roll = 0  # the die on show, 0 when none
        self.extra = 0  # rolls still to come this turn after this one (a knife gives 1)
        self.mover = -1  # the mouse moving this turn (kept for the second roll after a knife)
        self.bonus = 0  # steps of a +1/+2 still to go
        self.turns = 0  # turns played, for the turn limit
        # (the tiles and the holes as the last view read them, and its marks): a move that
        # leaves both as they were (a roll, a step) gives the next view the same marks, found
        # by two comparisons in C where a walk of every square runs Python for each, and the
        # painter passes them over by identity.
        self._marked = None
        self.winner = -1

    # -- the contract ------------------------------------------------------------------------

    @property
    def history(self):
        """The actions and chance outcomes applied since the start, in order: a list-like view
        decoded on demand (cheesefw.games.History); list(history) copies it."""
        log = self._log
        return History(lambda: len(log), lambda: iter(log), self._action)

    def num_players(self):
        """Two sides: the mice team (player 0) and the cat (player 1)."""
        return 2

    def roller(self):
        """At a die roll: the side that rolls."""
        return self.side

    def chance_is_roll(self):
        """A die roll the players make (the deal of face-down tiles is not shown)."""
        return self.phase == _ROLL

    def reveals(self):
        """The tile the last action turned face up, [square, kind], for the board to flip on
        the LEDs (no takeback goes back past it: engine/play.py); None."""
        return list(self.turned) if self.turned else None

    def current_player(self):
        """The player to act: the mice, the cat, CHANCE or TERMINAL."""
        if self.phase in (_DEAL, _ROLL):
            return CHANCE
        if self.phase == _OVER:
            return TERMINAL
        return CAT if self.phase == _PLACE else self.side

    def chance_outcomes(self):
        """At a chance node: the sorted (outcome, probability) pairs; else []."""
        if self.phase == _DEAL:
            # Shuffled tiles: the next square gets one of the tiles left, weighted by count.
            left = self._deck_left()
            total = sum(left)
            return [(KINDS[i], left[i] / total) for i in range(len(KINDS)) if left[i]]
        if self.phase == _ROLL:
            faces = self.rules["dice"][DIE[self.side]]
            return [(f, faces.count(f) / len(faces)) for f in sorted(set(faces))]
        return []

    def legal_actions(self):
        """The sorted legal actions of the player to act ([] at chance and terminal nodes)."""
        return decide(self.legal_steps())

    def legal_steps(self):
        """legal_actions() as a generator, stepped by the board's player a slice of a tick at a
        time (the paths of a 6 on the open floor took a Pico 16 ms in one go). The list is kept
        until the next action: the move's own check, its hint and the player's thinking list
        it once."""
        if self._legal_cache is not None:
            return self._legal_cache
        b = self.board
        phase = self.phase
        if phase == _PLACE:  # "zet de kat op een van de 6 vakjes van de tafel"
            squares = [sq for sq in range(b.n) if b.table[sq]]
        elif phase == PICK:  # "hij kiest de muis die hij wil verplaatsen"
            squares = []
            for m in range(4):
                if self.mice[m] >= 0 and (yield from self._reach(m, self.roll, True)):
                    squares.append(self.mice[m])
            squares.sort()
        elif phase == _MOVE:
            squares = yield from self._reach(self._who(), self.roll)
        elif phase == _BONUS:
            squares = yield from self._reach(self._who(), self.bonus)
        elif phase == _FREE:
            squares = free_squares(self, self._who(), self._here())
        elif phase == _TAKE:
            squares = self._takeable()
        else:  # chance and the end: no player acts
            self._legal_cache = []
            return self._legal_cache
        self._legal_cache = [b.ids[sq] for sq in squares] or [STAY]
        return self._legal_cache

    def apply_action(self, a):
        """Apply a legal action or chance outcome; ValueError (state unchanged) otherwise."""
        a = self._legal(a)
        self._legal_cache = self._picks_hinted = None
        self._log.append(self._code(a))
        self.turned = None
        phase = self.phase
        if phase == _DEAL:
            self.tiles[self.board.floor[self.dealt]] = a
            self.dealt += 1
            if self.dealt == len(self.board.floor):
                self.phase = _PLACE
        elif phase == _PLACE:
            self.cat = self.board.square(a)
            self._next_turn(_MICE, 0, False)  # "de jongste speler die een muis is, begint"
        elif phase == _ROLL:
            self.roll = a
            # After a knife the mice play the same mouse twice: no second pick.
            self.phase = PICK if self.side == _MICE and self.mover < 0 else _MOVE
        elif a == STAY:
            self._end_move()
        elif phase == PICK:
            self.mover = self.mice.index(self.board.square(a))
            self.phase = _MOVE
        elif phase == _TAKE:
            self.tiles[self.board.square(a)] = None  # "wint hij de kaas zonder zich te verplaatsen"
            self.cheese += 1
            self._end_move()
        else:
            if self.side == _MICE:
                self.out[self.mover] = True  # "dan draait hij het kaartje om van het muizenhol"
            land = phase != _FREE or self.rules["house"]["arrow_turns_tile"]
            self._go(self.board.square(a), land)

    def action_player(self, a):
        """The player who takes action `a` (always the player to act: no reaction windows)."""
        return self.current_player()

    def is_terminal(self):
        """True when a side has reached its goal (or the turn limit has ended the game)."""
        return self.phase == _OVER

    def winners(self):
        """[the mice (0)] or [CAT] at the end; [] before."""
        return [self.winner] if self.winner >= 0 else []

    def hint(self, a):
        """The squares to light for action (or chance outcome) `a`, and a short label."""
        a = self._legal(a)
        b = self.board
        if self.phase == _DEAL:  # never name the tile: it lies face down
            return {"spaces": [b.ids[b.floor[self.dealt]]], "text": "tile"}
        if self.phase == _ROLL:
            return {"spaces": [], "text": "roll %d" % a}
        if a == STAY:
            here = self._live_mice() if self.phase == PICK else [self._here()]
            return {"spaces": sorted(b.ids[sq] for sq in here), "text": "no move"}
        if self.phase == PICK:  # the mouse and where it could go
            hinted = self._picks_hinted
            if hinted is None:
                hinted = self._picks_hinted = {}
            if a not in hinted:
                m = self.mice.index(b.square(a))
                reach = decide(self._reach(m, self.roll))
                hinted[a] = {"spaces": sorted([a] + [b.ids[sq] for sq in reach]), "text": "mouse"}
            return hinted[a]
        if self.phase in (_PLACE, _TAKE):
            return {"spaces": [a], "text": "cat starts" if self.phase == _PLACE else "take cheese"}
        return {
            "spaces": sorted([b.ids[self._here()], a]),
            "text": "cat" if self.side == CAT else "mouse",
        }

    def view(self):
        """What the board shows: pieces, marks (a face-down tile only as "tile"), die, counters."""
        b = self.board
        ids = b.ids
        pieces = [[ids[sq], "mouse"] for sq in self.mice if sq >= 0]
        if self.cat >= 0:
            pieces.append([ids[self.cat], "cat"])
        tiles, out, marked = self.tiles, self.out, self._marked
        if marked is not None and marked[0] == tiles and marked[1] == out:
            marks = marked[2]
        else:
            self._marked = None  # (its heap back before the new marks are made)
            marks = []
            holes, table = b.holes, b.table
            for sq in range(b.n):  # square order is id order: the marks come sorted
                tile = tiles[sq]
                if sq in holes:
                    kind = "hole-open" if out[holes.index(sq)] else "hole-closed"
                elif table[sq]:  # the table hides the tile beneath; only whether one is left shows
                    kind = "table-tile" if tile else "table"
                elif tile == SHOWN:
                    kind = "cheese"
                elif tile:
                    kind = "tile"
                else:
                    continue
                marks.append([ids[sq], kind])
            self._marked = (list(tiles), list(out), marks)
        return {
            "turn": self.current_player(),
            "pieces": sorted(pieces),
            "marks": marks,
            "dice": [self.roll] if self.roll else [],
            "reveal": self.reveals(),
            "status": {
                "cheese": self.cheese,
                "goal": self.goal,
                "caught": self.mice.count(-1),
                "to_come_out": self.out.count(False),
                "home": int(self.home),
                "meter": [self.cheese, self.goal],
            },
        }

    def to_dict(self):
        """The whole state as plain data (State.from_dict rebuilds it)."""
        ids = self.board.ids
        d = {
            "options": dict(self.options),
            "log": binascii.hexlify(self._log).decode(),  # the history in hex (one byte an action)
            "cat": ids[self.cat] if self.cat >= 0 else None,
            "mice": [ids[sq] if sq >= 0 else None for sq in self.mice],
        }
        for key in _FIELDS:
            value = getattr(self, key)
            d[key] = list(value) if type(value) is list else value
        return d

    @classmethod
    def from_dict(cls, rules, d):
        """The state saved by to_dict; ValueError when `d` is malformed."""
        try:
            s = cls(rules, d["options"])
            s._log = s._read_log(d["log"])
            s.cat = s.board.square(d["cat"]) if d["cat"] is not None else -1
            s.mice = [s.board.square(sq) if sq is not None else -1 for sq in d["mice"]]
            for key in _FIELDS:
                value = d[key]
                if type(value) is not type(getattr(s, key)):
                    want = type(getattr(s, key)).__name__
                    raise ValueError("kitchen: state.%s expected %s, got %r" % (key, want, value))
                setattr(s, key, list(value) if type(value) is list else value)
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError(
                "kitchen: state expected the fields of to_dict, got %r" % (e,)
            ) from None
        if len(s.tiles) != s.board.n or len(s.mice) != 4 or len(s.out) != 4:
            raise ValueError("kitchen: state expected %d tiles and 4 mice" % s.board.n)
        if s.phase not in _PHASES:
            raise ValueError("kitchen: state.phase expected one of %s, got %r" % (_PHASES, s.phase))
        for sq, tile in enumerate(s.tiles):  # the module's own strings again: one copy in memory
            names = [k for k in KINDS + (SHOWN,) if k == tile]
            if tile is not None and not names:
                raise ValueError("kitchen: state.tiles expected kinds, got %r" % (tile,))
            s.tiles[sq] = names[0] if names else None
        return s

    def __eq__(self, other):
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    # -- turns and tiles ---------------------------------------------------------------------

    def _go(self, sq, land):
        """The moving piece goes to sq; if it lands there, what lies there happens."""
        if self.side == CAT:
            self.cat = sq
        else:
            self.mice[self.mover] = sq
        if land:
            self._land(sq)
        else:
            self._end_move()

    def _land(self, sq):
        """The piece stopped on sq: the cat catches a mouse, a mouse gets home, a tile turns."""
        b = self.board
        tile = self.tiles[sq]
        if self.side == CAT:
            m = self._mouse_on(sq)
            # "Als hij op een vak komt waar een muis staat: hij vangt de muis" -- but not one
            # hidden under the table, unless the house rule says so.
            if m >= 0 and (not b.table[sq] or self.rules["house"]["catch_under_table"]):
                self.mice[m] = -1
                if self._won():
                    return
            if b.table[sq]:
                tile = None  # the cat stands on the table top: the tiles lie beneath it
        elif sq in b.holes:
            self.home = True  # back in a hole (any free one): the cheese is brought home
        if tile is None:  # "wanneer een speler op een vakje komt waar geen tegelkaartje meer ligt"
            self._end_move()
        elif tile == SHOWN:  # only a mouse can stop here: it takes the cheese the cat left
            self.tiles[sq] = None
            self.cheese += 1
            self._end_move()
        else:
            # "Elke keer dat een kaartje wordt omgedraaid, wordt het uit het spel verwijderd."
            self.tiles[sq] = None
            self.turned = (b.ids[sq], tile)  # now public: the board shows it being turned
            self._act(tile, sq)

    def _act(self, tile, sq):
        """Do what the turned tile says."""
        if tile == _CHEESE:
            if self.side == _MICE:
                self.cheese += 1  # "het stukje kaas is gewonnen"
            else:
                self.tiles[sq] = SHOWN  # "hij laat het kaartje met de kaas naar boven liggen"
            self._end_move()
        elif tile == _PLUS1 or tile == _PLUS2:
            self.bonus = 1 if tile == _PLUS1 else 2
            self.phase = _BONUS
        elif tile == _ARROW:
            self.phase = _FREE
        elif tile == _FORK and self.side == _MICE and self._takeable():
            self.phase = _TAKE
        elif tile == _KNIFE:  # "zijn beurt is voorbij"; the other side rolls twice
            if not self._won():
                self._next_turn(1 - self.side, 1)
        else:  # a broken dish, or a fork for the cat or with no cheese to take: nothing
            self._end_move()

    def _end_move(self):
        """The move is over: check the goals, then the second roll or the other side's turn."""
        if self._won():
            return
        if self.extra:
            self.extra = 0
            self.roll = 0
            self.bonus = 0
            self.phase = _ROLL
        else:
            self._next_turn(1 - self.side, 0)

    def _next_turn(self, side, extra, count=True):
        if count:
            self.turns += 1
            if self.turns >= self.rules["win"]["turn_limit"]:
                self._finish(CAT)  # stalemate rule: the mice did not get the cheese home in time
                return
        self.side = side
        self.extra = extra
        self.mover = -1
        self.roll = 0
        self.bonus = 0
        self.phase = _ROLL

    def _won(self):
        """Finish the game if a side has reached its goal; True then."""
        if self.mice.count(-1) == 4:  # "het doel van de kat is om alle 4 muizen te vangen"
            self._finish(CAT)
        elif self.cheese >= self.goal:
            win = self.rules["win"]
            # "...moeten de muizen alle 4 minstens één keer uit hun hol zijn gekomen en ten
            # minste één van hen moet teruggekeerd zijn naar een hol"
            if (not win["all_out"] or all(self.out)) and (not win["one_home"] or self.home):
                self._finish(_MICE)
        return self.phase == _OVER

    def _finish(self, side):
        self.winner = side
        self.roll = 0
        self.phase = _OVER

    # -- where a piece may go (the rules per square are kitchen_moves.access) ---------------

    def _reach(self, m, steps, first=False):
        """The squares mouse m (the cat: m = -1) reaches in exactly `steps` steps (first: the
        first one found, or none), as a generator (kitchen_moves.search)."""
        start = self.cat if m < 0 else self.mice[m]
        return search(
            self.board, start, steps, access(self, m), self.rules["house"]["revisit"], first
        )

    # -- small helpers -----------------------------------------------------------------------

    def _legal(self, a):
        """The legal action or chance outcome equal to `a`; ValueError if there is none."""
        if self.phase in (_DEAL, _ROLL):
            choices = [o for o, _ in self.chance_outcomes()]
        else:
            choices = self.legal_actions()
        for c in choices:
            if type(c) is type(a) and c == a:  # `==` alone takes True for 1
                return c
        raise ValueError("kitchen: %s expected one of %r, got %r" % (self.phase, choices, a))

    def _code(self, a):
        # One byte an action: a square (< 240), a tile kind, a die face (1..6) or STAY.
        if a == STAY:
            return 255
        if type(a) is int and 1 <= a <= 6:
            return 247 + a
        if a in KINDS:
            return 240 + KINDS.index(a)
        return self.board.square(a, "history")

    def _read_log(self, text):
        # The history as to_dict saves it: in hex, every byte one that _code gives.
        try:
            log = bytearray(binascii.unhexlify(text))
        except ValueError:
            log = None
        n = self.board.n
        if log is None or any(n <= c < 240 or c == 247 or c == 254 for c in log):
            raise ValueError("kitchen: state.log expected the history in hex, got %r" % (text,))
        return log

    def _action(self, c):
        if c < 240:
            return self.board.ids[c]
        return STAY if c == 255 else KINDS[c - 240] if c < 247 else c - 247

    def _who(self):
        return -1 if self.side == CAT else self.mover  # the moving piece; the cat is -1

    def _here(self):
        return self.cat if self.side == CAT else self.mice[self.mover]

    def _takeable(self):
        # Fork: the visible cheeses the cat does not stand on ("wanneer de kat erop staat").
        return [sq for sq in range(self.board.n) if self.tiles[sq] == SHOWN and sq != self.cat]

    def _live_mice(self):
        return [sq for sq in self.mice if sq >= 0]

    def _mouse_on(self, sq):
        return self.mice.index(sq) if sq in self.mice else -1

    def _deck_left(self):
        deck = self.rules["deck"]
        left = [deck.get(k, 0) for k in KINDS]
        for tile in self.tiles:
            if tile:
                left[KINDS.index(tile)] -= 1
        return left
