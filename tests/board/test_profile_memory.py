"""The profile's check at power-on when the heap holds no rule table: the board says it ran
out of memory, with the file and the heap left, not that the game is unknown (on the
MicroPython VM, the ESP32 profile at its own heap)."""

import json

import pytest
from vboard import VBoard

from cheeseboard import paths
from cheeseboard.sim import flash as simflash

pytestmark = pytest.mark.board


def test_a_table_the_heap_cannot_hold_is_out_of_memory_not_an_unknown_game(tmp_path):
    flash = tmp_path / "flash"
    simflash.install_firmware(flash, paths.load_profile("esp32"))
    own = flash / "slot_a" / "rules" / "gouda.json"
    table = json.loads(own.read_text())
    table["pad"] = [[]] * 4000  # 12 KB of text, 4,000 lists: past any board's heap
    own.write_text(json.dumps(table, separators=(",", ":")))
    profile = flash / "slot_a" / "profile.json"
    profile.write_bytes(profile.read_bytes() + b"\n")  # a profile not checked yet: checked now
    board = VBoard(flash, profile="esp32")
    try:
        board.wait_protocol(timeout=60)
        fault = board.request("hello")["fault"]
    finally:
        board.stop()
    assert "unknown game" not in fault
    assert fault.startswith("/slot_a/profile.json: out of memory loading "
                            "/slot_a/rules/gouda.json: "), fault
    assert int(fault.split(": ")[-1].removesuffix(" B free")) > 0


def test_a_new_esp32_board_at_the_heap_it_once_had_says_it_is_out_of_memory(tmp_path):
    # (the heap the ESP32 profile once gave, 100 000 B of which the virtual board's own ROM then
    # took 17 KB: no game can start in it, and the board says why). Near that edge the heap may
    # run out while the board checks a table (the profile's check says so, with the heap left)
    # or already while it reads the profile (the VM's own MemoryError, its size): either way
    # the fault names the profile and says the memory ran out.
    board = VBoard(tmp_path / "flash", profile="esp32", heap=86_000)
    try:
        board.wait_protocol(timeout=60)
        fault = board.request("hello")["fault"]
    finally:
        board.stop()
    assert "unknown game" not in fault
    assert fault.startswith("/slot_a/profile.json: "), fault
    assert (": out of memory " in fault and fault.endswith(" B free")) or \
        ": MemoryError: memory allocation failed, allocating " in fault, fault
