"""Kalle Kanalratte (HABA 4544, 2007, Roberto Fraga): the rat hides, the guard searches.

Rulebook: shared/seeds/003_7b6a675038ffea5e.txt. Where it is ambiguous the decision is in
docs/rules.md, next to the sentence it interprets, with the test that checks it.

A round: the 16 animals are dealt face down (a chance node the board never shows); the starter
hides the rat by swapping it with one card (a secret action: the board is dark but for the
starter's cursor, and the log shows "?" until the game is over); the searcher on the starter's
right places the guard; then searchers, in turn from the starter's left, move the guard to an
adjacent card and turn it; after each search that does not find the rat the starter may swap two
adjacent cards, never the guard's. The eighth card turned without the rat: the starter turns the
card they believe hides it (first, in the last-chance variant, every searcher names a card).

Cards are ids "a1".."d4" (kalle_table.py); actions: a card id, a pair of card ids (a swap),
KEEP (no swap), NEXT (the next round), and an animal's index at the deal; one byte each.
"""

from cheesefw import const
from cheesefw.games import CHANCE, TERMINAL, History
from cheesefw.games.kalle_table import (
    DEAL,
    GUESS,
    HIDE,
    KEEP,
    LAST,
    NEXT,
    OVER,
    PLACE,
    SEARCH,
    SHOW,
    SWAP,
    Grid,
    check_rules,
)
from cheesefw.games.replayed import Replayed
from cheesefw.table_fields import choose_options

NAME = "kalle"
OPTIONS = (
    ("players", (2, 3, 4, 5)),
)  # which seats the board plays (bot_move) is the menu's seat step, for every game

RAT = 0  # card kinds: 0 the rat, 1.. the animals in the table's order

_UNDEALT = const(255)
_PAIRS = const(40)  # history codes: cards 0..35, swaps from 40, deals from 160, KEEP and NEXT last
_DEALS = const(160)


def check_table(rules):
    """The Grid of a rule table, checked as play reads it (ValueError naming the field)."""
    try:
        grid = Grid(rules)
        check_rules(rules, grid)
    except (TypeError, KeyError, IndexError, AttributeError) as e:
        raise ValueError("kalle rules: malformed table (%s: %s)" % (type(e).__name__, e)) from None
    return grid


def bot_move(state, rng, level="strong"):
    """The board's action for the seat to act (kalle_bot.py); rng: the engine's seeded source."""
    from cheesefw.games import decide, kalle_bot

    return decide(kalle_bot.think(state, rng, level))


