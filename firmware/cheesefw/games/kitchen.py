"""The kitchen cat-and-mouse game (Chop! Chop!, Djeco 2017).

Rulebook: shared/seeds/004_4a20ab2640828fd3.txt (Dutch). Every place where it is ambiguous is
decided in docs/rules-kitchen.md, next to the sentence it interprets, with the test that checks it.

Player 0 plays the four mice together, player 1 is the cat. Squares are ids "a1".."f7" (column
letter, row number); kitchen_moves.py holds the board and the path search.
"""

from cheesefw.games import CHANCE, TERMINAL, as_action
from cheesefw.games.kitchen_moves import PASS, STOP, Board, check_rules, destinations

NAME = "kitchen"
OPTIONS = (
    ("short_game", (False, True)),  # play to the table's "short_cheese" goal instead of "cheese"
)

MICE = 0
CAT = 1
DIE = ("grey", "blue")  # "de muizen spelen met de grijze dobbelsteen en de kat met de blauwe"
STAY = "stay"  # the only action when the rolled piece(s) cannot move at all

# The tiles. A face-down tile is one of KINDS; a cheese the cat turned over stays as SHOWN.
ARROW = "arrow"
CHEESE = "cheese"
DISH = "dish"
FORK = "fork"
KNIFE = "knife"
PLUS1 = "plus1"
PLUS2 = "plus2"
KINDS = (ARROW, CHEESE, DISH, FORK, KNIFE, PLUS1, PLUS2)  # sorted: the deal's outcomes
SHOWN = "shown"

# The phases of a game, in the order they come.
DEAL = "deal"  # chance: the tile for the next floor square
PLACE = "place"  # the cat chooses its table square
ROLL = "roll"  # chance: the side to play rolls its die
MOVE = "move"  # the side moves (the mice: any one mouse) exactly the roll
BONUS = "bonus"  # +1/+2: the same piece moves that many more squares
FREE = "free"  # arrow: the same piece goes to any square it may stand on
TAKE = "take"  # fork: the mouse takes a visible cheese of its choice
OVER = "over"

_FIELDS = ("phase", "side", "tiles", "dealt", "out", "home", "cheese", "roll", "extra",
           "mover", "bonus", "turns", "winner")


