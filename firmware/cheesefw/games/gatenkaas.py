"""Gatenkaas: cards with holes laid overlapping, so that mice are blocked or eat through.

Rulebook: shared/seeds/000_35736e0406603663.txt (English). Where it is ambiguous the decision is
in docs/rules.md, next to the sentence it interprets, with the test that checks it. The deck
and play area are gatenkaas_deck.py's, the cards on the table gatenkaas_layout.py's.

Seat s plays the mice of colour s. Actions are ints, so that the legal placements of a whole
hand cost no heap: a placement is `(card * 4 + turn) * 256 + cell` (sorted: by card, then
turn, then the corner cell in reading order), DISCARD + card sets a card aside when none can
be laid. Chance outcomes are card ids (the deal and each draw) and a seat (the lot).
"""

from cheesefw import const
from cheesefw.games import CHANCE, TERMINAL, History
from cheesefw.games.gatenkaas_deck import (  # noqa: F401 (where a card is: for the tests too)
    DISCARD,
    HAND,
    MOUSE,
    OUT,
    PILE,
    REMOVED,
    TABLE,
    Deck,
    check_rules,
    placement,
    unpack,
)
from cheesefw.games.gatenkaas_layout import Layout, first_at
from cheesefw.games.gatenkaas_placing import placing
from cheesefw.games.replayed import Replayed

NAME = "gatenkaas"
OPTIONS = (
    ("players", (3, 4, 2)),
    ("hands", ("hidden", "open")),  # "open": every hand may be seen (for children)
)

# The phases, in the order they come: private constants, so that the board keeps the strings
# (which its view and log say anyway) and not a name for each.
_DEAL = const("deal")  # chance: "Each player draws 5 cards" (one card a node, round the table)
_LOT = const("lot")  # chance: "Determine a starting player by lot"
_PLAY = const("play")  # the player lays a card (or, with none that can be laid, discards one)
_DRAW = const("draw")  # chance: "They draw a new card from the draw pile"
_OVER = const("over")

_COLOUR_KEYS = const(("0", "1", "2", "3"))  # a mouse's (and its seat's) palette key
_BODIES = const(("card0", "card1", "card2"))  # card bodies in three tints, so that edges show


def check_table(rules):
    """The Deck of a rule table, checked as play reads it (ValueError naming the field)."""
    try:
        deck = Deck(rules)
        check_rules(rules, deck)
    except (TypeError, KeyError, IndexError, AttributeError) as e:
        raise ValueError("gatenkaas rules: malformed table (%s: %s)"
                         % (type(e).__name__, e)) from None
    return deck


def bot_move(state, rng, level="strong"):
    """The board's choice for the seat to act (its rng: the engine's seeded source)."""
    from cheesefw.games import decide, gatenkaas_bot

    return decide(gatenkaas_bot.think(state, rng, level))


