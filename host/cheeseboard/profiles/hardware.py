"""Board profiles on the host: their check, and the docs generated from them.

The check is the firmware's own (`firmware/cheesefw/profile_check.py`, the one a board
runs at boot), fed with the rule tables in `firmware/rules`, plus what only the host
needs (the simulator's heap and matrix, the docs' supply and parts list). The docs
(`hardware/README.md`, the BOM, a wiring and a layout SVG per profile) are written
from the profiles only, so they cannot drift; a test regenerates them and compares.

    cheeseboard profile check [NAME...]     cheeseboard profile docs
"""

import json

from cheeseboard import paths
from cheeseboard.profiles import docs as hardware_docs

ORDERS_MP = ("GRB", "RGB", "BRG", "RBG")
ORDERS_CP = ORDERS_MP + ("BGR", "GBR")
PLATFORMS = {"rp2": "MicroPython", "esp32": "MicroPython", "circuitpython": "CircuitPython"}


def _firmware_check():
    """The firmware's profile_check module, the one a board runs at boot."""
    return paths.import_firmware("cheesefw.profile_check")


def read_rules(game):
    path = paths.FIRMWARE / "rules" / (game + ".json")
    return json.loads(path.read_text()) if path.exists() else None


def check_profile(profile, name=None):
    """Every error in a profile: the board's boot check, then the host's own."""
    errors = _firmware_check().check(profile, read_rules)
    if name is not None and profile.get("name") != name:
        errors.append("name: expected %r (the file's name), got %r" % (name, profile.get("name")))
    if profile.get("platform") not in PLATFORMS:
        errors.append("platform: expected one of %s, got %r"
                      % (", ".join(sorted(PLATFORMS)), profile.get("platform")))
    for key in ("title", "mcu", "arch"):
        if not isinstance(profile.get(key), str):
            errors.append("%s: expected text" % key)
    # The orders each backend can put on the wire (MicroPython's: hal/wire_order.py's WIRE_ORDERS).
    orders = ORDERS_CP if profile.get("platform") == "circuitpython" else ORDERS_MP
    if profile.get("led", {}).get("order", "GRB") not in orders:
        errors.append("led.order: expected one of %s, got %r"
                      % (", ".join(orders), profile["led"]["order"]))
    heap = profile.get("heap")
    if not isinstance(heap, int) or heap < 32 * 1024:
        errors.append("heap: expected the board's free heap in bytes (>= 32768), got %r" % heap)
    m = profile.get("matrix", {})
    count = profile.get("led", {}).get("count", 0)
    if m.get("width", 0) * m.get("height", 0) < count:
        errors.append("matrix: %s x %s cells cannot hold led.count %s"
                      % (m.get("width"), m.get("height"), count))
    supply = profile.get("supply", {})
    budget = profile.get("led", {}).get("budget_ma", 0)
    if supply.get("volts") != 5:
        errors.append("supply.volts: WS2812B pixels need 5, got %r" % supply.get("volts"))
    elif not isinstance(supply.get("amps"), int | float) or budget > supply["amps"] * 1000:
        errors.append("supply.amps: %r A cannot feed led.budget_ma %s" % (supply.get("amps"),
                                                                          budget))
    if m.get("width") and m.get("height"):
        from cheeseboard.kit.panel import PanelError, layout

        try:  # the overlays and the case are drawn from it
            layout(profile)
        except PanelError as e:
            errors.append(str(e))
    if not profile.get("bom"):
        errors.append("bom: expected the parts list, [[qty, part, what for], ...]")
    return errors


def check_all(names=None):
    """{profile name: [errors]} for the named profiles (default: every one in hardware/)."""
    result = {}
    for name in names or paths.profile_names():
        result[name] = check_profile(paths.load_profile(name), name)
    return result


def generated_docs():
    """{path under hardware/: text} for every generated doc, from the profiles as they are."""
    profiles = [paths.load_profile(n) for n in paths.profile_names()]
    return hardware_docs.render_all(profiles)


def write_docs():
    """Regenerate the docs in hardware/; returns the paths written."""
    written = []
    for rel, text in generated_docs().items():
        path = paths.ROOT / "hardware" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            written.append(path)
    return written


def stale_docs():
    """The generated docs that differ from what the profiles give now (missing included)."""
    stale = []
    for rel, text in generated_docs().items():
        path = paths.ROOT / "hardware" / rel
        if not path.exists() or path.read_text() != text:
            stale.append(rel)
    return stale
