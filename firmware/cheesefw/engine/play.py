"""Playing one game with the board's buttons: turn flow, the die, reaction windows, the journal.

The game module decides what is legal; this module only offers it. At a player's
node prev/next walk the legal actions (their spaces blink) and ok plays the one
shown. At a die roll the player presses roll: the die pixels tumble for ROLL_MS,
then the seeded random source picks each outcome. At a REACTION node a window
stays open for WINDOW_MS: any player presses ok, picks their seat, then their
move; when nobody does, the window closes with PASS. Two looks that change
nothing: at a decision, roll walks through the spaces that hold pieces and counts
them on the die pixels (roll again, ok or back to return); while picking a seat,
roll shows that seat's hand (a game's `hand_of`) one marker at a time by its
sign, with the rest of the board dark, for that player's eyes. A button that
means nothing now (or comes during the roll animation) is refused: the status
pixel flashes red and nothing changes. Every applied action and outcome goes to
the journal before the next one, so a power cut resumes at the last completed
move.

A long press of next jumps to the first choice of the next group, for a game whose state has
`group(action)` (Gatenkaas: the hand card a placement lays).

A long press of prev takes back the last completed move of a person, while nothing new was
revealed after it (_move says what may go back; docs/rules.md, game by game); the journal
records it as a `{"takeback": N}` line (the game went back to its first N moves), so a power
cut resumes there. Refused (the status pixel flashes red, `why` says it in words, the offer
stays) where nothing can be taken back. Its code is cheesefw.engine.takeback's, imported at
the first long press of prev.

A game whose state says `private()` (a player's choices would show their secret hand) gets
its choices shown only while that player holds the roll button (PEEK): the others look
away meanwhile, and prev/next/ok count only while it is held.
"""

from cheesefw import const
from cheesefw.engine.draw import BLINK_MS, CYCLE_MS
from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, PASS, REACTION, TERMINAL, as_action

ROLL_MS = 700
WINDOW_MS = 5000
_SIGNAL_MS = const(300)
BOT_MS = 800  # the board "thinks" this long, so that players see its move coming
# The board's players think meanwhile, until THINK_MS of a 10 ms tick have gone (counted from the
# tick's start), in the ticks that draw no frame (a redraw takes a slow board's tick): a decision
# is a generator (a game's <name>_bot.think) stepped until the slice is spent, so no decision,
# however long on a slow board, makes a tick late by more than one of its steps (each a bounded
# piece of work: tests/engine/test_engine_slices.py).
THINK_MS = 4
# A tick that redraws thinks too only once _WAITS ticks in a row have redrawn without thinking
# (a board so busy, or a driver ticking so coarsely, that every tick redraws): after one, two
# animations' steps a tick apart made a tick that did both, late as .mpy files (Katz: 10.3 ms).
_WAITS = const(2)
_REVEAL_MS = const(1200)  # a tile being turned over
_UNDO_KEPT = const(8)  # the person moves that can be taken back one after another

# What the board is waiting for: the `wait` of the protocol's `state` (private constants, so
# that they cost the board no names: tests and tools compare the strings).
_DECIDE = const("decide")  # a player walks through the legal actions
_ROLL = const("roll")  # the roll button
_ROLLING = const("rolling")  # the die animation: no input
_WINDOW = const("window")  # a reaction window counts down
_SEAT = const("seat")  # a player picks their seat to react
_REACT = const("react")  # that player picks their move
_LOOK = const("look")  # at a decision: walk through the occupied spaces, their pieces counted
_HAND = const("hand")  # while picking a seat: that seat's own markers, for their eyes
_BOT = const("bot")  # the board plays this seat itself
# The board settles the last moves over ticks of its own: the rest of a deal (drawn THINK_MS of
# each tick), then what it waits for next (a window's or a decision's choices listed) where the
# moves' tick has taken time already. No input, no redraw meanwhile.
_SETTLING = const("settling")
_OVER = const("over")

_PEEK = const("roll")  # held down, it shows a private choice (the hand of the player to act)


