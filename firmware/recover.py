# The loader's third file, fixed like boot.py and main.py (docs/flashing.md): its rare paths,
# compiled only when one is taken, so that a board keeps none of them resident while it plays.
#
# trial(): a new firmware is on trial until it is up (app.main calls up()): it has imported
# every game module, run its main loop for a while and answered the protocol. Where the board
# has a watchdog (machine.WDT) it runs for the trial, so that a firmware that hangs resets the
# board; a boot that finds the trial already counted (a reset, a power cut, a hang) goes back
# to the previous slot, and so does a firmware that raises or stops before it is up, noting
# why in slot.json (where `cheeseboard flash` reads it).
#
# fell(): a trusted firmware that raises is restarted (a game in progress resumes from its
# journal) rather than left at the REPL for a replug, and the fall is counted in slot.json. The
# FALLS_BACK-th fall in a row, none of them followed by main._SETTLED_TICKS of play, goes back
# to the previous slot as a failed trial does, if that slot is whole, else to the firmware
# frozen into MicroPython where the board runs a cheeseboard UF2 (slot.json's "frozen", its
# files in /frozen/): the last good one. With nowhere to go back to, the loader itself answers
# `hello` and `state` with the reason (stranded()), so that `cheeseboard info` says it and
# `cheeseboard flash` puts a whole firmware on.
import os
import sys

from micropython import const

FALLS_BACK = 3
FROZEN = "frozen"  # slot.json's name for the firmware frozen into MicroPython (a UF2's)
_MAX_LINE = const(1024)  # the protocol's longest line (cheesefw.protocol)
_WDT_MS = const(8000)  # the watchdog's timeout on trial (an RP2040's longest is 8.3 s)
_wdt = None


def trial(state, on_trial, read_state, write_state):
    """Run a new firmware on trial (state: slot.json, with its "trial" and "previous"); main.py's
    helpers passed in (on_trial(state): state while it holds the trial, else None)."""
    global _wdt
    if state.get("boots"):
        roll_back(state, "the board reset before the firmware was up", write_state)
    state["boots"] = 1
    write_state(state)
    try:
        import machine

        _wdt = machine.WDT(timeout=_WDT_MS)
    except (ImportError, AttributeError, ValueError, OSError):
        pass  # no watchdog: a hang goes back at the next reset

    def up():
        state = on_trial(read_state())
        if state:
            state.pop("trial")
            state.pop("boots", None)
            write_state(state)
            if _wdt:
                restart()  # to run without the watchdog from here on

    def feed():
        _wdt.feed()

    try:
        from cheesefw import app

        app.main(up, feed if _wdt else None)
    except KeyboardInterrupt:
        # Stopped from the console (a host tool's Ctrl-C): no verdict on the new firmware;
        # the next boot starts its trial again.
        state = on_trial(read_state())
        if state:
            state["boots"] = 0
            write_state(state)
        raise
    except Exception as e:
        state = on_trial(read_state())
        if state:
            roll_back(state, error_text(e), write_state)
        fell(e, read_state, write_state)  # up, on a board without a watchdog, then fell
    state = on_trial(read_state())  # main() returned: a bad profile stopped it before it was up
    if state:
        roll_back(state, "the firmware stopped before it was up", write_state)


def fell(e, read_state, write_state):
    """The fall of a trusted firmware: counted, and the board restarted or sent back a slot."""
    state = read_state()
    if not state or "active" not in state:
        raise e  # a firmware at the root of the flash: no slots to restart or go back to
    falls = state.get("falls", 0) + 1
    if falls >= FALLS_BACK:
        back = way_back(state)
        if not back:
            sys.print_exception(e)
            stranded("it fell %d times in a row: %s" % (falls, error_text(e)), read_state)
            raise e  # the console closed: nobody left to answer (the unix port's stdin)
        sys.print_exception(e)
        roll_back(state, "it fell %d times in a row: %s" % (falls, error_text(e)), write_state,
                  back)
    sys.print_exception(e)
    state["falls"] = falls
    write_state(state)
    print("cheeseboard: the firmware stopped (%s); restarting it (%d of %d)"
          % (error_text(e), falls, FALLS_BACK))
    restart()


def repaired_state(write_state, cut_short, read_state):
    """slot.json made again when it cannot be read (cut short, emptied, not an object, a
    folder, gone, naming a slot not whole) while slots are on the flash, the unreadable one
    kept as slot.json.bad: the whole slot sealed last (its manifest's time) is active, on trial
    with the other as the way back when that one is whole too, since which was running is not
    known. None when no slot is sealed; where a sealed slot has a module cut short (main.py's
    cut_short) and none is whole, the loader answers hello and state with the reason."""
    sealed = []
    why = None
    for slot in ("slot_a", "slot_b"):
        cut = cut_short(slot)
        if not cut:
            sealed.append((os.stat(slot + "/manifest.json")[8], slot))
        elif cut != "manifest.json":
            why = why or "%s/%s is cut short (not the size its manifest gives)" % (slot, cut)
    if not sealed and why:
        stranded(why, read_state)
        raise SystemExit  # the console closed: nobody left to answer (the unix port's stdin)
    if not sealed:
        return None
    sealed.sort()
    active = sealed[-1][1]
    state = {"active": active, "previous": None, "build": _build(active)}
    if len(sealed) > 1:
        state["previous"] = sealed[0][1]
        state["trial"] = True
    try:
        os.rename("slot.json", "slot.json.bad")  # (a folder could not be written over)
    except OSError:
        pass
    write_state(state)
    print("cheeseboard: slot.json could not be read; made again: %s" % state)
    return state


