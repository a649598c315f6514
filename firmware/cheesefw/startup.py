"""Power-on: the profile read and checked, the board opened, the engine started.

This runs once, before the main loop (cheesefw.app.start calls it and lets go of it, with what
it imported, as soon as the App is made), so that none of it is in the heap while the board
plays. Reading the profile, with its fall-backs, is cheesefw.profile_file's; what only a new
firmware's first boot does is cheesefw.first_boot's.
"""

import gc

from cheesefw.home import HOME


def start(trial=False, feed=None):
    """(board, engine) for the App; or, when no profile can be read and passes, the fault in
    one line (the slot's own profile and why; every file refused is said on the console).
    trial: a new firmware's first boot, which first imports every game and reads every rule
    table once (feed() keeps its watchdog fed meanwhile)."""
    from cheesefw import checked, hal, profile_file
    from cheesefw.hal.base import read_file
    from cheesefw.modules import forget

    if trial:
        from cheesefw.first_boot import import_every_game

        import_every_game(feed)
    found = profile_file.find(read_file, checked)
    forget("cheesefw.strict_json")  # its code's heap back for the game
    if found[0] is None:
        return found[1]
    name, profile, stamp, known = found
    own = HOME + profile_file.PROFILE_FILE
    if name != own:
        print("cheeseboard: the profile used is %s" % name)
        profile["file"] = name  # read again from there after each game (read_maps)
    profile_file.pack_maps(profile)
    gc.collect()
    board = hal.open_board(profile)
    if not known:
        checked.record(board, name, stamp)
    if name == own:
        profile_file.keep_good_copy(board, name, read_file, checked)
    if trial:
        from cheesefw.first_boot import check_every_table

        check_every_table(board, feed)
    from cheesefw.engine.core import Engine

    return board, Engine(board)
