# The boot.py frozen into a cheeseboard UF2 (host/cheeseboard/uf2/manifest.py freezes it under
# that name). MicroPython runs a frozen boot.py in place of the flash's, so this one prepares
# the flash and then runs the flash's boot.py, as MicroPython would have:
#
# - the frozen firmware's own files (profile, default rule tables, schemas, manifest.json) are
#   kept in /frozen/, its HOME, as a flashed firmware's are in its slot; they are written when
#   missing or when another UF2 brought other ones (manifest.json last: a folder cut short is
#   written again at the next boot);
# - a blank flash (no main.py) gets the loader and a slot.json naming the frozen firmware, so
#   that the board boots to the menu.
#
# What `cheeseboard flash` wrote wins: a loader or a slot on the flash is never overwritten
# here, and the frozen firmware runs only when slot.json names it (or a slot failed and
# recover.py went back to it). Each file is written whole, then renamed into place.


def _prepare():
    import json
    import os

    from frozen_firmware import BUILD, HOME

    # Paths relative to "/" (the board's cwd): MicroPython's unix port, where the tests run this
    # over a folder mounted as "/", renames no absolute path.
    folder = HOME.lstrip("/")

    def read_json(path):
        try:
            with open(path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def put(path, data):
        parts = path.split("/")
        for i in range(1, len(parts)):
            try:
                os.mkdir("/".join(parts[:i]))
            except OSError:
                pass
        with open(path + ".new", "wb") as f:
            f.write(data)
        os.rename(path + ".new", path)

    home = read_json(folder + "manifest.json")
    home_stale = not isinstance(home, dict) or home.get("build") != BUILD
    try:
        os.stat("main.py")
        blank = False
    except OSError:
        blank = True
    state = read_json("slot.json")
    state_stale = isinstance(state, dict) and state.get("active") == "frozen" and (
        state.get("build") != BUILD)
    if not (home_stale or blank or state_stale):
        return
    import frozen_files

    if home_stale:
        try:
            os.remove(folder + "manifest.json")
        except OSError:
            pass
        for rel, data in frozen_files.HOME_FILES.items():
            put(folder + rel, data)
        put(folder + "manifest.json", frozen_files.MANIFEST)
    if blank:
        put("recover.py", frozen_files.LOADER["recover.py"])
        put("boot.py", frozen_files.LOADER["boot.py"])
    if state_stale or (blank and not isinstance(state, dict)):
        if not isinstance(state, dict):
            state = {"active": "frozen", "previous": None}
        state["build"] = BUILD  # checked.json's stamps are this build's
        put("slot.json", json.dumps(state).encode())
    if blank:  # main.py last: a flash cut short before it is blank again at the next boot
        put("main.py", frozen_files.LOADER["main.py"])
    del frozen_files
    import sys

    sys.modules.pop("frozen_files", None)


_prepare()
del _prepare
try:
    with open("boot.py") as _f:
        _boot = _f.read()
    del _f
except OSError:
    _boot = ""  # no boot.py on the flash: nothing more to do before main.py
exec(_boot)
del _boot
