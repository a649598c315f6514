# Runs at every reset, before main.py and before a host tool's raw REPL: puts the
# active firmware slot first on the import path. slot.json names it, and
# `cheeseboard flash` switches it with one atomic rename (docs/flashing.md).
# Without slot.json the firmware sits at the root of the flash.
import sys

try:
    import json

    with open("slot.json") as f:
        _slot = json.loads(f.read(1024))["active"]  # (main.py's bound)
    if _slot in ("slot_a", "slot_b"):
        sys.path.insert(0, "/" + _slot)
except Exception:  # no slot.json that can be read: main.py makes it again from the slots
    pass
