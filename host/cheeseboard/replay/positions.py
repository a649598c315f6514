"""A game's log turned into the positions a board showed, one per step, by the firmware itself.

Each position is what the board shows when it powers up with its journal cut after that line:
the firmware's own `Play` resumes the game from those moves (its power-cut path: the game module
applies each move, as it did live), draws its LEDs through its own painter and power limiter,
and says what it waits for (`describe`). No rule is written here: a move the game does not
allow is an error, as on the board. The replay makes them all in one pass, one Play taking the
lines in turn, so that its time grows with the log's lines, not their square; a log may ask
at most MAX_LINES lines and MAX_TAKEBACKS takebacks.

A step ends where the board waited for someone: the dice of one press of roll and the deals
the board makes at once go with the move before them (no board ever showed a position between
them). Hidden information stays hidden as on the board: the painter and `describe` never show
it, and a deal or a secret move reads "?" in the step's words until the game is over (the
firmware's own `log`), unless `reveal` is asked of a finished game.
"""

import json

# (This module runs on MicroPython too: the web board replays a game in its own VM with it.
# The host's paths are imported only where the host reads its files.)


try:
    from cheeseboard import CheeseboardError as _Error
except ImportError:  # the web board's VM
    _Error = Exception


class ReplayError(_Error):
    """The log cannot be replayed: not a log, a game this firmware does not know, a move it
    does not allow."""


class Game:
    """A game read from a log: its header (game, options, seats, vision), its lines (moves, and
    {"takeback": N}), whether the log said it was over, and where it came from."""

    def __init__(self, header, lines, source, over=None, hidden_from=None):
        self.header = header
        self.lines = lines
        self.source = source
        self.over = over  # None: the log does not say (a journal: the replay finds out)
        self.hidden_from = hidden_from  # the first line a log showed as "?" (a running game)


class Position:
    """One step of the replay: the board's LED frame, its state in words (`describe`), the
    moves this step played (as the log shows them), and whether it was a takeback."""

    def __init__(self, step, lines, frame, described, moves, took_back, history, full=None):
        self.step = step
        self.lines = lines  # the log's lines played to reach it
        self.frame = frame
        self.described = described
        self.moves = moves
        self.took_back = took_back  # moves that went back at this step (0: none)
        self.history = history  # the game's length in moves here
        self.full = full  # the whole state (to_dict(): hidden parts too), shown only by a
        # replay that reveals, after the game


class _Journal:
    """The journal the firmware's Play resumes from: the log's first lines, held in memory."""

    def __init__(self, lines):
        self.lines = lines
        self.appended = []

    def replay(self, apply):
        for line in self.lines:
            apply(line)
        return len(self.lines)

    def append(self, *moves):
        self.appended.extend(moves)


FIRMWARE = ("cheesefw.engine.play", "cheesefw.engine.draw", "cheesefw.render", "cheesefw.games")


def firmware(load=None):
    """The firmware's modules the replay runs, {short name: module}: on this computer's Python
    as the lab runs them (paths.import_firmware), or load(name) (a VM's own import)."""
    if load is None:
        from cheeseboard import paths

        load = paths.import_firmware
    fw = {}
    for name in FIRMWARE:
        fw[name.rsplit(".", 1)[1]] = load(name)
    return fw


def default_rules(game):
    """The rule table the firmware carries for a game."""
    from cheeseboard import paths

    return json.loads((paths.FIRMWARE / "rules" / (game + ".json")).read_text())


def profile_for(game, name=None):
    """The hardware profile to draw on: the one named, else the first (pico first) that has the
    game's overlay."""
    from cheeseboard import paths

    names = [name] if name else ["pico"] + [n for n in paths.profile_names() if n != "pico"]
    for n in names:
        profile = paths.load_profile(n)
        if game in profile["maps"]:
            return profile
    raise ReplayError("the profile %s has no overlay for %s (try --profile %s)"
                      % (name, game, "pico16" if game == "gatenkaas" else "pico"))