class State(Replayed):
    """One game of Kalle Kanalratte: rounds of hiding, searching and swapping, driven by actions."""

    def __init__(self, rules, options=None):
        self.grid = check_table(rules)
        self.names = [rules["cards"]["rat"]] + rules["cards"]["animals"]
        self.options = choose_options(NAME, OPTIONS, options)
        n = self.options["players"]
        self.players = n
        self.rounds = n * rules["rounds"][str(n)]  # "each one has been the starting player ..."
        self.uncover = rules["uncover"]
        self.search_limit = rules["search_limit"]
        self.must_swap = rules["house"]["must_swap"]
        self.last_chance = rules["house"]["last_chance"]
        self._log = bytearray()  # the history, one byte an action (see _code)
        self.cheese = [0] * n
        self.round = 0
        self.starter = 0  # the board's seat 0 is the player with the sharpest teeth
        self.result = None  # how the last round ended: "found", "kept" or "lost"
        self._new_round()

    def _new_round(self):
        n = self.grid.n
        self.phase = DEAL
        self.cards = bytearray([_UNDEALT] * n)  # per card: the kind lying there
        self.up = bytearray(n)  # per card: 1 when face up
        self.hand = RAT  # "the starting player takes the card showing Raggedy Rat"
        self.dealt = 0
        self.guard = -1
        self.mover = 0  # index into searchers(): the searcher to act
        self.uncovered = 0  # cards the guard turned this round
        self.searches = 0  # guard moves this round (search_limit ends a round that drags on)
        self.guesses = []  # last chance: the cards named so far, in the searchers' order
        self.seen = bytearray()  # this round's swaps as everyone saw them: (a, b, guard) triples
        self.turned = None  # (card, kind) the last action turned over

    # -- the contract ------------------------------------------------------------------------

    @property
    def history(self):
        """The actions and chance outcomes applied since the start: a list-like view decoded on
        demand (cheesefw.games.History); list(history) copies it."""
        log = self._log
        return History(lambda: len(log), lambda: iter(log), self._action)

    def num_players(self):
        return self.players

    def searchers(self):
        """The searchers in turn order: from the starter's left round to their right."""
        n = self.players
        return [(self.starter + i) % n for i in range(1, n)]

    def roller(self):
        return self.starter  # no die: the deal is the only chance node, drawn at once

    def chance_is_roll(self):
        return False

    def is_secret(self):
        """True while the starter hides the rat: the action stays out of the log and the LEDs
        (the engine hides it as it hides a deal) until the game is over."""
        return self.phase == HIDE

    def reveals(self):
        """The gully card the last action turned face up, [space, animal], for the board to
        flip on the LEDs (no takeback goes back past it: engine/play.py); None."""
        if self.turned:
            return [self.grid.ids[self.turned[0]], self.names[self.turned[1]]]
        return None

    def current_player(self):
        phase = self.phase
        if phase == DEAL:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        if phase == PLACE:
            return self.searchers()[-1]
        if phase in (SEARCH, LAST):
            return self.searchers()[self.mover]
        return self.starter  # HIDE, SWAP, GUESS, SHOW

    def chance_outcomes(self):
        """At the deal: the animals not yet dealt, equally likely; else []."""
        if self.phase != DEAL:
            return []
        dealt = bytearray(self.grid.n + 1)  # (a bytearray's `in` takes no int on MicroPython)
        for k in self.cards[:self.dealt]:
            dealt[k] = 1
        left = [k for k in range(1, self.grid.n + 1) if not dealt[k]]
        p = 1.0 / len(left)
        return [(k, p) for k in left]

    def legal_actions(self):
        """The legal actions of the player to act, in a fixed order ([] at chance, at the end)."""
        g = self.grid
        phase = self.phase
        if phase in (HIDE, PLACE):
            squares = range(g.n)
        elif phase == SEARCH:  # "one card in any direction ... it may never jump"
            squares = g.nbrs[self.guard]
        elif phase in (LAST, GUESS):  # a face-down card, each named once
            squares = [sq for sq in range(g.n) if not self.up[sq] and sq not in self.guesses]
        elif phase == SWAP:  # "any two ... adjacent, except for the card with the guard"
            ids = g.ids
            swaps = [(ids[a], ids[b]) for a, b in g.pairs if self.guard not in (a, b)]
            return ([] if self.must_swap and swaps else [KEEP]) + swaps
        elif phase == SHOW:
            return [NEXT]
        else:
            return []
        return [g.ids[sq] for sq in squares]

    def apply_action(self, a):
        """Apply a legal action or chance outcome; ValueError (state unchanged) otherwise."""
        a = self._legal(a)
        self._log.append(self._code(a))
        self.turned = None
        phase = self.phase
        if phase == DEAL:
            self.cards[self.dealt] = a
            self.dealt += 1
            if self.dealt == self.grid.n:
                self.phase = HIDE
        elif phase == SHOW:
            self.round += 1
            if self.round == self.rounds:
                self.phase = OVER
            else:  # "a new round starts with the player on the left of the starting player"
                self.starter = (self.starter + 1) % self.players
                self._new_round()
        elif phase == SWAP:
            if a != KEEP:
                x, y = self.grid.square(a[0]), self.grid.square(a[1])
                self.cards[x], self.cards[y] = self.cards[y], self.cards[x]
                self.up[x], self.up[y] = self.up[y], self.up[x]  # each keeps its side
                self.seen.extend(bytes((x, y, self.guard)))
            self.mover = (self.mover + 1) % (self.players - 1)  # "following on from the one..."
            self.phase = SEARCH
        else:
            self._card(self.grid.square(a))

    def _card(self, sq):
        """The actions that name one card."""
        phase = self.phase
        if phase == HIDE:  # "swaps any of the 16 gully cards ... with the Raggedy Rat card"
            self.hand, self.cards[sq] = self.cards[sq], RAT
            self.phase = PLACE
        elif phase == PLACE:  # "places it on one of the 16 gully cards"
            self.guard = sq
            self.mover = 0  # "the player on the left of the starting player starts searching"
            self.phase = SEARCH
        elif phase == SEARCH:
            self.guard = sq
            self.searches += 1
            if not self.up[sq]:  # "flips over the card on which the guard is standing"
                self.up[sq] = 1
                self.turned = (sq, self.cards[sq])
                if self.cards[sq] == RAT:  # "Gotcha! ... the finder takes a piece of cheese"
                    self._end_round(self.searchers()[self.mover], "found")
                    return
                self.uncovered += 1
            if self.uncovered >= self.uncover or self.searches >= self.search_limit:
                self.mover = 0  # "the eighth gully card has been uncovered"
                self.phase = LAST if self.last_chance else GUESS
            else:
                self.phase = SWAP  # "Now it's the turn of the starting player again."
        elif phase == LAST:
            self.guesses.append(sq)
            self.mover += 1
            if self.mover == self.players - 1:  # "then each of these cards is flipped over"
                for k in range(len(self.guesses)):
                    card = self.guesses[k]
                    self.up[card] = 1
                    self.turned = (card, self.cards[card])
                    if self.cards[card] == RAT:
                        self._end_round(self.searchers()[k], "found")
                        return
                self.phase = GUESS  # "if no player was correct, the starting player ..."
        else:  # GUESS: "by turning over the card where he thinks that Raggedy Rat is hiding"
            self.up[sq] = 1
            self.turned = (sq, self.cards[sq])
            right = self.cards[sq] == RAT
            self._end_round(self.starter if right else -1, "kept" if right else "lost")

    def _end_round(self, winner, result):
        if winner >= 0:
            self.cheese[winner] += 1
        self.result = result
        self.phase = SHOW

    def is_terminal(self):
        return self.phase == OVER

    def winners(self):
        """The players with the most cheese at the end ("several winners" on a draw); [] before."""
        if self.phase != OVER:
            return []
        most = max(self.cheese)
        return [p for p in range(self.players) if self.cheese[p] == most]

    def rat(self):
        """Where the rat lies (-1 in the starter's hand): the starter's secret, never shown."""
        if self.hand == RAT:
            return -1
        cards = self.cards
        for sq in range(len(cards)):
            if cards[sq] == RAT:
                return sq
        raise AssertionError("no rat on the grid nor in the hand")

    def hint(self, a):
        """The cards to light for action (or chance outcome) `a`, and a short label."""
        a = self._legal(a)
        ids = self.grid.ids
        phase = self.phase
        if phase == DEAL:  # never the animal: it lies face down
            return {"spaces": [ids[self.dealt]], "text": "deal"}
        if a == KEEP:
            return {"spaces": [], "text": "no swap", "mark": "keep"}
        if a == NEXT:
            return {"spaces": [], "text": "next round"}
        if phase == SWAP:
            return {"spaces": sorted(a), "text": "swap"}
        return {"spaces": [a], "text": phase}

    def view(self):
        """What the board shows: the guard (blinking), lids and face-up animals, the score."""
        ids = self.grid.ids
        turn = self.current_player()
        status = {
            "cheese": list(self.cheese),
            "round": min(self.round + 1, self.rounds),  # 1.., the last one still at the end
            "rounds": self.rounds,
            "starter": self.starter,
            "uncovered": self.uncovered,
            "meter": [self.uncovered, self.uncover],
        }
        if self.phase in (DEAL, HIDE):  # the others have their eyes closed: the board is dark
            return {"turn": turn, "pieces": [], "marks": [], "dice": [], "status": status}
        rat = self.rat() if self.phase == SHOW else -1  # the round is over: the rat may show
        marks = []
        for sq in range(self.grid.n):  # card order is id order: the marks come sorted
            kind = self.names[self.cards[sq]] if self.up[sq] or sq == rat else "lid"
            marks.append([ids[sq], kind])
        view = {
            "turn": turn,
            "pieces": [[ids[self.guard], "guard"]] if self.guard >= 0 else [],
            "blink": [ids[self.guard]] if self.guard >= 0 else [],
            "marks": marks,
            "dice": [self.cheese[turn]] if turn >= 0 else [],  # the score of the player to act
            "status": status,
        }
        if self.turned:
            view["reveal"] = self.reveals()
        if self.result and self.phase in (SHOW, OVER):
            status["result"] = self.result
        return view

    def to_dict(self):
        """The state as plain data: the options and the history (State.from_dict replays it),
        and what they lead to, for a reader."""
        ids = self.grid.ids
        return {
            "options": dict(self.options),
            "history": list(self.history),
            "phase": self.phase,
            "round": self.round,
            "starter": self.starter,
            "cheese": list(self.cheese),
            "guard": ids[self.guard] if self.guard >= 0 else None,
            "up": [ids[sq] for sq in range(self.grid.n) if self.up[sq]],
        }

    # -- small helpers -----------------------------------------------------------------------

    def _legal(self, a):
        """The legal action or chance outcome equal to `a`; ValueError if there is none."""
        if self.phase == DEAL:
            choices = [o for o, _ in self.chance_outcomes()]
        else:
            choices = self.legal_actions()
        for c in choices:
            if type(c) is type(a) and c == a:  # `==` alone takes True for 1
                return c
        shown = choices if len(choices) < 12 else choices[:12] + ["..."]
        raise ValueError("kalle: %s expected one of %r, got %r" % (self.phase, shown, a))

    def _code(self, a):
        if a == KEEP:
            return 254
        if a == NEXT:
            return 255
        if type(a) is int:
            return _DEALS + a
        if type(a) is tuple:
            g = self.grid
            return _PAIRS + g.pairs.index((g.square(a[0]), g.square(a[1])))
        return self.grid.square(a, "history")

    def _action(self, c):
        g = self.grid
        if c < _PAIRS:
            return g.ids[c]
        if c < _DEALS:
            a, b = g.pairs[c - _PAIRS]
            return (g.ids[a], g.ids[b])
        return KEEP if c == 254 else NEXT if c == 255 else c - _DEALS
