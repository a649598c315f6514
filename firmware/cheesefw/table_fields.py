"""What every game's rule-table loader and options need: a field of the expected type (an int
within bounds), and the options chosen from a game's OPTIONS, each refusal naming the game and
the field."""


def field(game, d, key, kind, where=""):
    """d[key], which must be of type `kind`; ValueError naming the field otherwise."""
    value = d.get(key) if isinstance(d, dict) else None
    if type(value) is not kind:
        raise ValueError("%s rules: %s%s expected %s, got %r"
                         % (game, where, key, kind.__name__, value))
    return value


def int_in(game, d, key, low, high, where=""):
    """d[key], an int in low..high; ValueError naming the field otherwise."""
    value = field(game, d, key, int, where)
    if not low <= value <= high:
        raise ValueError("%s rules: %s%s expected %d..%d, got %d"
                         % (game, where, key, low, high, value))
    return value


def choose_options(game, choices, options):
    """The options of a game: `options` (a dict, or None for the defaults) checked against
    `choices` (the game's OPTIONS), the first value of each the default."""
    if options is None:
        options = {}
    if type(options) is not dict:
        raise ValueError("%s: options expected a dict, got %r" % (game, options))
    chosen = {}
    for key, values in choices:
        chosen[key] = values[0]
    for key in options:
        allowed = [v for k, v in choices if k == key]
        value = options[key]
        if not allowed or not [v for v in allowed[0] if type(v) is type(value) and v == value]:
            want = allowed[0] if allowed else [k for k, _ in choices]  # (True is not 1 here)
            raise ValueError("%s: option %r expected one of %r, got %r" % (game, key, want, value))
        chosen[key] = value
    return chosen


def for_game(game):
    """field and int_in with the game's name given: what a game's table reader calls, each
    refusal naming its game. (Lambdas: they have no names of their own, which a board would
    intern.)"""
    return (
        lambda d, key, kind, where="": field(game, d, key, kind, where),
        lambda d, key, low, high, where="": int_in(game, d, key, low, high, where),
    )
