# The loader's second half (the first, boot.py, put the active slot on the import path):
# runs the slot's firmware. The loader is fixed: `cheeseboard flash` sends the one of the
# tool that flashes, never a firmware tree's own, since it is what brings a board back from
# a bad firmware (docs/flashing.md).
#
# What is here runs at every boot and stays in the heap beside the firmware, so it is only
# the common path. A new firmware's trial (its watchdog, its count of boots, its verdict and
# the way back to the previous slot) and a trusted firmware that raises are recover.py's,
# compiled only on a trial boot or after an exception (once the failed program's heap is
# free again). A firmware that fell is forgiven after _SETTLED_TICKS of play.
import json
import os
import sys

from micropython import const

STATE = "slot.json"
_STATE_BYTES = const(1024)  # slot.json's most (with a failed update's reason: under 500)
_SETTLED_TICKS = const(3000)  # main-loop ticks (30 s) of play that forgive a firmware's falls
_settle = 0  # ticks until a firmware that fell is forgiven (0: nothing to forgive)


def read_state():
    # slot.json, or None when there is none that can be read
    try:
        with open(STATE) as f:
            state = json.loads(f.read(_STATE_BYTES))
    except Exception:  # missing, a folder, cut short, larger than any slot.json, not JSON
        return None
    return state if type(state) is dict and runnable(state.get("active")) else None


def runnable(slot):
    # slot.json's "active": the firmware frozen into MicroPython, or a slot on the flash that
    # was sealed (its manifest written last). Any other name ("slot_c", "../x", a slot gone or
    # half-written) is a slot.json that cannot be read: made again from the slots, not left to
    # fall at every boot until the REPL.
    if slot == "frozen":
        return True
    if slot not in ("slot_a", "slot_b"):
        return False
    try:
        os.stat(slot + "/manifest.json")
    except OSError:
        return False
    return True


def cut_short(slot):
    # The first compiled module of a sealed slot not at the size its manifest gives
    # ("manifest.json" when it has none that can be read), or None. Such a module is never
    # imported: MicroPython's importer reads on past a .mpy's end for ever, and the board would
    # say nothing. Checked once a boot, not at each read_state (a game's heap may have no room
    # for the manifest); sizes only, as a digest of every module would cost a boot seconds.
    if slot == "frozen":
        return None  # (its modules are in MicroPython's own firmware)
    name = "manifest.json"
    try:
        with open(slot + "/manifest.json") as f:
            files = json.loads(f.read(16384))["files"]  # (7.5 KB today)
        # Sizes from each folder's listing, made once: on a Pico's LittleFS a listing gives
        # every file's size, where each os.stat walks the path down from the root's metadata
        # (10 ms a module four folders deep: two thirds of a second a boot). The unix port's
        # listing has none: there, a stat. (Few names: each new one is interned for good.)
        sizes = {}  # {folder: {file name: size}}
        for name in files:
            if name.endswith(".mpy"):
                path = (slot + "/" + name).rpartition("/")  # (folder, "/", file name)
                if path[0] not in sizes:
                    sizes[path[0]] = {e[0]: e[3] for e in os.ilistdir(path[0]) if len(e) > 3}
                size = sizes[path[0]].get(path[2])
                if size is None:
                    size = os.stat(slot + "/" + name)[6]
                if size != files[name][0]:
                    return name
    except Exception:  # one not JSON, a module gone
        return name
    return None


def write_state(state):
    # Write, then rename over the old: a power cut leaves one or the other, whole.
    with open(STATE + ".new", "w") as f:
        json.dump(state, f)
    os.rename(STATE + ".new", STATE)


def feed():
    """Every tick: the count to a fall's forgiving."""
    global _settle
    if _settle:
        _settle -= 1
        if not _settle:
            state = read_state()
            if state:
                state.pop("falls", None)
                write_state(state)


def on_trial(state):
    """state (slot.json) when it holds a new firmware's trial, else None."""
    return state if state and state.get("trial") and state.get("previous") else None


def put_slot_on_path(state):
    """The active slot first on the import path, as boot.py puts it: a host tool's Ctrl-C in
    the first instants of a boot can stop boot.py before it has (and a board runs main.py
    all the same), which would leave no firmware to import."""
    slot = state.get("active") if state else None
    if slot in ("slot_a", "slot_b") and "/" + slot not in sys.path:
        sys.path.insert(0, "/" + slot)


state = read_state()
if state and cut_short(state["active"]):
    state = None  # its slot is not whole: made again from the whole slots
if not state and ("slot_a" in os.listdir() or "slot_b" in os.listdir()):
    import recover  # slot.json unreadable beside the slots: made again (rare: not resident)

    state = recover.repaired_state(write_state, cut_short, read_state)
put_slot_on_path(state)
del cut_short  # (its code's heap back for the game: needed only before this point)
if on_trial(state):
    import recover

    recover.trial(state, on_trial, read_state, write_state)
else:
    try:
        from cheesefw import app

        if state and state.get("falls"):
            _settle = _SETTLED_TICKS
        app.main(None, feed)
    except Exception as e:  # (a host tool's Ctrl-C is a KeyboardInterrupt, no Exception: no fall)
        # The fallen firmware's modules, and all they hold, go before recover.py is compiled:
        # a firmware that fell for want of heap would otherwise leave none for it (and the
        # board would stop at the REPL, its fall never counted).
        globals().pop("app", None)
        for name in [m for m in sys.modules if m == "cheesefw" or m.startswith("cheesefw.")]:
            del sys.modules[name]
        import gc

        gc.collect()
        import recover

        recover.fell(e, read_state, write_state)
