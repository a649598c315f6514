"""Reading the board's hardware profile: from its file, a little at a time, with its fall-backs.

The slot's own `profile.json` first; when it cannot be read or is refused, the last profile that
passed its check on this board (`profile.good.json`, at the root of the flash), the other slot's,
then the frozen firmware's (a UF2's, in /frozen/), so that a damaged file never leaves the board
at the REPL (docs/flashing.md, "Files the board cannot read"). Power-on (cheesefw.startup) reads
it once; the engine reads its maps again after each game (read_maps).
"""

import gc
import json

from cheesefw import const
from cheesefw.engine.draw import PackedMap
from cheesefw.home import HOME
from cheesefw.modules import forget

PROFILE_FILE = "profile.json"  # in HOME, flashed with the firmware
_GOOD_COPY = const("profile.good.json")  # the last profile that passed its check on this board
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
    for key in ("notes", "bom", "supply", "title", "panel"):  # for people and the host
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
    size."""
    profile = load_profile(board.open, board.profile.get("file"))
    pack_maps(profile)
    return profile["maps"]


def find(read_file, checked):
    """The profile to run: (name, profile, stamp, whether it was checked before) from the first
    file that can be read and passes, best first; or (None, fault) when none does, fault being
    the slot's own file and why, in one line. Each file refused is said on the console."""
    fault = None
    for name in _candidates():
        found = _read_checked(name, read_file, checked)
        if found[0] is not None:
            return (name,) + found
        if found[1] != "missing" or name == HOME + PROFILE_FILE:
            print("%s: %s" % (name, found[1]))
            fault = fault or "%s: %s" % (name, found[1])
    return None, fault


def keep_good_copy(board, name, read_file, checked):
    """The profile that just passed kept as _GOOD_COPY: written only when it differs from the
    copy there (write-then-rename through the board: a power cut leaves the old copy or the
    new one, whole)."""
    try:
        if checked.file_digest(open, _GOOD_COPY) != checked.file_digest(open, name):
            board.write_file(_GOOD_COPY, read_file(name))
    except (OSError, ValueError, MemoryError) as e:
        print("%s not kept: %s" % (_GOOD_COPY, e))


def _profile_faults(profile):
    """What is wrong with the profile (profile_check), its check's code let go after."""
    from cheesefw import profile_check

    try:
        return profile_check.check(profile)
    finally:
        profile_check = None
        forget("cheesefw.profile_check")


def _candidates():
    """The profiles to try, best first: the slot's own; the last that passed here; the other
    slot's; the frozen firmware's (a UF2's, in /frozen/)."""
    names = [HOME + PROFILE_FILE, _GOOD_COPY]
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
    errors = None if known else _profile_faults(profile)
    if errors:
        return None, "; ".join(errors)
    return profile, stamp, known
