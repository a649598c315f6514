"""The loader after a firmware fell for want of heap: its modules go before recover.py is
compiled, so that the fall is counted and the board restarted, not left at the REPL (on the
MicroPython VM)."""

import json

import pytest
from mpvm import FIRMWARE, run_mp

pytestmark = pytest.mark.board

HOG = '''
HELD = []


def main(up=None, feed=None):
    # What a firmware that ran out of heap leaves: every block held, by a module.
    try:
        while True:
            HELD.append(bytearray(512))
    except MemoryError:
        pass
    raise MemoryError("the game found no heap")
'''


def test_a_firmware_that_fell_out_of_heap_is_counted_and_restarted(tmp_path):
    slot = tmp_path / "slot_a"  # a sealed slot (its manifest), as the loader runs only those
    (slot / "cheesefw").mkdir(parents=True)
    (slot / "manifest.json").write_text("{}")
    (slot / "cheesefw" / "__init__.py").write_text("")
    (slot / "cheesefw" / "app.py").write_text(HOG)
    (tmp_path / "slot.json").write_text(json.dumps({"active": "slot_a", "previous": None}))
    out = run_mp("exec(open(%r).read())" % str(FIRMWARE / "main.py"), heap=96 * 1024,
                 cwd=tmp_path, path=[slot], check=False)
    assert "restarting it (1 of 3)" in out, out
    assert json.loads((tmp_path / "slot.json").read_text())["falls"] == 1
