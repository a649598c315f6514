"""A game's log turned into the positions a board showed, one per step, by the firmware itself.

Each position is what the board shows when it powers up with its journal cut after that line:
the firmware's own `Play` resumes the game from those moves (its power-cut path: the game module
applies each move, as it did live), draws its LEDs through its own painter and power limiter,
and says what it waits for (`describe`). No rule is written here: a move the game does not
allow is an error, as on the board.

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


def positions(game, profile, rules=None, reveal=False, fw=None):
    """The replay's steps: [Position], the first the board as the game began (fw: the
    firmware's modules, `firmware()`'s by default)."""
    fw = fw or firmware()
    games = fw["games"]
    header = game.header
    try:
        module = games.load(header.get("game"))
    except ValueError as e:
        raise ReplayError(str(e)) from None
    rules = rules if rules is not None else default_rules(module.NAME)
    options = header.get("options") or {}
    seats = [tuple(s) for s in header.get("seats", ())]
    made = _maker(fw, module, rules, options, header, profile, seats)
    steps = []
    before = None
    shown = 0  # the lines up to the last step
    for n in range(len(game.lines) + 1):
        line = game.lines[n - 1] if n else None
        try:
            play, dealt = made(game.lines[:n])
        except (ValueError, KeyError, IndexError, TypeError, AssertionError) as e:
            raise ReplayError("%s: line %d (%s) cannot be played in %s with the rule table used "
                              "(%s): was the game played with another table? --rules names it"
                              % (game.source, n, json.dumps(line), module.NAME, e)) from None
        if isinstance(line, dict):  # a takeback: always a step of its own
            went = len(before.state.history) - line["takeback"]
            steps.append((play, n, [], went))
        elif dealt or (before and _mid_roll(fw, before, play)):
            before = play
            continue  # the board went on at once: no one ever saw this position
        else:
            start = len(play.state.history) - (n - shown)
            steps.append((play, n, _moves(play, start, n - shown, reveal), 0))
        shown = n
        before = play
    for i, (play, _, _, _) in enumerate(steps[:-1]):
        _offer_next(fw, play, steps[i + 1])
    return [_position(fw, play, i, n, moves, went, profile)
            for i, (play, n, moves, went) in enumerate(steps)]


def _offer_next(fw, play, after):
    """At a choice, the cursor on the move that was played, as its player had walked to it
    before pressing ok -- unless that move stays hidden ("?") or was taken back."""
    _, _, moves, went = after
    if went or not moves or moves[0] == "?" or play.wait != "decide":
        return
    played = fw["games"].as_action(json.loads(json.dumps(moves[0])))
    for i, choice in enumerate(play.choices):  # (a sequence, not always a list)
        if choice == played:
            play.cursor = i
            return


def _maker(fw, module, rules, options, header, profile, seats):
    """(lines) -> (the firmware's Play resumed after those lines, whether it dealt at once)."""
    Play = fw["play"].Play
    painter = fw["draw"].Painter(profile, module.NAME, rules.get("palette", {}),
                                 rules.get("signs"), header.get("vision", False))

    def made(lines):
        journal = _Journal([_action(fw, line) for line in lines])
        play = Play(module, _copy(rules), options, header.get("seed", 0), journal, painter,
                    True, seats)
        return play, bool(journal.appended)

    return made


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


def _mid_roll(fw, before, after):
    """True between the dice of one press of roll (the board draws them all at once)."""
    CHANCE = fw["games"].CHANCE
    state = after.state
    was = before.state
    return (was.current_player() == CHANCE and was.chance_is_roll()
            and state.current_player() == CHANCE and state.chance_is_roll()
            and len(state.history) == len(was.history) + 1)


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
