"""Taking a move back: which moves may go, and the game without them.

Holding prev takes back the last completed move of a person (a seat the board does not
play), as long as nothing new was revealed after it. Revealed means: a chance outcome (a die
rolled, a card or tile drawn or dealt), a power played in a reaction window (a marker turned
face up), or a move after which the game's optional `reveals()` says something hidden came to
light (a tile or card turned over). Moves of the board's own seats and windows closed with
nothing played after the person's move go with it. A takeback thus only ever goes back to a
state the players have already seen: it shows nothing that was hidden.

The game without the taken-back moves is rebuilt from its history (the contract makes the
game a function of its actions), as a resume after a power cut rebuilds it from the journal.
"""

from cheesefw import const
from cheesefw.games import CHANCE, PASS, REACTION

_KEPT = const(8)  # the person moves that can be taken back one after another
_LOGGED = const(16)  # the takebacks the log remembers (the latest)


class Takebacks:
    def __init__(self):
        # The history's length before each person's move since the last reveal, newest last.
        self.starts = []
        # [history length it went back to, moves taken back], one per takeback, for the log.
        self.done = []

    def note(self, state, player, action, at, person):
        """After `action` was applied by `player` (a seat, CHANCE or REACTION) at history
        length `at`; person: that seat is played by a person."""
        starts = self.starts
        reveals = getattr(state, "reveals", None)
        if player == CHANCE or (player == REACTION and action != PASS) or (
                reveals is not None and reveals()):
            del starts[:]  # nothing before this can go back any more
        elif person:
            starts.append(at)
            if len(starts) > _KEPT:
                starts.pop(0)

    def target(self):
        """The history length a takeback now goes back to, or None when none is allowed."""
        return self.starts[-1] if self.starts else None

    def rewind(self, module, rules, options, state, to):
        """The game as it was when its history had `to` moves (a new State), noted as a
        takeback."""
        again = module.State(rules, options)
        count = 0
        for action in state.history:
            if count == to:
                break
            again.apply_action(action)
            count += 1
        assert count == to, "a takeback past the game's start"
        starts = self.starts
        while starts and starts[-1] >= to:
            starts.pop()
        done = self.done
        done.append([to, len(state.history) - to])
        if len(done) > _LOGGED:
            done.pop(0)
        return again
