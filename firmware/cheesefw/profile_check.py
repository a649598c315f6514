"""The hardware profile's check, run once at boot (and by the host's `cheeseboard profile check`).

A wrong profile lights the wrong LEDs or reads the wrong pins, which looks like a
broken board; this says what is wrong instead, naming the field:
    maps.gouda.m3: pixel 70 is past led.count 64
Written in the MicroPython subset; it allocates one list of pixel owners and,
one game at a time, that game's rule table.
"""

import gc
import json

from cheesefw.hal.base import read_file
from cheesefw.home import rules_files

BUTTONS = ("prev", "next", "ok", "back", "roll")  # the engine's intents need all five


def space_ids(rules):
    """The space ids a game's rule table defines (gouda: "spaces"; kitchen: the grid), and
    any "side_spaces" beside them (counters a game lights, such as Gatenkaas's cheese)."""
    if "spaces" in rules:
        return [s[0] for s in rules["spaces"]]
    grid = rules["grid"]
    ids = [chr(97 + c) + str(r + 1) for c in range(grid["cols"]) for r in range(grid["rows"])]
    return ids + list(rules.get("side_spaces", ()))


def read_rules(game):
    """The rule table on the board's flash (the synced one, else the firmware's own, as a game
    start reads them), or None when the board has no such game. MemoryError naming the file
    when the heap held none of them: a table there is no table missing."""
    short = None
    for name in rules_files(game):
        try:
            return json.loads(read_file(name) or "")
        except ValueError:  # missing, too large, not JSON
            pass
        except MemoryError:  # (or nested too deep for the heap)
            short = short or name
    if short:
        raise MemoryError("out of memory loading " + short)
    return None


def check(profile, rules_for=read_rules):
    """Every error in the profile, as "field: what is wrong" lines (empty when it is good)."""
    errors = []
    try:
        _check(profile, rules_for, errors)
    except (KeyError, TypeError, ValueError) as e:
        # A field missing or of the wrong type deeper than the checks look.
        errors.append("profile: malformed (%s: %s)" % (type(e).__name__, e))
    except MemoryError as e:  # no heap to check with: no fault of the profile's, and said so
        e = str(e)
        if not e.startswith("out of memory"):  # the VM's own "memory allocation failed, ..."
            e = "out of memory checking the profile (%s)" % e
        gc.collect()  # (the free heap once the failed step's garbage is gone; CPython: 0)
        errors.append("%s: %d B free" % (e, getattr(gc, "mem_free", int)()))
    return errors


def _check(profile, rules_for, errors):
    led = profile.get("led")
    if not isinstance(led, dict):
        errors.append("led: missing")
        return
    count = led.get("count")
    if not isinstance(count, int) or count < 1:
        errors.append("led.count: expected a positive number of pixels, got %r" % (count,))
        return
    for key in ("budget_ma", "ma_full_white"):
        v = led.get(key, 60)
        if not isinstance(v, int) or v < 1:
            errors.append("led.%s: expected a positive number of mA, got %r" % (key, v))
    if "pin" not in led:
        errors.append("led.pin: missing")
    _check_pins(profile, led, errors)
    # The pixels that are not spaces: each belongs to one field, and to no space.
    fixed = [None] * count
    for key in ("die", "seats", "meter"):
        pixels = profile.get(key, ())
        if key != "meter" and not pixels:
            errors.append("%s: expected a list of pixels" % key)
        for j in range(len(pixels)):
            _claim(fixed, pixels[j], "%s[%d]" % (key, j), count, errors)
    if "status" not in profile:
        errors.append("status: missing")
    else:
        _claim(fixed, profile["status"], "status", count, errors)
    maps = profile.get("maps")
    if not isinstance(maps, dict) or not maps:
        errors.append("maps: expected a map per game")
        return
    for game in sorted(maps):
        _check_map(game, maps[game], rules_for(game), fixed, count, errors)


def _check_pins(profile, led, errors):
    buttons = profile.get("buttons")
    if not isinstance(buttons, dict):
        errors.append("buttons: missing")
        return
    for name in BUTTONS:
        if name not in buttons:
            errors.append("buttons.%s: missing" % name)
    used = {}
    if "pin" in led:
        used[led["pin"]] = "led.pin"
    for name in sorted(buttons):
        pin = buttons[name]
        if pin in used:
            errors.append("buttons.%s: pin %s is already %s" % (name, pin, used[pin]))
        else:
            used[pin] = "buttons." + name


def _claim(owners, pixel, field, count, errors):
    """Give a pixel to a field; an error if it is no pixel or another field has it."""
    if not isinstance(pixel, int) or pixel < 0:
        errors.append("%s: expected a pixel number, got %r" % (field, pixel))
    elif pixel >= count:
        errors.append("%s: pixel %d is past led.count %d" % (field, pixel, count))
    elif owners[pixel] is not None:
        errors.append("%s: pixel %d is already %s" % (field, pixel, owners[pixel]))
    else:
        owners[pixel] = field


def _check_map(game, spaces, rules, fixed, count, errors):
    where = "maps." + game
    if rules is None:
        errors.append("%s: unknown game (no rules/%s.json)" % (where, game))
        return
    if not isinstance(spaces, dict):
        errors.append("%s: expected space -> pixels" % where)
        return
    ids = space_ids(rules)
    rules = None  # only the ids are needed: let the table go
    owners = list(fixed)  # the maps of different games share pixels; a game's own may not
    for sid in ids:
        if sid not in spaces:
            errors.append("%s: space %s has no pixels" % (where, sid))
    for sid in sorted(spaces):
        field = "%s.%s" % (where, sid)
        if sid not in ids:
            errors.append("%s: no such space in rules/%s.json" % (field, game))
        pixels = spaces[sid]
        if not pixels:
            errors.append("%s: expected a list of pixels" % field)
            continue
        for p in pixels:
            _claim(owners, p, field, count, errors)
