"""Power-on: the profile read and checked, the board opened, the engine started.

This runs once, before the main loop; cheesefw.app.start lets go of it as soon as the App is
made, so that none of it is in the heap while the board plays.
"""

import gc
import json

from cheesefw import const
from cheesefw.engine.draw import PackedMap
from cheesefw.home import HOME
from cheesefw.modules import forget

PROFILE_FILE = "profile.json"  # in HOME, flashed with the firmware
# The last profile that passed its check on this board, at the root of the flash: where the
# board turns when its slot's profile cannot be read or is refused, so that a damaged file
# never leaves it at the REPL (docs/flashing.md, "Files the board cannot read").
GOOD_COPY = "profile.good.json"
_MOST_DEPTH = const(8)  # a profile nests 4 deep; a deeper one is refused before json.loads


def _pack(pixels):
    """A list of pixel indices as bytes (a quarter of a list's heap) when they fit in a byte."""
    for p in pixels:
        if not 0 <= p < 256:
            return pixels
    return bytes(pixels)


def load_profile(open_file=open, name=None):
    """The board's hardware profile, read from its file (name: the one start chose, HOME's by
    default) a little at a time (there may be no free block the file's size) through open_file
    (open, or a board's); its pixel lists packed into bytes to save heap."""
    with open_file(name or HOME + PROFILE_FILE) as f:
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
    profile = load_profile(board.open, board.profile.get("file"))
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
    module does not import would otherwise crash the board only when it is chosen). Each
    step says so on the console: a host watching the trial hears the board is at it."""
    from cheesefw.games import GAMES

    for name in GAMES:
        __import__("cheesefw.games." + name)
        forget("cheesefw.games.")
        gc.collect()
        print("trial: %s imported" % name)
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
        print("trial: %s table read" % name)
        if feed:
            feed()


def _candidates():
    """The profiles to try, best first: the slot's own; the last that passed here; the other
    slot's; the frozen firmware's (a UF2's, in /frozen/)."""
    names = [HOME + PROFILE_FILE, GOOD_COPY]
    for slot in ("/slot_a/", "/slot_b/"):
        if slot != HOME:
            names.append(slot + PROFILE_FILE)
    if HOME != "/frozen/":
        names.append("/frozen/" + PROFILE_FILE)
    return names


def _read_checked(name, read_file, checked):
    """(profile, sha, whether it was checked before) from file name, or (None, why): read
    within a bound (its size, its nesting) before json sees it, so that a huge or deeply
    nested file is refused rather than exhausting the heap or the stack. A file this firmware
    passed before, unchanged since (its stamp), is not checked again: the strict JSON check's
    code, and the names it interns for good, stay out of an ordinary boot."""
    try:
        data = read_file(name)  # ValueError past the most the firmware reads whole
        if data is None:
            return None, "missing"
        stamp = checked.stamp(read_file, checked.file_digest(open, name))
        known = checked.passed(read_file, name, stamp)
        if not known:
            from cheesefw import strict_json

            strict_json.check(data, _MOST_DEPTH)
            if data.lstrip()[:1] != b"{":
                return None, "not an object"
        data = None
        gc.collect()
        # (read again, a little at a time: there may be no free block the file's size)
        profile = load_profile(open, name)
    except Exception as e:  # a folder, cut short, too large, too deep, fields of wrong types
        return None, "%s: %s" % (type(e).__name__, e)
    gc.collect()
    errors = None if known else profile_faults(profile)
    if errors:
        return None, "; ".join(errors)
    return profile, stamp, known


def _keep_good_copy(board, name, read_file, checked):
    # Written only when it differs from the one that just passed (write-then-rename through
    # the board: a power cut leaves the old copy or the new one, whole).
    try:
        if checked.file_digest(open, GOOD_COPY) != checked.file_digest(open, name):
            board.write_file(GOOD_COPY, read_file(name))
    except (OSError, ValueError, MemoryError) as e:
        print("%s not kept: %s" % (GOOD_COPY, e))


def start(trial=False, feed=None):
    """The board's App, or None when no profile can be read and passes (each fault said on the
    console). trial: a new firmware's first boot, which first imports every game and reads
    every rule table once (feed() keeps its watchdog fed meanwhile)."""
    from cheesefw import checked, hal
    from cheesefw.hal.base import read_file

    if trial:
        import_every_game(feed)
    found = None
    for name in _candidates():
        found = _read_checked(name, read_file, checked)
        if found[0] is not None:
            break
        if found[1] != "missing" or name == HOME + PROFILE_FILE:
            print("%s: %s" % (name, found[1]))
    forget("cheesefw.strict_json")  # its code's heap back for the game
    if found[0] is None:
        # Nothing lit or read would be right: stop at the REPL, the faults said above.
        return None
    profile, stamp, known = found
    if name != HOME + PROFILE_FILE:
        print("cheeseboard: the profile used is %s" % name)
        profile["file"] = name  # read again from there after each game (read_maps)
    pack_maps(profile)
    gc.collect()
    board = hal.open_board(profile)
    if not known:
        checked.record(board, name, stamp)
    if name == HOME + PROFILE_FILE:
        _keep_good_copy(board, name, read_file, checked)
    if trial:
        check_every_table(board, feed)
    from cheesefw.app import App
    from cheesefw.engine.core import Engine

    return App(board, Engine(board))
