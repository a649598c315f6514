"""Alles für die Katz (F.X. Schmid, designer Rudi Hoffmann): a race of mouse towers past traps.

Rulebook: shared/seeds/002_a79482b8d3bc4194.txt (German). Where it is ambiguous or silent (who
starts, how the game ends) the decision is in docs/rules.md, next to the sentence it interprets,
with the test that checks it.

Every mouse starts in the pantry and races along the track to the mouse hole. On their turn a
player rolls once (1..5, or the clover: a joker of 1..5 steps of their choice) and moves exactly
one of their free mice that far. A mouse ending on an occupied field goes on top of the tower
there; only a tower's top mouse moves. Ending exactly on an empty can (a trap) catches the mouse
for good and fills the can, which is harmless from then on. Any roll reaching the hole will do.

Actions (tuples become lists in JSON; cheesefw.games.as_action turns them back):
  (space, steps)   move the top mouse of `space` ("pantry" or a field id) `steps` fields on
Chance outcomes: a number of steps (int), or "clover".
The history is one byte an action (see _code).
"""

from cheesefw.games import CHANCE, TERMINAL, History
from cheesefw.games.katz_table import CLOVER, Track
from cheesefw.games.replayed import Replayed

NAME = "katz"
OPTIONS = (
    ("players", (2, 3, 4, 5, 6)),
)  # which seats the board plays (bot_move) is the menu's seat step, for every game

ROLL = "roll"  # chance: the player to act rolls the die
MOVE = "move"  # the player moves one free mouse
OVER = "over"


def check_table(rules):
    """The Track of a rule table, checked as play reads it (ValueError naming the field)."""
    try:
        return Track(rules)
    except (TypeError, KeyError, IndexError, AttributeError) as e:
        raise ValueError("katz rules: malformed table (%s: %s)" % (type(e).__name__, e)) from None


def bot_move(state, rng, level="strong"):
    """The board's move for the player to act (katz_bot.py), drawn with the engine's Rng."""
    from cheesefw.games import decide, katz_bot

    return decide(katz_bot.think(state, rng, level))