class State:
    """One game in the kitchen: set-up, turns, tiles and the end, driven by actions."""

    def __init__(self, rules, options=None):
        self.rules = rules
        self.options = _options(options)
        self.board = board = Board(rules)
        check_rules(rules, board, KINDS)
        win = rules["win"]
        self.goal = win["short_cheese"] if self.options["short_game"] else win["cheese"]
        self.history = []
        # Set-up: the tiles are still to be dealt, a mouse sits in each hole, the cat is in the box.
        self.phase = DEAL
        self.side = MICE
        self.tiles = [None] * board.n  # a kind face down, SHOWN, or None (no tile left)
        self.dealt = 0  # floor squares dealt so far
        self.cat = -1  # square, -1 until placed
        self.mice = list(board.holes)  # square of each mouse, -1 once caught
        self.out = [False] * 4  # has mouse m come out (its hole card turned over)?
        self.home = False  # has a mouse come back to a hole?
        self.cheese = 0  # cheeses the mice hold
        self.roll = 0  # the die on show, 0 when none
        self.extra = 0  # rolls still to come this turn after this one (a knife gives 1)
        self.mover = -1  # the mouse that moved this turn (a double turn keeps it)
        self.bonus = 0  # steps of a +1/+2 still to go
        self.turns = 0  # turns played, for the turn limit
        self.winner = -1

    # -- the contract ------------------------------------------------------------------------

    def current_player(self):
        """The player to act: MICE, CAT, CHANCE or TERMINAL."""
        if self.phase in (DEAL, ROLL):
            return CHANCE
        if self.phase == OVER:
            return TERMINAL
        return CAT if self.phase == PLACE else self.side

    def chance_outcomes(self):
        """At a chance node: the sorted (outcome, probability) pairs; else []."""
        if self.phase == DEAL:
            # Shuffled tiles: the next square gets one of the remaining tiles, weighted by count.
            left = self._deck_left()
            total = sum(left)
            return [(KINDS[i], left[i] / total) for i in range(len(KINDS)) if left[i]]
        if self.phase == ROLL:
            faces = self.rules["dice"][DIE[self.side]]
            p = 1.0 / len(faces)
            return [(f, faces.count(f) * p) for f in sorted(set(faces))]
        return []

    def legal_actions(self):
        """The sorted legal actions of the player to act ([] at chance and terminal nodes)."""
        ids = self.board.ids
        phase = self.phase
        if phase == PLACE:  # "zet de kat op een van de 6 vakjes van de tafel"
            return [ids[sq] for sq in range(self.board.n) if self.board.table[sq]]
        if phase == MOVE and self.side == MICE:
            acts = []
            for m in range(4):
                # "per beurt mag er maar 1 muis worden verplaatst"; after a knife: the same one.
                if self.mice[m] >= 0 and self.mover in (-1, m):
                    for sq in self._reach(m, self.roll):
                        acts.append(self.board.moves[m][sq])
            return acts or [STAY]
        if phase == MOVE:
            squares = self._reach(-1, self.roll)
        elif phase == BONUS:
            squares = self._reach(self._who(), self.bonus)
        elif phase == FREE:
            squares = self._free_squares()
        elif phase == TAKE:
            squares = self._takeable()
        else:
            return []
        return [ids[sq] for sq in squares] or [STAY]

    def apply_action(self, a):
        """Apply a legal action or chance outcome; ValueError (state unchanged) otherwise."""
        a = self._legal(a)  # the game's own copy: the history then allocates nothing per move
        self.history.append(a)
        phase = self.phase
        if phase == DEAL:
            self.tiles[self.board.floor[self.dealt]] = a
            self.dealt += 1
            if self.dealt == len(self.board.floor):
                self.phase = PLACE
        elif phase == PLACE:
            self.cat = self.board.square(a)
            self._next_turn(MICE, 0, count=False)  # "de jongste speler die een muis is, begint"
        elif phase == ROLL:
            self.roll = a
            self.phase = MOVE
        elif a == STAY:
            self._end_move()
        elif phase == MOVE and self.side == MICE:
            m = a[0]
            self.out[m] = True  # "dan draait hij het kaartje om van het muizenhol" (it came out)
            self.mover = m
            self._go(self.board.square(a[1]), True)
        elif phase == TAKE:
            self.tiles[self.board.square(a)] = None  # "wint hij de kaas zonder zich te verplaatsen"
            self.cheese += 1
            self._end_move()
        else:  # the cat's move, a +1/+2, an arrow
            self._go(self.board.square(a), phase != FREE or self.rules["house"]["chain_tiles"])

    def action_player(self, a):
        """The player who takes action `a` (always the player to act: no reaction windows)."""
        return self.current_player()

    def is_terminal(self):
        """True when one side has reached its goal (or the turn limit has ended the game)."""
        return self.phase == OVER

    def winners(self):
        """[MICE] or [CAT] at the end; [] before."""
        return [self.winner] if self.winner >= 0 else []

    def hint(self, a):
        """The squares to light for action (or chance outcome) `a`, and a short label."""
        self._legal(a)
        if self.phase in (DEAL, ROLL):
            if self.phase == DEAL:  # never name the tile: it lies face down
                return {"spaces": [self.board.ids[self.board.floor[self.dealt]]], "text": "tile"}
            return {"spaces": [], "text": "roll %d" % a}
        ids = self.board.ids
        if a == STAY:
            here = [self._mover()] if self.side == CAT or self.mover >= 0 else self._live_mice()
            return {"spaces": sorted(ids[sq] for sq in here), "text": "no move"}
        if self.phase == PLACE:
            return {"spaces": [a], "text": "cat starts"}
        if self.phase == TAKE:
            return {"spaces": [a], "text": "take cheese"}
        if self.phase == MOVE and self.side == MICE:
            return {"spaces": sorted([ids[self.mice[a[0]]], a[1]]), "text": "mouse %d" % a[0]}
        word = "cat" if self.side == CAT else "mouse"
        return {"spaces": sorted([ids[self._mover()], a]), "text": word}

    def view(self):
        """What the board shows: pieces, marks (face-down tiles only as "tile"), die, counters."""
        b = self.board
        ids = b.ids
        pieces = [[ids[sq], "mouse"] for sq in self.mice if sq >= 0]
        if self.cat >= 0:
            pieces.append([ids[self.cat], "cat"])
        marks = []
        for sq in range(b.n):
            tile = self.tiles[sq]
            if sq in b.holes:
                kind = "hole-open" if self.out[b.holes.index(sq)] else "hole-closed"
            elif b.table[sq]:  # the table hides the tile beneath; only "is there one" shows
                kind = "table-tile" if tile else "table"
            elif tile == SHOWN:
                kind = "cheese"
            elif tile:
                kind = "tile"
            else:
                continue
            marks.append([ids[sq], kind])
        return {
            "turn": self.current_player(),
            "pieces": sorted(pieces),
            "marks": marks,  # in square order, which is id order
            "dice": [self.roll] if self.roll else [],
            "status": {"cheese": self.cheese, "goal": self.goal, "caught": self.mice.count(-1),
                       "to_come_out": self.out.count(False), "home": int(self.home)},
        }

    def to_dict(self):
        """The whole state as plain data (State.from_dict rebuilds it)."""
        ids = self.board.ids
        d = {"options": dict(self.options), "history": [_plain(a) for a in self.history],
             "cat": ids[self.cat] if self.cat >= 0 else None,
             "mice": [ids[sq] if sq >= 0 else None for sq in self.mice]}
        for key in _FIELDS:
            value = getattr(self, key)
            d[key] = list(value) if type(value) is list else value
        return d

    @classmethod
    def from_dict(cls, rules, d):
        """The state saved by to_dict; ValueError when `d` is malformed."""
        try:
            s = cls(rules, d["options"])
            s.history = [s._shared(as_action(a)) for a in d["history"]]
            s.cat = s.board.square(d["cat"]) if d["cat"] is not None else -1
            s.mice = [s.board.square(sq) if sq is not None else -1 for sq in d["mice"]]
            for key in _FIELDS:
                value = d[key]
                if type(value) is not type(getattr(s, key)):
                    raise ValueError("kitchen: state.%s expected %s, got %r"
                                     % (key, type(getattr(s, key)).__name__, value))
                setattr(s, key, list(value) if type(value) is list else value)
        except (KeyError, TypeError, AttributeError) as e:
            raise ValueError("kitchen: state expected the fields of to_dict, got %r" % (e,))
        if len(s.tiles) != s.board.n or len(s.mice) != 4 or len(s.out) != 4:
            raise ValueError("kitchen: state expected %d tiles and 4 mice" % s.board.n)
        return s

    def __eq__(self, other):
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    def _legal(self, a):
        """The legal action or chance outcome equal to `a`; ValueError if there is none."""
        if self.phase in (DEAL, ROLL):
            choices = [o for o, _ in self.chance_outcomes()]
        else:
            choices = self.legal_actions()
        for c in choices:
            # `==` alone would take True for 1 and (False, "a1") for (0, "a1"): compare types too.
            if type(c) is type(a) and c == a and (type(c) is not tuple or _same_types(c, a)):
                return c
        raise ValueError("kitchen: %s expected one of %r, got %r" % (self.phase, choices, a))

    # -- turns and tiles ---------------------------------------------------------------------

    def _go(self, sq, land):
        """The moving piece goes to sq; if it `land`s there, what lies there happens."""
        if self.side == CAT:
            self.cat = sq
        else:
            self.mice[self.mover] = sq
        if land:
            self._land(sq)
        else:
            self._end_move()

    def _land(self, sq):
        """The piece stopped on sq: the cat catches a mouse; a mouse comes home; a tile turns."""
        b = self.board
        tile = self.tiles[sq]
        if self.side == CAT:
            m = self._mouse_on(sq)
            # "Als hij op een vak komt waar een muis staat: hij vangt de muis" (not one hidden
            # under the table, unless the house rule says so).
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
            self.tiles[sq] = None  # "elke keer dat een kaartje wordt omgedraaid, wordt het verwijderd"
            self._act(tile, sq)

    def _act(self, tile, sq):
        """Do what the turned tile says."""
        if tile == CHEESE:
            if self.side == MICE:
                self.cheese += 1
            else:
                self.tiles[sq] = SHOWN  # the cat leaves it face up and stands on it
            self._end_move()
        elif tile == PLUS1 or tile == PLUS2:
            self.bonus = 1 if tile == PLUS1 else 2
            self.phase = BONUS
        elif tile == ARROW:
            self.phase = FREE
        elif tile == FORK and self.side == MICE and self._takeable():
            self.phase = TAKE
        elif tile == KNIFE:  # the turn ends at once; the other side rolls twice
            if not self._won():
                self._next_turn(1 - self.side, 1)
        else:  # a broken dish, a fork for the cat or with no cheese to take: nothing
            self._end_move()

    def _end_move(self):
        """The move is over: check the goals, then the next roll (same side) or the next turn."""
        if self._won():
            return
        if self.extra:
            self.extra = 0
            self.roll = 0
            self.bonus = 0
            self.phase = ROLL
        else:
            self._next_turn(1 - self.side, 0)

    def _next_turn(self, side, extra, count=True):
        if count:
            self.turns += 1
            if self.turns >= self.rules["win"]["turn_limit"]:
                self._finish(CAT)  # stalemate rule: the mice did not bring the cheese home in time
                return
        self.side = side
        self.extra = extra
        self.mover = -1
        self.roll = 0
        self.bonus = 0
        self.phase = ROLL

    def _won(self):
        """Finish the game if a side has reached its goal; True then."""
        if self.mice.count(-1) == 4:  # "het doel van de kat is om alle 4 muizen te vangen"
            self._finish(CAT)
        elif self.cheese >= self.goal:
            win = self.rules["win"]
            # "...moeten de muizen alle 4 minstens één keer uit hun hol zijn gekomen en ten minste
            # één van hen moet teruggekeerd zijn naar een hol"
            if (not win["all_out"] or all(self.out)) and (not win["one_home"] or self.home):
                self._finish(MICE)
        return self.phase == OVER

    def _finish(self, side):
        self.winner = side
        self.roll = 0
        self.phase = OVER

    # -- where pieces may go -----------------------------------------------------------------

    def _reach(self, m, steps):
        """Squares mouse m (or the cat, m = -1) reaches with exactly `steps` steps."""
        start = self.cat if m < 0 else self.mice[m]
        return destinations(self.board, start, steps, self._access(m),
                            self.rules["house"]["revisit"])

    def _access(self, m):
        """For each square: may mouse m (the cat, m = -1) PASS through it, STOP on it?"""
        b = self.board
        acc = bytearray(b.open)
        if m < 0:
            for h in b.holes:
                acc[h] = 0  # the holes are the mice's: the cat never goes in one
            for sq in range(b.n):
                if self.tiles[sq] == SHOWN:
                    acc[sq] = 0  # "de kat mag niet meer over zichtbare stukken kaas lopen"
            for sq in self._live_mice():
                if not b.table[sq]:
                    acc[sq] = STOP  # go round a mouse, or land on it and catch it
            for k in range(4):
                if not self.out[k]:
                    for sq in b.fronts[k]:
                        acc[sq] &= PASS  # "mag de kat niet voor het hol gaan staan"
        else:
            for k in range(4):
                if k != m and self.mice[k] >= 0:
                    acc[self.mice[k]] = 0  # no jumping over a mouse; a hole holds one mouse
            if self.cat >= 0 and not b.table[self.cat]:
                acc[self.cat] = 0  # go round the cat (on the table it is above the mice)
        return acc

    def _free_squares(self):
        """Arrow: every square the moving piece may stand on, bar its own."""
        b = self.board
        m = self._who()
        acc = self._access(m)
        here = self._mover()
        squares = []
        for sq in range(b.n):
            if not acc[sq] & STOP or sq == here:
                continue
            if m < 0 and self._mouse_on(sq) >= 0:
                continue  # the cat: not onto a mouse (nor above one under the table)
            if m >= 0 and (sq in b.holes or self.tiles[sq] == SHOWN):
                continue  # a mouse: not into a hole, not onto a visible cheese
            squares.append(sq)  # the cat: holes, visible cheese were never open to it
        return squares

    def _takeable(self):
        """Fork: the visible cheeses the cat does not stand on."""
        return [sq for sq in range(self.board.n) if self.tiles[sq] == SHOWN and sq != self.cat]

    # -- small helpers -----------------------------------------------------------------------

    def _shared(self, a):
        # A mouse move read back from JSON becomes the board's shared tuple again.
        if type(a) is tuple and len(a) == 2 and type(a[0]) is int and 0 <= a[0] < 4 \
                and a[1] in self.board.ids:
            return self.board.moves[a[0]][self.board.ids.index(a[1])]
        return a

    def _who(self):
        return -1 if self.side == CAT else self.mover  # the moving piece: the cat is -1

    def _mover(self):
        return self.cat if self.side == CAT else self.mice[self.mover]

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


def _options(options):
    chosen = {}
    for key, values in OPTIONS:
        chosen[key] = values[0]
    for key in options or {}:
        allowed = [v for k, v in OPTIONS if k == key]
        if not allowed or not [v for v in allowed[0] if type(v) is type(options[key])
                                   and v == options[key]]:
            raise ValueError("kitchen: option %r expected one of %r, got %r"
                             % (key, allowed[0] if allowed else [k for k, _ in OPTIONS],
                                options[key]))
        chosen[key] = options[key]
    return chosen


def _same_types(c, a):
    for i in range(len(c)):
        if type(c[i]) is not type(a[i]):
            return False
    return True


def _plain(a):
    return list(a) if type(a) is tuple else a
