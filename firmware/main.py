# The loader's second half (the first, boot.py, put the active slot on the import path):
# runs the slot's firmware, on trial when it is new. The loader is fixed: `cheeseboard
# flash` sends the one of the tool that flashes, never a firmware tree's own, since it
# is what brings a board back from a bad firmware (docs/flashing.md).
#
# A firmware on trial is up once it has imported every game module, run its main loop
# for app.UP_MS and answered the protocol. It goes back to the previous slot, noting why
# in slot.json (where `cheeseboard flash` reads it), when it raises or stops before then,
# or when the board resets before then: a watchdog (machine.WDT, on boards that have one,
# started here) resets a firmware that hangs, and this boot finds the trial counted. When a
# firmware that was up raises, recover.py (compiled only then) restarts it, and goes back a
# slot after its third fall in a row without SETTLED_TICKS of play between.
import json
import os
import sys

STATE = "slot.json"
WDT_MS = 8000  # the watchdog's timeout on trial (an RP2040's longest is 8.3 s)
SETTLED_TICKS = 3000  # main-loop ticks (30 s) of play that forgive a firmware's falls
_wdt = None
_settle = 0  # ticks until a firmware that fell is forgiven (0: nothing to forgive)


def read_state():
    try:
        with open(STATE) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_state(state):
    # Write, then rename over the old: a power cut leaves one or the other, whole.
    with open(STATE + ".new", "w") as f:
        json.dump(state, f)
    os.rename(STATE + ".new", STATE)


def on_trial():
    state = read_state()
    return state if state and state.get("trial") and state.get("previous") else None


def restart():
    """A hard reset where the watchdog runs (only a reset stops it: a soft reset would
    leave it to bite in the next program, a host tool's raw REPL say), else a soft one."""
    if _wdt:
        import machine

        machine.reset()
    raise SystemExit  # a soft reset: boot.py puts the active slot on the path


def roll_back(state, why):
    failed = {"slot": state["active"], "build": state.get("build"), "error": why}
    write_state({"active": state["previous"], "failed": failed})
    print("cheeseboard: the new firmware failed (%s); back to %s" % (why, state["previous"]))
    restart()


def up():
    state = on_trial()
    if state:
        state.pop("trial")
        state.pop("boots", None)
        write_state(state)
        if _wdt:
            restart()  # to run without the watchdog from here on


def feed():
    """Every tick: the watchdog's food, and the count to a fall's forgiving."""
    global _settle
    if _wdt:
        _wdt.feed()
    if _settle:
        _settle -= 1
        if not _settle:
            state = read_state()
            state.pop("falls", None)
            write_state(state)


def put_slot_on_path():
    """The active slot first on the import path, as boot.py puts it: a host tool's Ctrl-C in
    the first instants of a boot can stop boot.py before it has (and a board runs main.py
    all the same), which would leave no firmware to import."""
    state = read_state()
    slot = state.get("active") if state else None
    if slot in ("slot_a", "slot_b") and "/" + slot not in sys.path:
        sys.path.insert(0, "/" + slot)


def error_text(e):
    import io

    buf = io.StringIO()
    sys.print_exception(e, buf)
    lines = buf.getvalue().strip().split("\n")[-3:]  # where it failed, and why
    return " | ".join(line.strip() for line in lines)[-300:]


try:
    put_slot_on_path()
    state = on_trial()
    if state:
        if state.get("boots"):
            roll_back(state, "the board reset before the firmware was up")
        state["boots"] = 1
        write_state(state)
        try:
            import machine

            _wdt = machine.WDT(timeout=WDT_MS)
        except (ImportError, AttributeError, ValueError, OSError):
            pass  # no watchdog: a hang goes back at the next reset
    from cheesefw import app

    if not state and (read_state() or {}).get("falls"):
        _settle = SETTLED_TICKS
    app.main(up if state else None, feed)
except KeyboardInterrupt:
    # Stopped from the console (a host tool's Ctrl-C): no verdict on the new firmware;
    # the next boot starts its trial again.
    state = on_trial()
    if state:
        state["boots"] = 0
        write_state(state)
    raise
except Exception as e:
    state = on_trial()
    if state:
        roll_back(state, error_text(e))
    state = read_state()
    if not state or "active" not in state:
        raise  # a firmware at the root of the flash: no slots to restart or go back to
    import recover

    recover.fell(state, e, write_state, roll_back, restart, error_text)
state = on_trial()  # main() returned: it stopped at a bad profile, before being up
if state:
    roll_back(state, "the firmware stopped before it was up")
