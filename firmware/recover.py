# The loader's third file, fixed like boot.py and main.py (docs/flashing.md): what main.py
# does when a firmware that was up raises. It is compiled only then, once the failed
# program's heap is free again, so a board keeps none of it resident while it plays.
#
# The firmware is restarted (a game in progress resumes from its journal) rather than left
# at the REPL for a replug, and the fall is counted in slot.json. The FALLS_BACK-th fall in
# a row, none of them followed by main.SETTLED_TICKS of play, goes back to the previous
# slot as a failed trial does, if that slot is whole; with nowhere to go back to, the board
# stops at the REPL, where a person can look.
import os
import sys

FALLS_BACK = 3


def previous_is_whole(state):
    # A slot that `cheeseboard flash` is rewriting has no manifest until it is sealed (the
    # old one goes first): a half-written slot is never gone back to.
    try:
        os.stat("/%s/manifest.json" % state["previous"])
    except (OSError, KeyError, TypeError):
        return False
    return True


def fell(state, e, write_state, roll_back, restart, error_text):
    """The fall of a trusted firmware (state: slot.json); main.py's own helpers passed in."""
    falls = state.get("falls", 0) + 1
    if falls >= FALLS_BACK:
        if not previous_is_whole(state):
            raise e
        sys.print_exception(e)
        roll_back(state, "it fell %d times in a row: %s" % (falls, error_text(e)))
    sys.print_exception(e)
    state["falls"] = falls
    write_state(state)
    print("cheeseboard: the firmware stopped (%s); restarting it (%d of %d)"
          % (error_text(e), falls, FALLS_BACK))
    restart()
