# Runs the firmware of the active slot (boot.py put it on the import path).
# A freshly flashed firmware is on trial: if it raises or stops before its main loop
# has run for a second, or the board resets before then, the board goes back to the
# previous slot and notes why in slot.json, where `cheeseboard flash` reads it.
import json
import os
import sys

STATE = "slot.json"


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


def roll_back(state, why):
    failed = {"slot": state["active"], "build": state.get("build"), "error": why}
    write_state({"active": state["previous"], "previous": state["active"], "failed": failed})
    print("cheeseboard: the new firmware failed (%s); back to %s" % (why, state["previous"]))
    raise SystemExit  # a soft reset: boot.py puts the previous slot on the path


def up():
    state = on_trial()
    if state:
        state.pop("trial")
        state.pop("boots", None)
        write_state(state)


def error_text(e):
    import io

    buf = io.StringIO()
    sys.print_exception(e, buf)
    lines = buf.getvalue().strip().split("\n")[-3:]  # where it failed, and why
    return " | ".join(line.strip() for line in lines)[-300:]


try:
    state = on_trial()
    if state:
        if state.get("boots"):
            roll_back(state, "the board reset before the firmware was up")
        state["boots"] = 1
        write_state(state)
    from cheesefw import app

    app.main(up)
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
    if not state:
        raise
    roll_back(state, error_text(e))
state = on_trial()  # main() returned: it stopped at a bad profile, before being up
if state:
    roll_back(state, "the firmware stopped before it was up")