class Play:
    def __init__(self, module, rules, options, seed, journal, painter, resume=False, seats=(),
                 clock=None, tables=None):
        """seats: [seat, level] pairs the menu gave to the board, besides the game's options';
        clock: the board (its ticks_ms and ticks_diff) that times the thinking's slices (None:
        the board's players think each decision through at once); tables: () -> the game's
        rule table again, for a takeback to rebuild the game (None: keep `rules` for it)."""
        self.module = module
        self.tables = tables or (lambda: rules)
        self.clock = clock
        self.options = options
        self.state = module.State(rules, options)
        self.rng = Rng(seed)
        self.journal = journal
        self.painter = painter
        self.players = self.state.num_players()
        bots = getattr(module, "bot_players", None)
        self.levels = {}  # seat -> "strong" or "beginner", for every seat the board plays
        for seat in bots(options) if bots else []:
            self.levels[seat] = "strong"
        for seat, level in seats:
            self.levels[seat] = level
        self.bots = sorted(self.levels)
        if self.bots:
            # The board's players' module now, in the game's start, which is a long tick
            # already: imported at their first turn, it held that tick 50-70 ms on a Pico.
            self._bot()
        self.bot_at = None  # when the board reacts in the open window (None: it does not)
        self.thinking = None  # the board player's decision being thought (a generator)
        self.decided = None  # what it decided, once thinking is None again
        self.reveal = None
        self.reveal_until = 0
        # Which moves of the history are deals or secret moves (a game's optional is_secret():
        # true while the player to act does something the others must not see), one bit a
        # move: shown as "?" in the log until the game is over. (A list of their indices took a
        # long game's heap 4 to 8 bytes a deal, and a block of it all whenever it grew.)
        self.hidden = bytearray()
        self._is_secret_move = getattr(self.state, "is_secret", None)
        # Taking a move back (a long press of prev): the history's length before each person's
        # move since the last thing revealed, newest last; and [moves kept, moves taken back] of
        # each takeback, for the log.
        self.undo = []
        self.takebacks = []
        if resume:  # replay the journal's completed moves
            journal.replay(self._replay)
        self.cursor = 0
        self.choices = []
        self.look = 0  # the space (_LOOK) or marker (_HAND) looked at
        self.seat = 0
        self.wait = None
        self.until = 0  # when the animation or the window ends
        self.signal = None
        self.signal_until = 0
        self.refused = 0
        self.why = None  # why a takeback was just refused, in words (cheesefw.engine.takeback)
        self.peeking = False  # _PEEK is held
        self.now = 0
        self._shown_at = None  # the animation step the last drawing showed
        self._drawn_into = None  # the frame it was drawn into
        # The game's view as last made, kept until the game's next move: a redraw that only
        # blinks or cycles draws it again (a view is a slow board's largest piece of a
        # redraw, and the painter keeps its marks drawn: draw.Painter).
        self._view = None
        self._viewed = None  # the state _view is of
        # The hint of the choice on offer as last found, (state, choice, hint), kept until the
        # cursor or the game moves: a blink redraws it four times a second, and a hint can be a
        # search (the kitchen's mouse: its paths, up to 5 ms of a Pico).
        self.offer = None
        self._waited = 0  # the ticks in a row whose thinking waited for their redraw
        self._redraw_due = False  # a move was made in the last tick: this one redraws
        self.made = []  # moves made, not journaled yet: a roll's dice drawn over ticks
        self._advance(0)
        if painter is not None:  # (None: a game played with nothing to draw it on)
            painter.prime(self._game_view()["marks"])

    def _replay(self, move):
        if isinstance(move, dict):  # a takeback: {"takeback": moves kept}
            from cheesefw.engine import takeback

            takeback.replay(self, move["takeback"])
        else:
            self._move(as_action(move))

    # -- input --------------------------------------------------------------------

    def on_button(self, name, event, now):
        """A debounced button event; True when the board must be redrawn."""
        if name == _PEEK and event == "release" and self.peeking:
            self.peeking = False
            return True
        if name == _PEEK and event == "press" and self._secret() is not None:
            self.peeking = True
            return True
        if event == "long" and name == "prev":
            # The last person's move back, with what the board played after it; refused where
            # the game waits on no one's choice or something was revealed, saying why. (While
            # the die tumbles, its outcome is not drawn yet: the roll is called off.)
            from cheesefw.engine import takeback

            return takeback.press(self, now)
        if event == "press":
            self.why = None  # why the last takeback was refused: said until the next press
        if event == "long" and name == "next" and self.wait in (_DECIDE, _REACT) \
                and not self._secret():
            return self._jump()
        if event != "press":
            return False
        if name in ("prev", "next", "ok") and self._secret():
            return self._refuse(now)  # nobody sees the choice: hold _PEEK first
        # A press, state by state (_ROLLING, _SETTLING, _BOT and _OVER take none):
        wait = self.wait
        if wait == _DECIDE or wait == _REACT:
            # prev/next walk the choices, ok plays the one shown; at a decision roll looks
            # over the occupied spaces; while reacting, back gives the window back.
            if name in ("prev", "next"):
                self.cursor = (self.cursor + (1 if name == "next" else -1)) % len(self.choices)
            elif name == "ok":
                self._apply(self.choices[self.cursor], now)
            elif name == "roll" and wait == _DECIDE and self._occupied():
                self.wait = _LOOK
                self.look = 0
            elif name == "back" and wait == _REACT:
                self._open_window(now)
            else:
                return self._refuse(now)
            return True
        if wait == _SEAT:
            # prev/next walk the seats, ok takes the one shown (refused when it has no
            # reaction), roll shows that seat's hand, back gives the window back.
            if name in ("prev", "next"):
                self.seat = (self.seat + (1 if name == "next" else -1)) % self.players
            elif name == "ok":
                player = self.state.action_player
                mine = [a for a in self.choices if a != PASS and player(a) == self.seat]
                if not mine:
                    return self._refuse(now)
                self.wait = _REACT
                self.choices = mine
                self.cursor = 0
            elif name == "roll" and self._hand():
                self.wait = _HAND
                self.look = 0
            elif name == "back":
                self._open_window(now)
            else:
                return self._refuse(now)
            return True
        if wait == _ROLL and name == "roll":  # the die tumbles
            self.wait = _ROLLING
            self.until = now + ROLL_MS
            return True
        if wait == _WINDOW and name == "ok":  # the window waits while someone picks their seat
            self.wait = _SEAT
            self.bot_at = None
            self.thinking = None
            self.seat = 0
            return True
        if wait == _LOOK or wait == _HAND:
            return self._look_button(name, now)
        return self._refuse(now)

    def _look_button(self, name, now):
        """LOOK and _HAND: prev/next walk, roll, ok or back return to where they came from."""
        items = self._occupied() if self.wait == _LOOK else self._hand()
        if name in ("prev", "next"):
            self.look = (self.look + (1 if name == "next" else -1)) % len(items)
        elif name in ("roll", "ok", "back"):
            self.wait = _DECIDE if self.wait == _LOOK else _SEAT
        else:
            return self._refuse(now)
        return True

    def _occupied(self):
        """The spaces that hold pieces, sorted (what _LOOK walks through)."""
        spaces = []
        for space, _ in self.state.view()["pieces"]:
            if space not in spaces:
                spaces.append(space)
        spaces.sort()
        return spaces

    def _hand(self):
        """The markers of the seat being picked, if the game has hands ([] otherwise)."""
        hand_of = getattr(self.state, "hand_of", None)
        return hand_of(self.seat) if hand_of else []

    def _jump(self):
        """A long press of next: on to the first choice of the next group (round to the first
        after the last) -- for a game whose state has group(action), such as the hand card a
        placement lays."""
        group = getattr(self.state, "group", None)
        if group is None:
            return False
        choices = self.choices
        n = len(choices)
        here = group(choices[self.cursor])
        i = self.cursor
        for _ in range(n):  # past this group (the press that began the long one moved once)
            i = (i + 1) % n
            if group(choices[i]) != here:
                break
        self.cursor = i
        return True

    def _secret(self):
        """None when the choice on offer is no secret; else True while it must stay hidden
        (_PEEK is not held) and False while its player peeks."""
        private = getattr(self.state, "private", None)
        if self.wait != _DECIDE or private is None or not private():
            return None
        return not self.peeking

    def _refuse(self, now):
        self.refused += 1
        self.signal = "refused"
        self.signal_until = now + _SIGNAL_MS
        return True

    # -- time ---------------------------------------------------------------------

    def update(self, now):
        """Timers: the roll animation, the window's countdown, blinking; True to redraw.

        On a slow board a tick holds one of: a slice of thinking, a move (its journal line
        written), a redraw. The move the board decided waits for the tick after its thinking
        ends, and the redraw of a move made here for the next tick, when this one has taken
        time already."""
        self.now = now
        due = self._redraw_due
        self._redraw_due = False
        moved = True  # (the branches below that make a move; the game's history is not asked:
        # each look at it makes a view of the log, 300 B of garbage a tick at 64 bits)
        if self.signal and now - self.signal_until >= 0:
            self.signal = None
        thought = False
        if self.thinking is not None:
            # A tick that redraws does not think too, unless it has waited _WAITS ticks.
            redraws = due or self._animation_step(now) != self._shown_at
            if redraws and self.clock and self._waited < _WAITS:
                self._waited += 1
            else:
                self._waited = 0
                self._think(now)
                thought = self._spent(now)
        if self.wait == _ROLLING and now - self.until >= 0:
            self._roll_dice(now)
        elif thought:
            moved = False  # (a decision just made is played in the next tick)
        elif self.wait == _WINDOW and self.bot_at is not None and now - self.bot_at >= 0 \
                and self.thinking is None:  # (before the window's end: its pause is the shorter)
            self.bot_at = None
            moved = self.decided != PASS
            if moved:
                self._apply(self.decided, now)
        elif self.wait == _WINDOW and now - self.until >= 0:
            self._apply(PASS, now)
        elif self.wait == _BOT and now - self.until >= 0 and self.thinking is None:
            self._apply(self.decided, now)
        elif self.wait == _SETTLING and now != self.until:  # (not in the moves' own tick)
            self._advance(now, [])
        else:
            moved = False
        if self.reveal and now - self.reveal_until >= 0:
            self.reveal = None
        if self.wait == _SETTLING:
            # No redraw until the board has settled (each card drawn lets the view go, and a
            # view made anew takes a slow board's tick): the LEDs keep the last frame meanwhile.
            return False
        if moved and self._spent(now):
            self._redraw_due = True
            return False
        return due or self._animation_step(now) != self._shown_at

    def _spent(self, now):
        """The ms this tick (begun at now) has taken on the board's clock so far (0 without
        one): true once it has taken any."""
        clock = self.clock
        return clock.ticks_diff(clock.ticks_ms(), now) if clock is not None else 0

    def _animation_step(self, now):
        """Where blinking, colour cycling and tumbling dice are: redraw when this moves."""
        return (now // BLINK_MS, now // CYCLE_MS,
                now // 70 if self.wait == _ROLLING else 0,
                now // 150 if self.reveal else 0,
                self.wait, self.signal, self.cursor, self.seat, self.look, self.peeking)

    # -- the game -----------------------------------------------------------------

    def _keep_secret(self, move):
        """Before the move of that index in the history: note it in `hidden` if it is a deal or
        a secret move."""
        state = self.state
        if (state.current_player() == CHANCE and not state.chance_is_roll()) or (
                self._is_secret_move is not None and self._is_secret_move()):
            self._hide(move)

    def _hide(self, move):
        """Mark that move of the history as hidden until the game is over."""
        hidden = self.hidden
        while move >> 3 >= len(hidden):
            hidden.extend(bytes(8))  # (8 bytes: 64 moves more at a time)
        hidden[move >> 3] |= 1 << (move & 7)

    def _move(self, action):
        """Apply one action or chance outcome, noting what a takeback may undo: nothing before
        a chance outcome (a die rolled, a card drawn or dealt), a power played in a window (its
        marker face up) or a move the game's optional reveals() says turned something over; a
        person's move (a seat the board does not play) can go back, with what follows it.
        Returns what the move turned over (the game's reveals(); None without it)."""
        state = self.state
        player = state.current_player()
        at = len(state.history)  # (asked once: a game's history is a view made anew each look)
        self._keep_secret(at)
        state.apply_action(action)
        self._view = self.offer = None  # (the next look makes them anew)
        reveals = getattr(state, "reveals", None)
        turned = reveals() if reveals is not None else None
        undo = self.undo
        if player == CHANCE or (player == REACTION and action != PASS) or turned:
            del undo[:]
        elif player >= 0 and player not in self.levels:
            undo.append(at)
            if len(undo) > _UNDO_KEPT:
                undo.pop(0)
        return turned

    def _apply(self, action, now):
        # What the move turned over, to flip on the LEDs: the game's reveals() says, [space,
        # kind] (True: something came out, and the redraw shows it). Never from the game's
        # view, a slow board's largest piece of work: the redraw's tick makes it.
        turned = self._move(action)
        if turned and turned is not True:
            self.reveal = turned
            self.reveal_until = now + _REVEAL_MS
        self._advance(now, [action])

    def _roll_dice(self, now):
        """Resolve every die of this roll: the chance nodes that follow one press of roll, drawn
        THINK_MS of each tick while the die tumbles on (Gouda's five dice, the window they open
        and their journal line held a tick of a Pico 16 ms), journaled together once all are
        drawn: a die nobody saw yet is not kept."""
        rolled = self._draw_chance(True, self.made, now)  # (added to those drawn before)
        state = self.state
        if state.current_player() != CHANCE or not state.chance_is_roll():
            self._advance(now, rolled)
        # (else the rest in the next tick: the wait is still _ROLLING)

    def _draw_chance(self, rolls, moves, start=None):
        """Draw outcomes while the game is at a chance node of this kind (a roll, or a deal),
        before anything waits on a player; moves, with them added. start: when the tick
        began, where the drawing stops once THINK_MS of it have gone (one outcome at least);
        None: to the end."""
        state = self.state
        clock = self.clock if start is not None else None
        while state.current_player() == CHANCE and state.chance_is_roll() == rolls:
            outcome = self.rng.choose(state.chance_outcomes())
            self._move(outcome)  # (a deal is hidden there)
            moves.append(outcome)
            if clock and clock.ticks_diff(clock.ticks_ms(), start) >= THINK_MS:
                break
        return moves

    def _advance(self, now, made=None):
        """Settle on what the board waits for next; shuffles and deals are drawn. made: the
        moves the tick begun at now made, journaled with the deal that follows them in one
        append (a journal line costs a write to the flash: one, not one a move and one a
        card). In a tick, a deal is drawn THINK_MS of it and goes on in the next (Kalle's 17
        cards took a tick of a Pico 50 ms at once), and where the tick has taken time already
        the board settles on what comes next in a tick of its own (_SETTLING: a window's or a
        decision's choices take a Pico 3-4 ms to list). None: no tick's moves (the game's
        start, a long tick anyway; a takeback): a deal is drawn whole, and settled at once."""
        self.made = []  # (a roll in progress is over: its dice are in `made`, or called off)
        moves = self._draw_chance(False, [] if made is None else made,
                                  None if made is None else now)
        if moves:
            self.journal.append(*moves)
        state = self.state
        player = state.current_player()
        self.cursor = 0
        self.peeking = False  # the next player holds _PEEK afresh
        self.thinking = None
        if made is not None and ((moves and self._spent(now))
                                 or (player == CHANCE and not state.chance_is_roll())):
            self.wait = _SETTLING  # (the rest: update, in the next tick: a press's tick
            self.until = now  # updates after it, and leaves the rest alone)
        elif player == TERMINAL:
            self.wait = _OVER
        elif player == CHANCE:
            self.wait = _ROLL
            if state.roller() in self.bots:  # the board rolls for a seat it plays
                self.wait = _ROLLING
                self.until = now + BOT_MS + ROLL_MS
        elif player == REACTION:
            self._open_window(now)
        elif player in self.bots:
            self.wait = _BOT
            self.until = now + BOT_MS
            self.thinking = self._bot().think(state, self.rng, self.levels[player])
        else:
            self.wait = _DECIDE
            self.choices = state.legal_actions()

    def _open_window(self, now):
        self.wait = _WINDOW
        self.choices = self.state.legal_actions()
        self.until = now + WINDOW_MS
        # The board's seats may react too, after its pause: a person who presses ok first
        # takes the window (it opens again after their move, and the board is asked again).
        self.bot_at = now + BOT_MS if self.bots else None
        self.thinking = self._reactions() if self.bots else None

    def _bot(self):
        """The game's board players (imported when the board first plays)."""
        return __import__("cheesefw.games.%s_bot" % self.module.NAME, None, None, ["think"])

    def _reactions(self):
        """The board's seats in the open window: a strong one's power, else a beginner's, or
        PASS (a generator, as the game's think)."""
        think = self._bot().think  # in a window: (state, rng, level, seats)
        levels = self.levels
        mine = [s for s in self.bots if levels[s] == "strong"]
        easy = [s for s in self.bots if levels[s] != "strong"]
        action = (yield from think(self.state, self.rng, "strong", mine)) if mine else PASS
        if action == PASS and easy:
            action = yield from think(self.state, self.rng, "beginner", easy)
        return action

    def _think(self, now):
        """Step the board player's thinking until THINK_MS of this tick (begun at now) have
        gone, or to its end: one step at least, so that it goes on however busy the ticks."""
        clock = self.clock
        try:
            while True:
                next(self.thinking)
                if clock and clock.ticks_diff(clock.ticks_ms(), now) >= THINK_MS:
                    return
        except StopIteration as done:
            self.thinking = None
            self.decided = done.value

    # -- output -------------------------------------------------------------------

    def _game_view(self):
        """The game's view (the same object until the game moves, _move letting it go, or a
        takeback puts another state in its place: it is not to be changed). Not told by the
        history's length: each look at a game's history makes a view of its log (an object
        and three closures), some 300 us of a Pico, and a redraw looked twice."""
        state = self.state
        if self._view is None or self._viewed is not state:
            self._view = None  # (its heap back before the new one is made)
            self._view = state.view()
            self._viewed = state
        return self._view

    def draw(self, frame):
        view = self._view
        # A view made anew, or its marks drawn (into the frame the painter starts from), in a
        # tick that has taken time already: what is left waits for the next tick (the marks,
        # then the painting); the frame as it was stays on the LEDs, whole, meanwhile. (On a
        # 16x16 board a view, its marks and the painting take 3.8-5, 3.4-5 and 3.5 ms of a
        # Pico: the first two in one tick made it late.) (_HAND paints no marks of the game's.)
        later = (self._game_view() is not view
                 or self.wait != _HAND and self.painter.prime(self._view["marks"])) \
            and self._spent(self.now)
        offer = None
        if not later and self.wait in (_DECIDE, _REACT) and not self._secret():
            state = self.state
            choice = self.choices[self.cursor]
            kept = self.offer
            if kept is None or kept[0] is not state or kept[1] is not choice:
                self.offer = None  # (its heap back before the new one is found)
                self.offer = kept = (state, choice, state.hint(choice))
                # Found anew once the tick has taken THINK_MS: the painting (up to 4.3 ms of a
                # Pico) waits for the next tick, where the hint is kept (the kitchen's first
                # hint of a mouse and the painting in one tick made it 11 ms).
                later = self._spent(self.now) >= THINK_MS
            offer = kept[2]
        if later:
            self._redraw_due = True
            self._waited = 0  # (and the next tick does not think either)
            return
        step = self._animation_step(self.now)
        shown, self._shown_at = self._shown_at, step
        if frame is self._drawn_into and self.wait == _ROLLING and shown is not None \
                and shown[4] == _ROLLING and shown[:2] == step[:2] and shown[3:] == step[3:]:
            # Only the tumbling die moved since frame was drawn (no move is made while the die
            # tumbles): its pixels alone, the same frame as drawn anew.
            self.painter.tumble(frame, self.now)
            return
        self._drawn_into = frame
        view = self._game_view()
        seat = None
        if self.wait == _LOOK:
            space = self._occupied()[self.look]
            offer = {"spaces": [space], "count": space}
        elif self.wait == _HAND:  # only the die pixels and the seat: the others look away
            view = {"turn": self.seat, "pieces": [], "marks": [], "dice": [], "status": {}}
            item = self._hand()[self.look]
            if item in self.painter.signs:
                offer = {"spaces": [], "sign": item}
            else:  # a game whose table has no signs: the item's colour alone
                offer = {"spaces": [], "dice": [item]}
        if self.wait in (_SEAT, _REACT, _HAND):
            seat = self.seat
        elif self.wait in (_ROLL, _ROLLING):
            seat = self.state.roller()  # whose roll it is
        signal = self.signal
        if signal is None and self.wait == _WINDOW:
            signal = "window"  # (a roll shows on the die pixels alone: they tumble)
        if self.wait == _ROLLING:
            view = dict(view)  # (the game's view stays as it is, its marks shared)
            view["dice"] = []
        self.painter.paint(frame, view, self.now, self.players, offer, seat, signal)
        if self.reveal:
            self.painter.reveal(frame, self.reveal[0], self.reveal[1], self.now)
        if self.wait == _ROLLING:
            self.painter.tumble(frame, self.now)
        elif self.wait == _OVER:
            self.painter.winners(frame, self.state.winners(), self.players, self.now)

    def log(self, start, count):
        """Moves start..start+count of the history; deals and secret moves show as "?" until the
        game is over."""
        history = self.state.history
        moves = history[start:start + count]
        if self.wait != _OVER:
            hidden = self.hidden
            for i in range(start, start + len(moves)):
                if i >> 3 < len(hidden) and hidden[i >> 3] >> (i & 7) & 1:
                    moves[i - start] = "?"
        page = {"from": start, "total": len(history), "moves": moves}
        if self.takebacks:  # [went back to N moves, how many went], in turn
            page["takebacks"] = self.takebacks
        return page

    def _status(self):
        """The game's counters: from its status() when it has one (cheaper than a whole view)."""
        status = getattr(self.state, "status", None)
        return status() if status else self.state.view()["status"]

    def describe(self):
        """The game as the protocol's `state` command reports it."""
        d = {
            "mode": "play",
            "game": self.module.NAME,
            "options": self.options,
            "wait": self.wait,
            "turn": self.state.current_player(),
            "moves": len(self.state.history),
            "refused": self.refused,
            "winners": self.state.winners(),
            "board": self.bots,  # the seats the board plays
            "status": self._status(),
        }
        secret = self._secret()
        if secret is not None:
            d["private"] = secret  # True: the offer is hidden until its player holds _PEEK
        if self.wait in (_DECIDE, _REACT) and not secret:
            phase = getattr(self.state, "phase", None)
            if type(phase) is str:  # a game's phase by name (the kitchen's pick, move): the
                d["phase"] = phase  # words say which of them a square on offer is for
            d["offer"] = self.choices[self.cursor]
            d["text"] = self.state.hint(d["offer"]).get("text")  # the offer in the game's words
            d["choices"] = len(self.choices)
        if self.wait in (_SEAT, _HAND):
            d["seat"] = self.seat
        if self.wait in (_ROLL, _ROLLING):
            d["roller"] = self.state.roller()  # "turn" is the dice's own (a chance node)
        if self.wait == _LOOK:
            d["look"] = self._occupied()[self.look]  # never a hand: that is for the LEDs only
        if self.why:
            d["why"] = self.why
        return d