class State(Replayed):
    """One game of Gatenkaas, driven by actions and chance outcomes."""

    def __init__(self, rules, options=None):
        self.deck = deck = check_table(rules)
        self.options = _options(options, rules["players"])
        self.hand_size = rules["hand"]
        self.supply = rules["cheese"]
        self.tally_ids = rules["side_spaces"]  # per seat a row of pixels: its cheese
        n = self.options["players"]
        self.layout = Layout(deck)
        self._log = bytearray()  # two bytes an action (see history)
        # Setup: "Place the start card ... face up in the middle of the table".
        self.laid = []  # the placements on the table, in the order laid (the start card first)
        self.where = bytearray(deck.size)
        self._lay(placement(0, deck.start[1], deck.start[2], deck.start[3], deck.cols))
        out = rules["cats_out"].get(str(n), 0)
        for c in range(deck.cats, deck.cats - out, -1):
            self.where[c] = REMOVED  # the last cat cards of the table go out
        self.phase = _DEAL
        self.player = 0  # at the deal: whose card comes next; in play, at a draw: the seat on turn
        self.dealt = 0
        self.cheese = [0] * n
        self._legal_at = -1  # len(history) when _legal_cache was computed
        self._legal_cache = []
        # (the table's cells and the cheese as the last view read them, and its marks): a move
        # that leaves them as they were gives the next view the same marks, found by comparisons
        # in C, and the painter passes them over by identity; one that lays a card changes
        # them under the card (_marks).
        self._marked = None

    # -- the contract ------------------------------------------------------------------------

    @property
    def history(self):
        """The actions and chance outcomes applied, decoded on demand (two bytes each)."""
        log = self._log
        return History(lambda: len(log) // 2,
                       lambda: (log[i] << 8 | log[i + 1] for i in range(0, len(log), 2)),
                       lambda c: c)

    def num_players(self):
        return self.options["players"]

    def chance_is_roll(self):
        """No die in this game: the shuffle, the deal, the draws and the lot are never shown."""
        return False

    def roller(self):
        return self.player

    def current_player(self):
        if self.phase in (_DEAL, _LOT, _DRAW):
            return CHANCE
        return TERMINAL if self.phase == _OVER else self.player

    def chance_outcomes(self):
        """Sorted (outcome, probability): a card of the shuffled pile, or a seat by lot."""
        if self.phase == _LOT:
            n = self.num_players()
            return [(s, 1 / n) for s in range(n)]
        if self.phase in (_DEAL, _DRAW):
            pile = self.pile()
            p = 1 / len(pile)  # (one float for them all)
            return [(c, p) for c in pile]
        return []

    def legal_actions(self):
        """The sorted legal placements of the player on turn; DISCARD + card when none."""
        if self._legal_at == len(self._log) and self.phase == _PLAY:
            return self._legal_cache  # (a move's check asks again: no generator made for it)
        steps = self.legal_steps()
        try:
            while True:
                next(steps)
        except StopIteration as done:
            return done.value

    def legal_steps(self):
        """legal_actions() as a generator that yields between pieces of its work (the board's
        player steps it over ticks); returns the same list."""
        if self.phase != _PLAY:
            return []
        if self._legal_at != len(self._log):
            hand = self.hand(self.player)
            legal = yield from placing(self, hand)
            self._legal_cache = legal if len(legal) else [DISCARD + c for c in hand]
            self._legal_at = len(self._log)
        return self._legal_cache

    def apply_action(self, a):
        """Apply a legal action or chance outcome; ValueError (state unchanged) otherwise."""
        self._check(a)
        self._log.append(a >> 8)
        self._log.append(a & 255)
        phase = self.phase
        n = self.num_players()
        if phase == _DEAL:
            self.where[a] = HAND + self.player
            self.dealt += 1
            self.player = self.dealt % n
            if self.dealt == n * self.hand_size:
                self.phase = _LOT
        elif phase == _LOT:
            self.player = a
            self.phase = _PLAY
        elif phase == _DRAW:
            self.where[a] = HAND + self.player
            self._next_player()
        elif a >= DISCARD:
            self.where[a - DISCARD] = OUT
            self._after_play()
        else:
            card, turn, cell = unpack(a)
            # "the owners of the mice that are visible through the holes ... receive 1 piece of
            # cheese" (cat cards alike: "as usual, each receives 1 piece of cheese")
            for k in self.layout.seen_through(card, cell, turn):
                if k < n and sum(self.cheese) < self.supply:
                    self.cheese[k] += 1
            self._lay(a)
            self._after_play()

    def is_terminal(self):
        return self.phase == _OVER

    def points(self):
        """Per seat: "the pieces of cheese" + "1 point for each visible mouse in their colour"."""
        seen = self.layout.count_seen(4)
        return [self.cheese[s] + seen[s] for s in range(self.num_players())]

    def winners(self):
        """The most points; "In case of a tie, the player with the most pieces of cheese wins"."""
        if self.phase != _OVER:
            return []
        points = self.points()
        best = [s for s in range(len(points)) if points[s] == max(points)]
        most = max(self.cheese[s] for s in best)
        return [s for s in best if self.cheese[s] == most]

    def ranking(self):
        """Seats from first to last by (points, cheese); equal seats by seat number."""
        points = self.points()
        return sorted(range(len(points)), key=lambda s: (-points[s], -self.cheese[s], s))

    def group(self, a):
        """The hand card action `a` lays (or sets aside): a long press of next skips to the
        next card's placements."""
        return a - DISCARD if a >= DISCARD else a >> 10

    def private(self):
        """True while the legal actions show the hand of the seat on turn, which the others
        may not see (the engine then shows them only while that player holds a button)."""
        return self.phase == _PLAY and self.options["hands"] == "hidden"

    def reveals(self):
        """True after a move that showed the others something new (the engine then takes no
        move back past it): with hidden hands, every card laid or set aside came out of a hand
        nobody else saw -- taken back, a card every player has seen would go back into it
        (docs/rules.md, "Taking a move back"). Nothing to flip on the LEDs: the redraw shows
        the card where it lies."""
        return self.options["hands"] == "hidden"

    def hint(self, a):
        """What to light for action `a`: the card as a ghost on the cells it would cover."""
        self._check(a)
        if self.phase != _PLAY:  # never name the card drawn: it is face down
            return {"spaces": [], "text": "draw" if self.phase != _LOT else "lot"}
        # Which card of the hand, as 1 to 5 grey pips on the die pixels: two cards alike but
        # for a half turn give the same ghost, and the discards none (docs/led-language.md).
        card = a - DISCARD if a >= DISCARD else unpack(a)[0]
        pips = ["ghost"] * (self.hand(self.player).index(card) + 1)
        if a >= DISCARD:
            return {"spaces": [], "text": "discard card %d" % card, "mark": "discard",
                    "dice": pips}
        card, turn, cell = unpack(a)
        d = self.deck
        face = d.faces[card]
        cells = self.layout.cells_of(cell, turn)
        body = "cat" if d.is_cat(card) else "ghost"
        ghost = []
        for i in range(len(face)):
            kind = face[i]
            ghost.append([d.cell_id(cells[i]), "ghost-hole" if kind == 1 else
                          _COLOUR_KEYS[kind - MOUSE] if kind >= MOUSE else body])
        blocked = self.layout.judge(card, cell, turn)
        fed = len(self.layout.seen_through(card, cell, turn))
        return {"spaces": sorted(g[0] for g in ghost), "ghost": sorted(ghost), "dice": pips,
                "text": "%s %d: blocks %d, feeds %d" % ("cat" if d.is_cat(card) else "card",
                                                        card, blocked, fed)}

    def view(self):
        """The table as one sees it (never a hand nor the pile's order), and the counters."""
        return {"turn": self.current_player(), "pieces": [], "marks": self._marks(),
                "dice": [], "status": self.status()}

    def status(self):
        """The counters: cheese and points per seat, the pile, the hands' sizes, the supply."""
        where = self.where  # (counted in C: a walk of every card a seat took a Pico 0.3 ms)
        pile = where.count(bytes((PILE,))) - (where[0] == PILE)  # (card 0 starts the table)
        return {
            "cheese": list(self.cheese),
            "points": self.points(),
            "pile": pile,
            "hands": [where.count(bytes((HAND + s,))) for s in range(self.num_players())],
            "supply": self.supply - sum(self.cheese),
            "meter": [pile, self.deck.size],
        }

    def to_dict(self):
        d = {"options": dict(self.options), "history": list(self.history),
             "laid": list(self.laid), "where": list(self.where)}
        for key in ("phase", "player", "dealt", "cheese"):
            value = getattr(self, key)
            d[key] = list(value) if type(value) is list else value
        return d

    # -- cards -------------------------------------------------------------------------------

    def hand(self, seat):
        """The cards in a seat's hand, sorted (hidden information: never in view())."""
        mine = HAND + seat
        where = self.where  # (a local: a move's tick looks at the hands and the pile often)
        return [c for c in range(len(where)) if where[c] == mine]

    def pile(self):
        """The cards of the face-down pile, sorted by id (their order is the chance nodes')."""
        where = self.where
        return [c for c in range(1, len(where)) if where[c] == PILE]  # (card 0 starts)

    def _marks(self):
        """The marks, kept from the last view and changed where the table changed since: a move
        lays a card, and may give a seat cheese. Made anew (a walk of every cell, each space id
        made anew: 15 ms of a Pico on the 16x16 table) only when more changed than the last
        card's cells, say after a move taken back."""
        lay = self.layout
        marked = self._marked
        if marked is not None:
            seen, shown, cheese, cells, marks = marked
            if seen == lay.seen and shown == lay.shown and cheese == self.cheese:
                return marks  # (compared in C; the painter passes the same list over at once)
            marks = list(marks)  # (the last view's list is not changed)
            if self.laid:
                _, turn, corner = unpack(self.laid[-1])
                for c in lay.cells_of(corner, turn):
                    self._mark_cell(marks, cells, c)
                    seen[c], shown[c] = lay.seen[c], lay.shown[c]
            if seen == lay.seen and shown == lay.shown:
                for s in range(len(cheese)):
                    if cheese[s] != self.cheese[s]:
                        for old in self._tally(s, cheese[s]):
                            marks.remove(old)
                        for new in self._tally(s, self.cheese[s]):
                            marks.insert(first_at(marks, new), new)
                        cheese[s] = self.cheese[s]
                self._marked = (seen, shown, cheese, cells, marks)
                return marks
        self._marked = None  # (its heap back before the new marks are made)
        cells = {}  # (a dict, not a list of every cell: the game's start is short of heap)
        marks = []
        for c in range(self.deck.n):
            kind = self._kind(c)
            if kind is not None:
                cells[c] = mark = (self.deck.cell_id(c), kind)
                marks.append(mark)
        for s in range(self.num_players()):
            marks.extend(self._tally(s, self.cheese[s]))
        marks.sort()
        # (the cells and the cheese as this view read them, each cell's mark, the marks)
        self._marked = (bytearray(lay.seen), bytearray(lay.shown), list(self.cheese), cells, marks)
        return marks

    def _mark_cell(self, marks, cells, c):
        """Cell c's mark, (space, kind), in the sorted marks as the table shows it now (cells:
        each cell's mark that marks holds): changed in its place, or put in its place in the
        order. A cell's space id is made once: a new string costs a Pico some 150 us (the VM
        looks for it among the names it knows), and each mark took three."""
        old = cells.get(c)
        kind = self._kind(c)
        if kind is None:
            if old is not None:
                marks.remove(old)
                del cells[c]
        elif old is None:
            cells[c] = new = (self.deck.cell_id(c), kind)
            marks.insert(first_at(marks, new), new)  # (sorting again: C's quicksort on a
            # sorted list, its worst case)
        elif kind != old[1]:
            marks[marks.index(old)] = cells[c] = (old[0], kind)

    def _kind(self, c):
        """What cell c shows: the mouse seen there (its seat's palette key), else the face up
        card's body or cat; None for the bare table."""
        lay = self.layout
        seen = lay.seen[c]
        if seen:
            return _COLOUR_KEYS[seen - 1]
        shown = lay.shown[c]
        if shown:
            card = shown - 1
            return "cat" if self.deck.is_cat(card) else _BODIES[card % 3]
        return None

    def _tally(self, s, cheese):
        """A seat's cheese on its row of tally spaces, (space, kind) each: past a full row, a
        second lap."""
        per = len(self.tally_ids) // 4
        return [(self.tally_ids[s * per + j % per], _COLOUR_KEYS[s] if j < per else "lap")
                for j in range(min(cheese, 2 * per))]

    def _lay(self, a):
        card, turn, cell = unpack(a)
        self.layout.lay(card, cell, turn)
        self.laid.append(a)
        self.where[card] = TABLE

    def _after_play(self):
        """"They draw a new card" -- "Drawing a card lapses as soon as the face-down pile is
        empty"; the game ends when the pile is empty and nobody has any cards left in hand."""
        if self.where.find(bytes((PILE,)), 1) >= 0:  # (a card in the pile: card 0 starts)
            self.phase = _DRAW
        else:
            self._next_player()

    def _next_player(self):
        n = self.num_players()
        for step in range(1, n + 1):  # clockwise, past seats whose hands are played out
            seat = (self.player + step) % n
            if self.hand(seat):
                self.player = seat
                self.phase = _PLAY
                return
        self.phase = _OVER

    def _check(self, a):
        """ValueError unless `a` is a legal action or chance outcome now."""
        if self.phase in (_DEAL, _DRAW):
            # A card of the pile, asked of the card itself: the pile's list took a Pico 0.3-0.5
            # ms, in a tick that lists it for the draw already.
            where = self.where
            if type(a) is int and 0 < a < len(where) and where[a] == PILE:
                return
            ok = self.pile()  # (the outcomes, without their probabilities: for the error)
        elif self.phase == _LOT:
            ok = range(self.num_players())
        else:
            ok = self.legal_actions()
        if type(a) is not int or a not in ok:
            raise ValueError("gatenkaas: %s expected one of %d legal %s, got %r"
                             % (self.phase, len(ok), "outcomes" if self.phase != _PLAY
                                else "placements", a))


def _options(options, players):
    """The options checked against OPTIONS, defaults filled in, by the reader every game shares
    (table_fields), which the board lets go of at once; and against the table's players."""
    from cheesefw.modules import forget
    from cheesefw.table_fields import choose_options

    try:
        chosen = choose_options(NAME, OPTIONS, options)
    finally:
        forget("cheesefw.table_fields")
    if not players["min"] <= chosen["players"] <= players["max"]:
        raise ValueError("gatenkaas: option 'players' expected %d..%d (rules.players), got %d"
                         % (players["min"], players["max"], chosen["players"]))
    return chosen

