"""The App's answers to the protocol's hello, state and log: imported at the first request that
asks one (cheesefw.app), so that a board no host talks to keeps their code's heap and names for
play."""

import gc
import json
import sys

from cheesefw import VERSION, request_line


def hello(app, request):
    return facts(app.board.profile["name"])


def facts(profile):
    """hello's answer: the firmware, the profile's name, where it runs, its free heap, slot.json."""
    gc.collect()
    impl = sys.implementation
    return {
        "firmware": VERSION,
        "profile": profile,
        "platform": sys.platform,
        "runtime": "%s %d.%d.%d" % ((impl.name,) + impl.version[:3]),
        "heap_free": gc.mem_free(),
        "slot": _slot_state(),
    }


def state(app, request):
    # A stuck button is reported here, and ignored until it comes free.
    described = app.scene.describe()
    # The seats the board plays, each at its level (a log's header keeps them): said here, so
    # that a game's describe() costs play no more names
    levels = getattr(getattr(app.scene, "scene", None), "levels", None)
    if levels:
        described["seats"] = sorted([seat, level] for seat, level in levels.items())
    return {"state": described, "stuck": app.buttons.stuck()}


def selftest(app, request):
    from cheesefw import selftest  # the bring-up test: a board that plays never loads it

    return selftest.command(app, request)


def seed(app, request):
    """The die's seed for the games from now until the board's next power-on, as `cheeseboard
    sim --seed` gives a virtual board: a test's game repeats on a board whose chip seeds its
    die from its own noise (an emulated Pico). The game in progress keeps its seed."""
    from cheesefw.engine.rng import seed_after

    first = request_line.number(request, "seed", 0, 0x3FFFFFFF)
    games = [0]

    def next_seed():
        games[0] += 1
        return seed_after(first, games[0] - 1)

    app.board.random_seed = next_seed
    return {"seed": first}


def log(app, request):
    return app.scene.log(request_line.number(request, "from", 0, request_line.MAX_ID, 0))


def _slot_state():
    """slot.json: the active firmware slot, and whether a new firmware is on trial (it
    tells `cheeseboard flash` how an update went)."""
    try:
        with open("slot.json") as f:
            return json.loads(f.read(1024))  # (the loader's bound: it remade a larger one)
    except (OSError, ValueError):
        return None