# What a log may ask of a replay: its lines (moves and takebacks) and takebacks, each well past a
# game played on a board (the longest of 30 Gouda games of six with powers, random players:
# 1,623 moves), so that no file keeps a replay busy for long (10,000 lines: about 9 s on the
# web board's VM, a second here).
MAX_LINES = 10000
MAX_TAKEBACKS = 4000


def positions(game, profile, rules=None, reveal=False, fw=None, states=True):
    """The replay's steps: [Position], the first the board as the game began (fw: the
    firmware's modules, `firmware()`'s by default; states: each step keeps its `full` state,
    which the web board, on a VM's heap, does without).

    One pass over the log, in time linear in its lines: the firmware's Play takes them one at a
    time as its resume does (_stepper), and each step is drawn when reached; a takeback steps back
    to the state kept at that length (a step's `full`), where the board rebuilds the game."""
    fw = fw or firmware()
    _bound(game)
    header = game.header
    try:
        module = fw["games"].load(header.get("game"))
    except ValueError as e:
        raise ReplayError(str(e)) from None
    rules = rules if rules is not None else default_rules(module.NAME)
    options = header.get("options") or {}
    seats = [tuple(s) for s in header.get("seats", ())]
    made = _maker(fw, module, rules, options, header, profile, seats)
    play = made([], _stepper(fw))[0]
    lines = game.lines
    steps = []
    was = None  # (at a roll, moves) where the line before left the game; None: mid-deal
    shown = 0  # the lines up to the last step
    for n in range(len(lines) + 1):
        line = lines[n - 1] if n else None
        before = len(play.state.history)
        try:
            if n:
                play._replay(_action(fw, line))
            dealing = _dealing(fw, play.state)
            if isinstance(line, dict):  # a takeback: always a step of its own (where the board
                # deals at once, the board as it powers up there, dealt)
                at = made(list(play.state.history))[0] if dealing else play.settle()
                step = (at, [], before - line["takeback"])
            elif dealing or _mid_roll(fw, was, play.state):
                step = None  # the board went on at once: no one ever saw this position
            else:
                start = len(play.state.history) - (n - shown)
                step = (play.settle(), _moves(play, start, n - shown, reveal), 0)
            if step:
                at, moves, went = step
                _offer_next(fw, at, lines[n] if n < len(lines) else None, reveal)
                steps.append(_position(fw, at, len(steps), n, moves, went, profile))
                shown = n
                if at is play:
                    play.keep(steps[-1].full)
                if not states:
                    steps[-1].full = None
        except (ValueError, KeyError, IndexError, TypeError, AssertionError) as e:
            raise ReplayError("%s: line %d (%s) cannot be played in %s with the rule table used "
                              "(%s): was the game played with another table? --rules names it"
                              % (game.source, n, json.dumps(line), module.NAME, e)) from None
        was = None if dealing else (_at_roll(fw, play.state), len(play.state.history))
    return steps


def _bound(game):
    """Refuse a log that asks more than any game played on a board (MAX_LINES, MAX_TAKEBACKS),
    in one line naming the bound."""
    lines = game.lines
    if len(lines) > MAX_LINES:
        raise ReplayError("%s: %d moves and takebacks: a replay takes at most %d"
                          % (game.source, len(lines), MAX_LINES))
    takebacks = 0
    for line in lines:
        if isinstance(line, dict):
            takebacks += 1
    if takebacks > MAX_TAKEBACKS:
        raise ReplayError("%s: %d takebacks: a replay takes at most %d"
                          % (game.source, takebacks, MAX_TAKEBACKS))


def _offer_next(fw, play, line, reveal):
    """At a choice, the cursor on the move the next line plays, as its player had walked to it
    before pressing ok -- unless that move stays hidden ("?": the game's is_secret()) or the
    next line takes a move back."""
    if line is None or isinstance(line, dict) or play.wait != "decide":
        return
    secret = getattr(play.state, "is_secret", None)
    if secret is not None and secret() and not reveal:
        return
    played = fw["games"].as_action(line)
    for i, choice in enumerate(play.choices):  # (a sequence, not always a list)
        if choice == played:
            play.cursor = i
            return


