"""cheeseboard firmware: the package copied onto the board next to main.py."""

import os

VERSION = "0.1.0"


def _home():
    # The folder the firmware was flashed into ("/slot_a/"), found from where this
    # package was imported; "" when the package sits at the root of the flash.
    i = __file__.rfind("cheesefw/")
    return __file__[:i] if i > 0 else ""


HOME = _home()


def rules_file(game):
    """The game's rule table: one synced to the board (rules/ at the root of the flash)
    wins over the default that came with the firmware (rules/ in HOME)."""
    name = "rules/%s.json" % game
    if HOME:
        try:
            os.stat(name)
        except OSError:
            return HOME + name
    return name
