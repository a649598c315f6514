"""Power-on: the profile read and checked, the board opened, the engine started.

This runs once, before the main loop; cheesefw.app.start lets go of it as soon as the App is
made, so that none of it is in the heap while the board plays.
"""

import gc
import json

from cheesefw.engine.draw import PackedMap
from cheesefw.home import HOME
from cheesefw.modules import forget

PROFILE_FILE = "profile.json"  # in HOME, flashed with the firmware


def _pack(pixels):
    """A list of pixel indices as bytes (a quarter of a list's heap) when they fit in a byte."""
    for p in pixels:
        if not 0 <= p < 256:
            return pixels
    return bytes(pixels)


def load_profile(open_file=open):
    """The board's hardware profile, read from its file a little at a time (there may be no free
    block the file's size) through open_file (open, or a board's); its pixel lists packed into
    bytes to save heap."""
    with open_file(HOME + PROFILE_FILE) as f:
        profile = json.load(f)
    for key in ("die", "seats", "meter"):
        if key in profile:
            profile[key] = _pack(profile[key])
    for game in profile["maps"]:
        spaces = profile["maps"][game]
        for space in spaces:
            spaces[space] = _pack(spaces[space])
    for key in ("notes", "bom", "supply", "title"):  # for people and the host, not the board
        profile.pop(key, None)
    return profile


def pack_maps(profile):
    """Every game's map packed (engine.draw.PackedMap); after the check."""
    maps = profile["maps"]
    for game in maps:
        maps[game] = PackedMap(maps[game])


def read_maps(board):
    """Every game's map from the profile, packed (for the menu, after a game): the file read a
    little at a time, as at power-on, since after a long game there may be no free block its
    size; this module imports only what this needs (the engine imports it after every game)."""
    profile = load_profile(board.open)
    pack_maps(profile)
    return profile["maps"]


def profile_faults(profile):
    """What is wrong with the profile (profile_check), its check's code let go after."""
    from cheesefw import profile_check

    try:
        return profile_check.check(profile)
    finally:
        profile_check = None
        forget("cheesefw.profile_check")


def import_every_game(feed=None):
    """Import each game module once, and let it go (a new firmware's trial: a game whose
    module does not import would otherwise crash the board only when it is chosen)."""
    from cheesefw.games import GAMES

    for name in GAMES:
        __import__("cheesefw.games." + name)
        forget("cheesefw.games.")
        gc.collect()
        if feed:
            feed()


def check_every_table(board, feed=None):
    """Read the rule table of every game the board shows as a game start reads it (a new
    firmware's trial), so that each one that passes has its stamp now (cheesefw.checked), not
    at its first game. One that does not is said on the console and checked again then."""
    from cheesefw.engine.core import load_rules
    from cheesefw.games import GAMES

    for name in GAMES:
        if name in board.profile["maps"]:
            try:
                load_rules(board, name)
            except (ValueError, MemoryError) as e:
                print("%s: no table stamped: %s" % (name, e))
        gc.collect()
        if feed:
            feed()


def start(trial=False, feed=None):
    """The board's App, or None when the profile is refused (each fault said on the console).
    trial: a new firmware's first boot, which first imports every game and reads every rule
    table once (feed() keeps its watchdog fed meanwhile)."""
    from cheesefw import checked, hal
    from cheesefw.hal.base import read_file

    if trial:
        import_every_game(feed)
    name = HOME + PROFILE_FILE
    stamp = checked.stamp(read_file, checked.file_digest(open, name))
    # (read again, a little at a time: there may be no free block the file's size)
    profile = load_profile()
    known = checked.passed(read_file, name, stamp)  # checked before by this firmware: not again
    gc.collect()
    errors = None if known else profile_faults(profile)
    if errors:
        # Nothing lit or read would be right: say why on the console, and stop at the REPL.
        for e in errors:
            print("profile.json: " + e)
        return None
    pack_maps(profile)
    gc.collect()
    board = hal.open_board(profile)
    if not known:
        checked.record(board, name, stamp)
    if trial:
        check_every_table(board, feed)
    from cheesefw.app import App
    from cheesefw.engine.core import Engine

    return App(board, Engine(board))
