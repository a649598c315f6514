"""Where the firmware's own files are: the slot it was flashed into (see docs/flashing.md)."""

import os


def _home():
    # The folder the firmware was flashed into ("/slot_a/"), found from where this
    # module was imported. A firmware frozen into MicroPython (a UF2 built by `cheeseboard
    # uf2`) is imported from no folder: frozen_firmware, frozen beside it, names the folder
    # its files were put in (/frozen/). "" when the cheesefw package sits at the root of the
    # flash.
    i = __file__.rfind("cheesefw/home.")
    if i > 0:
        return __file__[:i]
    try:
        from frozen_firmware import HOME  # type: ignore[import-not-found]  # only in a UF2

        return HOME
    except ImportError:
        return ""


HOME = _home()


def rules_files(game):
    """Where the game's rule table may be, first found wins: one synced to the board (rules/
    at the root of the flash), then the default that came with the firmware (in HOME)."""
    name = "rules/%s.json" % game
    return (name, HOME + name) if HOME else (name,)


def rules_file(game):
    """The game's rule table on the flash (the last place to look, when there is none)."""
    places = rules_files(game)
    for name in places[:-1]:
        try:
            os.stat(name)
            return name
        except OSError:
            pass
    return places[-1]
