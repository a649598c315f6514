"""One game of any game module, played to the end by the kinds of player given per seat.

A kind is "random" (a legal action drawn uniformly; in a reaction window: pass, or one of its
own plays, drawn uniformly), or a level of the game's board player ("beginner", "strong",
through the module's `bot_move`; in a reaction window `bot_move(state, rng, level, seats)`). Every
choice, chance outcome and tie is drawn from the engine's own seeded Rng: a game is a function
of its spec and its seed, in any process, on any machine.
"""

from cheeseboard import paths

KINDS = ("random", "beginner", "strong")
# A table's pace, for minutes of play: a press of roll (and watching the die), a choice made.
SECONDS_PER_ROLL = 6
SECONDS_PER_CHOICE = 4
MAX_ACTIONS = 100000  # a game longer than this is a bug in a game or a player: said so


def games_package():
    return paths.import_firmware("cheesefw.games")


def kinds_for(module):
    """The kinds of player a game offers: random, and its board's levels when it has them."""
    return KINDS if hasattr(module, "bot_move") else KINDS[:1]


def play_one(module, rules, options, kinds, seed):
    """Play one game; a record: winners, seat kinds, turns, rolls, choices, powers played."""
    games = games_package()
    Rng = paths.import_firmware("cheesefw.engine.rng").Rng

    chance, reaction, pass_ = games.CHANCE, games.REACTION, games.PASS
    state = module.State(rules, options)
    rng = Rng(seed)
    n = state.num_players()
    rolls = choices = turns = 0
    last_player = None
    in_roll = False
    powers = {}
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        p = state.current_player()
        if p == chance:
            is_roll = state.chance_is_roll()
            if is_roll and not in_roll:
                rolls += 1  # one press of roll resolves every die of the roll
            in_roll = is_roll
            state.apply_action(rng.choose(state.chance_outcomes()))
            continue
        in_roll = False
        if p == reaction:
            action = _react(module, state, rng, kinds, n, pass_)
        else:
            action = _decide(module, state, rng, kinds[p])
            if p != last_player:
                turns += 1
                last_player = p
        if type(action) is tuple and len(action) == 3 and action[0] == "play":
            # A power marker (the Gouda race): counted per power and seat.
            per_seat = powers.setdefault(action[2], [0] * n)
            per_seat[state.action_player(action)] += 1
        if action != pass_:
            choices += 1
        state.apply_action(action)
    else:
        raise RuntimeError("a game of %s did not end in %d actions (seed %d)"
                           % (module.NAME, MAX_ACTIONS, seed))
    return {
        "seed": seed,
        "kinds": list(kinds),
        "winners": list(state.winners()),
        "turns": turns,
        "rolls": rolls,
        "choices": choices,
        "actions": len(state.history),
        "minutes": round((rolls * SECONDS_PER_ROLL + choices * SECONDS_PER_CHOICE) / 60, 2),
        "powers": powers,
    }


def _decide(module, state, rng, kind):
    if kind == "random":
        legal = state.legal_actions()
        return legal[rng.below(len(legal))]
    return module.bot_move(state, rng, kind)


def _react(module, state, rng, kinds, n, pass_):
    """A reaction window: the seats are asked in an order drawn anew each time (who presses
    first at a table is anyone's guess); the first that does not pass acts."""
    legal = state.legal_actions()
    order = list(range(n))
    for i in range(n - 1, 0, -1):  # a Fisher-Yates shuffle on the seeded source
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    for seat in order:
        kind = kinds[seat]
        if kind == "random":
            mine = [a for a in legal if a != pass_ and state.action_player(a) == seat]
            if not mine:
                continue
            pick = rng.below(len(mine) + 1)
            action = mine[pick] if pick < len(mine) else pass_
        else:
            action = module.bot_move(state, rng, kind, [seat])
        if action != pass_:
            return action
    return pass_


def seat_kinds(kinds, n, game_index, rotate):
    """The kind of player at each seat in game game_index: kinds repeated to n seats, and
    turned by one seat a game when rotate (so that seats and kinds come apart)."""
    base = [kinds[i % len(kinds)] for i in range(n)]
    if not rotate:
        return base
    k = game_index % n
    return base[n - k:] + base[:n - k]


def game_seed(seed, index):
    """The seed of game `index` of a sweep seeded `seed`: a 30-bit mix, the same everywhere."""
    x = (seed * 1000003 + index * 7919 + 12345) & 0x3FFFFFFF
    x ^= x >> 13
    x = (x * 2654435) & 0x3FFFFFFF
    return x ^ (x >> 11)


def play_batch(spec, first, count):
    """Games first..first+count-1 of a sweep: spec is a plain dict (game, rules, options, kinds,
    rotate, seed), so that it travels to another process or a Dask worker."""
    games = games_package()
    module = games.load(spec["game"])
    rules = spec["rules"]
    options = spec["options"]
    n = module.State(rules, options).num_players()
    # Seats the game's own options give to the board (the kitchen's cat=board) are the
    # board's strong player, as on the board.
    given = module.bot_players(options) if hasattr(module, "bot_players") else []
    out = []
    for i in range(first, first + count):
        kinds = seat_kinds(spec["kinds"], n, i, spec["rotate"])
        for seat in given:
            kinds[seat] = "strong"
        record = play_one(module, rules, options, kinds, game_seed(spec["seed"], i))
        record["game"] = i
        out.append(record)
    return out