class State(Replayed):
    """One race: the mice's places and towers, the die, whose turn, driven by actions."""

    def __init__(self, rules, options=None, chosen=False):
        """chosen: `options` are another state's, checked already (after_move's copy: read
        again, they took a Pico 25 ms a copy, the reader imported anew each time)."""
        t = rules if isinstance(rules, Track) else check_table(rules)  # a Track: already read
        self.track = t
        if not chosen:
            # The options, read by the reader every game shares, which the board lets go of at
            # once.
            from cheesefw.modules import forget
            from cheesefw.table_fields import choose_options

            try:
                options = choose_options(NAME, OPTIONS, options)
            finally:
                forget("cheesefw.table_fields")
            if not t.players[0] <= options["players"] <= t.players[1]:
                raise ValueError("katz: option 'players' expected %d..%d (the table's players), "
                                 "got %d" % (t.players[0], t.players[1], options["players"]))
        self.options = o = options
        self.n = n = o["players"]
        self.m = m = t.mice  # mice per player: mouse i belongs to player i // m
        self._log = bytearray()
        # Set-up: every mouse in the pantry (place 0). "Es beginnt, wer Käse am liebsten mag":
        # the board cannot ask, so seat 0 starts -- seat the cheese lover there.
        self.place = bytearray(n * m)  # per mouse: 0 pantry, 1..t.n a field, t.n + 1 the hole
        self.level = bytearray(n * m)  # per mouse: its height in its tower (0 = bottom)
        self.trapped = bytearray(n * m)  # per mouse: 1 when caught in a can, for good
        self.last_home = [0] * n  # per player: the move (history length) of their last arrival
        self.turn = 0
        self.roll = 0  # the die on show: 0, a number, or CLOVER
        self.phase = ROLL

    # -- the contract ------------------------------------------------------------------------

    @property
    def history(self):
        """The actions and chance outcomes applied since the start (decoded on demand)."""
        log = self._log
        return History(lambda: len(log), lambda: iter(log), self._action)

    def num_players(self):
        """The seats in play."""
        return self.n

    def roller(self):
        """At the roll: the player whose turn it is."""
        return self.turn

    def chance_is_roll(self):
        """Every chance node is the die, rolled with the roll button."""
        return True

    def current_player(self):
        """The player to move, CHANCE at the roll, TERMINAL at the end."""
        if self.phase == ROLL:
            return CHANCE
        return TERMINAL if self.phase == OVER else self.turn

    def chance_outcomes(self):
        """At the roll: the die's faces (numbers ascending, then the clover) and their odds."""
        return list(self.track.outcomes) if self.phase == ROLL else []

    def legal_actions(self):
        """The moves of the player to act, sorted: (space, steps), one per free tower top (and
        the pantry) and step count; [] at chance and terminal nodes."""
        if self.phase != MOVE:
            return []
        t = self.track
        steps = self._steps()
        out = []
        for p in self._sources(self.turn):
            reached = False  # the hole with fewer steps is the same move: offered once
            for k in steps:
                if p + k > t.n:
                    if reached:
                        continue
                    reached = True
                out.append((t.ids[p], k))
        out.sort()
        return out

    def apply_action(self, a):
        """Apply a legal action or chance outcome; ValueError (state unchanged) otherwise."""
        a = self._legal(a)
        self._log.append(self._code(a))
        if self.phase == ROLL:  # "Bist du am Zug, würfelst du einmal."
            self.roll = a
            self.phase = MOVE
            return
        sid, steps = a
        self._move(self.track.place(sid), steps)
        self.roll = 0
        self._next_turn()

    def is_terminal(self):
        """True when no mouse is free any more: each is in the hole or caught."""
        return self.phase == OVER

    def winners(self):
        """At the end: the player with most mice in the hole (ties: who got there first)."""
        if self.phase != OVER:
            return []
        best = self.ranking()[0]
        return [best] if self.home_count(best) else []

    def ranking(self):
        """The players from first to last: most mice home, then the earlier last arrival."""
        return sorted(range(self.n), key=lambda p: (-self.home_count(p), self.last_home[p], p))

    def hint(self, a):
        """What to light for action `a`: the tower it moves and where the mouse ends."""
        a = self._legal(a)
        if self.phase == ROLL:
            return {"spaces": [], "text": "roll"}
        t = self.track
        sid, steps = a
        dest = t.ids[min(t.n + 1, t.place(sid) + steps)]
        h = {"spaces": sorted([sid, dest]), "text": "%d to %s" % (steps, dest)}
        if self.roll == CLOVER:
            h["dice"] = [CLOVER] * steps  # the chosen count, on the die pixels
        return h

    def view(self):
        """Pieces (every mouse), towers top first, traps empty or full, the die, the hole."""
        t = self.track
        ids = t.ids
        pieces = []
        towers = {}
        for i in range(self.n * self.m):
            p = self.place[i]
            pieces.append([ids[p], i // self.m])
            if 1 <= p <= t.n:
                towers.setdefault(p, []).append(i)
        stacks = []
        for p in sorted(towers):
            tower = sorted(towers[p], key=lambda i: -self.level[i])  # top first
            stacks.append([ids[p], ["trapped" if self.trapped[i] else i // self.m
                                    for i in tower]])
        marks = []
        full = 0
        for p in range(1, t.n + 1):
            if t.trap[p]:
                kind = "trap-full" if p in towers else "trap"  # a can is full once it caught one
                full += kind == "trap-full"
                marks.append([ids[p], kind])
        homes = [self.home_count(p) for p in range(self.n)]  # (counted once: hole and status)
        hole = []
        for player in range(self.n):
            home = homes[player]
            for k in range((self.m + 1) // 2):  # a pixel holds two mice: half lit for one
                hole.append(str(player) if home >= 2 * k + 2
                            else "half%d" % player if home == 2 * k + 1 else None)
        status = {
            "home": homes,
            "trapped": [self._caught(p) for p in range(self.n)],
        }
        traps = sum(t.trap)
        if traps:
            status["meter"] = [full, traps]  # the cans already full: how safe the track is
        if self.roll == CLOVER:
            dice = [CLOVER] * t.clover[1]
        else:
            dice = [self.roll] if self.roll else []
        return {
            "turn": self.current_player(),
            "pieces": sorted(pieces),
            "stacks": stacks,
            "marks": sorted(marks),
            "lights": [[ids[t.n + 1], hole]],
            "dice": dice,
            "status": status,
        }

    def to_dict(self):
        """The whole state as plain data (State.from_dict rebuilds it from the history)."""
        return {
            "options": dict(self.options),
            "history": [list(a) if type(a) is tuple else a for a in self.history],
            "place": list(self.place),
            "level": list(self.level),
            "trapped": list(self.trapped),
            "last_home": list(self.last_home),
            "turn": self.turn,
            "roll": self.roll,
            "phase": self.phase,
        }

    # -- the race ----------------------------------------------------------------------------

    def home_count(self, player):
        """How many of `player`'s mice are in the hole."""
        hole = self.track.n + 1
        return sum(1 for i in self._mice(player) if self.place[i] == hole)

    def tower(self, p):
        """The mice on place p, bottom first (the pantry and the hole hold no towers)."""
        here = [i for i in range(self.n * self.m) if self.place[i] == p]
        return sorted(here, key=lambda i: self.level[i])

    def free_mice(self, player):
        """The mice `player` may move: in the pantry, or on top of a tower and not caught."""
        heights = self.heights()
        out = []
        for i in self._mice(player):
            p = self.place[i]
            if p == 0 or (p <= self.track.n and not self.trapped[i]
                          and self.level[i] == heights[p] - 1):
                out.append(i)
        return out

    def after_move(self, action):
        """A copy of this state with the legal move `action` made, before the turn passes (what
        a board player looks at); its history is left empty."""
        sid, steps = self._legal(action)
        s = State(self.track, self.options, chosen=True)
        s.turn, s.roll, s.phase = self.turn, self.roll, self.phase
        s.place = bytearray(self.place)
        s.level = bytearray(self.level)
        s.trapped = bytearray(self.trapped)
        s.last_home = list(self.last_home)
        s._move(self.track.place(sid), steps)
        return s

    def _move(self, p, steps):
        """The top mouse of place p (a mouse of the player to act) goes `steps` on."""
        t = self.track
        i = self._top(p)
        dest = min(t.n + 1, p + steps)  # "Eine genaue Augenzahl brauchst du dafür nicht"
        if dest == t.n + 1:  # "Ziehst du eine Maus ins Mauseloch, ist sie in Sicherheit."
            self.place[i] = dest
            self.level[i] = 0
            self.last_home[self.turn] = len(self._log)
            return
        below = self.tower(dest)
        # "Ist das Zielfeld deines Zuges bereits besetzt, stellst du deine Maus einfach oben auf"
        self.place[i] = dest
        self.level[i] = len(below)
        if t.trap[dest] and not below:
            # "Gefährlich wird es nur, wenn dein Zug genau auf einer leeren Dose endet":
            # caught for the rest of the game; the can is full (it holds a mouse) from now on.
            self.trapped[i] = 1

    def _next_turn(self):
        """Clockwise to the next player with a free mouse; the others sit out ("setzt du
        aus"), a player whose mice are all caught is out; nobody free: the race is over."""
        for k in range(1, self.n + 1):
            player = (self.turn + k) % self.n
            if self.free_mice(player):
                self.turn = player
                self.phase = ROLL
                return
        self.phase = OVER

    # -- small helpers -----------------------------------------------------------------------

    def _mice(self, player):
        return range(player * self.m, (player + 1) * self.m)

    def _caught(self, player):
        return sum(self.trapped[i] for i in self._mice(player))

    def heights(self):
        """Per place: how many mice stand there."""
        heights = bytearray(self.track.n + 2)
        for p in self.place:
            heights[p] += 1
        return heights

    def _top(self, p):
        """The mouse of the player to act that moves from place p."""
        for i in self.free_mice(self.turn):
            if self.place[i] == p:
                return i
        raise AssertionError("no free mouse of player %d on place %d" % (self.turn, p))

    def _sources(self, player):
        """The places a free mouse of `player` moves from, ascending."""
        return sorted(set(self.place[i] for i in self.free_mice(player)))

    def _steps(self):
        """The step counts the die allows: the roll, or the clover's choice."""
        if self.roll == CLOVER:  # "Du entscheidest selbst, ob du 1, 2, 3, 4 oder 5 Felder ziehst."
            low, high = self.track.clover
            return list(range(low, high + 1))
        return [self.roll]

    def _legal(self, a):
        """The legal action or chance outcome equal to `a`; ValueError if there is none."""
        if self.phase == ROLL:
            choices = [o for o, _ in self.track.outcomes]
        else:
            choices = self.legal_actions()
        for c in choices:
            if type(c) is type(a) and c == a:  # `==` alone takes True for 1
                if type(c) is not tuple or type(a[1]) is int:
                    return c
        raise ValueError("katz: %s expected one of %r, got %r" % (self.phase, choices, a))

    def _code(self, a):
        # One byte an action: a move (place * 6 + steps - 1 < 240), a die face, the clover.
        if a == CLOVER:
            return 250
        if type(a) is int:
            return 240 + a
        return self.track.place(a[0], "history") * 6 + a[1] - 1

    def _action(self, c):
        if c < 240:
            return (self.track.ids[c // 6], c % 6 + 1)
        return CLOVER if c == 250 else c - 240