def _build(slot):
    """The build id in a slot's manifest (the checks' stamps name it), or None."""
    import json

    try:
        with open(slot + "/manifest.json") as f:
            return json.loads(f.read(16384))["build"]
    except Exception:
        return None


def way_back(state):
    """Where a firmware that keeps falling goes: the previous slot when it is whole, else the
    firmware frozen into MicroPython when the board has one and runs another; else None."""
    if is_whole(state.get("previous")):
        return state["previous"]
    if state.get("active") != FROZEN and is_whole(FROZEN):
        return FROZEN
    return None


def is_whole(slot):
    # A slot that `cheeseboard flash` is rewriting has no manifest until it is sealed (the
    # old one goes first): a half-written slot is never gone back to. The frozen firmware's
    # files are in /frozen/, and its code in MicroPython's own firmware, if this is a UF2's.
    if not slot:
        return False
    try:
        if slot == FROZEN:
            import frozen_firmware  # type: ignore[import-not-found]  # noqa: F401  # a UF2's
        os.stat("/%s/manifest.json" % slot)
    except (OSError, ImportError):
        return False
    return True


def roll_back(state, why, write_state, to=None):
    to = to or state["previous"]
    failed = {"slot": state["active"], "build": state.get("build"), "error": why}
    write_state({"active": to, "failed": failed})
    print("cheeseboard: the new firmware failed (%s); back to %s" % (why, to))
    restart()


def restart():
    """A hard reset where the watchdog runs (only a reset stops it: a soft reset would
    leave it to bite in the next program, a host tool's raw REPL say), else a soft one."""
    if _wdt:
        import machine

        machine.reset()
    raise SystemExit  # a soft reset: boot.py puts the active slot on the path


def error_text(e):
    import io

    buf = io.StringIO()
    sys.print_exception(e, buf)
    lines = buf.getvalue().strip().split("\n")[-3:]  # where it failed, and why
    return " | ".join(line.strip() for line in lines)[-300:]


def stranded(why, read_state):
    """No whole firmware left on the board (none to go back to, none frozen): rather than stop
    at the REPL, where the board says nothing to a host, answer the protocol's `hello` and
    `state` with the reason, as the firmware's own fault mode does (cheesefw.fault), with
    nothing of the firmware's. `cheeseboard flash` takes the board through the raw REPL as
    ever: its Ctrl-C stops this loop at its wait. Returns only at the console's end."""
    import select

    try:
        from simboard import sleep_ms  # type: ignore[import-not-found]  # a virtual board's clock
    except ImportError:
        from time import sleep_ms
    fault = "no whole firmware on the board: " + why
    print("cheeseboard: %s; answering hello and state until flashed" % fault)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    line = bytearray()
    while True:
        while poll.poll(0):
            byte = sys.stdin.buffer.read(1)
            if byte is None:  # (a console that does not block: nothing after all)
                break
            if not byte:  # the console's end: a board's never comes
                return
            if byte == b"\n":
                _answer(bytes(line).strip(), fault, read_state)
                line = bytearray()
            elif len(line) <= _MAX_LINE:  # (a longer line is answered as a bad frame)
                line += byte
        sleep_ms(10)


def _answer(line, fault, read_state):
    # One request line (the protocol's frame: "@<crc32> <json>"), answered in kind.
    import binascii
    import gc
    import json

    rid, reply = None, {"ok": False, "error": "the board has no whole firmware (%s)" % fault}
    try:
        text = line[10:]
        if line[:1] == b"@" and "%08x" % (binascii.crc32(text) & 0xFFFFFFFF) == line[1:9].decode():
            request = json.loads(text)
            rid, cmd = request["id"], request["cmd"]
            if cmd == "hello":
                gc.collect()
                impl = sys.implementation
                reply = {"ok": True, "firmware": None, "profile": None, "fault": fault,
                         "platform": sys.platform, "slot": read_state(),
                         "runtime": "%s %d.%d.%d" % ((impl.name,) + impl.version[:3]),
                         "heap_free": gc.mem_free()}
            elif cmd == "state":
                reply = {"ok": True, "state": {"mode": "fault", "fault": fault}, "stuck": []}
        elif line:
            reply["error"] = "bad frame: expected '@<crc32> <json>'"
        else:
            return
    except Exception:  # noqa: BLE001 (not JSON, not an object, no id: a bad request)
        reply["error"] = "bad request"
    reply["id"] = rid if type(rid) is int else None
    text = json.dumps(reply)
    sys.stdout.write("@%08x %s\n" % (binascii.crc32(text.encode()) & 0xFFFFFFFF, text))