def _maker(fw, module, rules, options, header, profile, seats):
    """(lines, Play class) -> (the firmware's Play resumed after those lines, whether it dealt
    at once)."""
    painter = fw["draw"].Painter(profile, module.NAME, rules.get("palette", {}),
                                 rules.get("signs"), header.get("vision", False))

    def made(lines, Play=fw["play"].Play):
        journal = _Journal([_action(fw, line) for line in lines])
        play = Play(module, _copy(rules), options, header.get("seed", 0), journal, painter,
                    True, seats)
        return play, bool(journal.appended)

    return made


def _stepper(fw):
    """The firmware's Play as the replay steps it: fed the log a line at a time (its journal's
    own _replay: a move, or a takeback), it settles on what the board waits for only when asked
    (`settle`: where the board, powered up with its journal cut there, would be), and a
    takeback to a length whose state it keeps (`keep`) starts from that state, not from the
    game's first move."""
    Play = fw["play"].Play

    class Stepper(Play):
        settling = False  # (Play's constructor settles at once: it would deal the game's first
        # cards from its own die, where the log's next lines are the cards the board dealt)
        kept = None  # {moves: the state at that length, as to_dict() gave it}

        def _advance(self, now):
            if self.settling:
                Play._advance(self, now)

        def settle(self):
            self.settling = True
            try:
                self._advance(0)
            finally:
                self.settling = False
            return self

        def keep(self, state):
            if self.kept is None:
                self.kept = {}
            self.kept[len(self.state.history)] = state

        def _replay(self, move):
            kept = self.kept
            if not isinstance(move, dict) or not kept:
                return Play._replay(self, move)
            to = move["takeback"]
            for moves in [m for m in kept if m > to]:  # (what follows is played anew)
                del kept[moves]
            if to not in kept:
                return Play._replay(self, move)
            module = self.module
            self.module = _Kept(module, kept[to])
            try:  # (the firmware's takeback, which rebuilds the game with module.State)
                Play._replay(self, move)
            finally:
                self.module = module

    return Stepper


class _Kept:
    """The game's module as a takeback sees it while it steps back to a kept state: its State()
    is that state again, from its dict, so that the takeback replays no move."""

    def __init__(self, module, state):
        self.module = module
        self.state = state

    def State(self, rules, options):
        return self.module.State.from_dict(rules, self.state)


def _action(fw, line):
    """A line of the log as Play's journal gives it: a move (tuples), or a takeback."""
    if isinstance(line, dict):
        if set(line) != {"takeback"} or not isinstance(line["takeback"], int) \
                or line["takeback"] < 0:
            raise ValueError('expected a move or {"takeback": N}')
        return line
    return fw["games"].as_action(line)


def _copy(rules):
    return json.loads(json.dumps(rules))


def _dealing(fw, state):
    """True at a shuffle or a deal (the board draws it at once, and no one sees it)."""
    return state.current_player() == fw["games"].CHANCE and not state.chance_is_roll()


def _at_roll(fw, state):
    return state.current_player() == fw["games"].CHANCE and state.chance_is_roll()


def _mid_roll(fw, was, state):
    """True between the dice of one press of roll (the board draws them all at once); was: (at
    a roll, moves) of the line before."""
    return was is not None and was[0] and _at_roll(fw, state) \
        and len(state.history) == was[1] + 1


def _moves(play, start, count, reveal):
    """The step's moves as the firmware's log shows them ("?" while hidden), or in clear."""
    if reveal:
        return list(play.state.history[start:start + count])
    return play.log(start, count)["moves"]


def _position(fw, play, step, lines, moves, took_back, profile):
    """The board at this step: the frame its firmware writes (after the power limiter)."""
    render = fw["render"]
    frame = render.new_frame(profile["led"]["count"])
    play.draw(frame)
    out = render.new_frame(profile["led"]["count"])
    render.PowerLimiter(profile["led"]).limit(frame, out)
    return Position(step, lines, bytes(out), play.describe(), moves, took_back,
                    len(play.state.history), play.state.to_dict())
