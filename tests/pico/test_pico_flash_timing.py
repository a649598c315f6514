"""The emulated Pico's flash takes a real flash's time to program and erase
(host/cheeseboard/pico/emulator.mjs: the W25Q16JV's typical times): the chip polls the
status register until it is done, with interrupts off as MicroPython writes its flash, so a
LittleFS write that erases a sector holds the chip for tens of ms. All on the chip's clock
(time.ticks_us on the emulated chip, the side channel's masked stretches), never the
wall's."""

import json

import pytest
from pico import skip_without_the_emulator
from vboard import VBoard

pytestmark = pytest.mark.board

skip_without_the_emulator()

ERASE_US = 45_000  # a 4 KB sector's erase (the datasheet's typical tSE)
PROGRAM_US = 400  # a 256-byte page's program (its tPP)

# The filesystem's last block (unused on a fresh filesystem): erased, a page programmed, and
# read back, each timed on the chip's clock; then the chip's ms, for the side channel.
PROBE = """
import json, rp2, time
flash = rp2.Flash()
last = flash.ioctl(4, 0) - 1
t0 = time.ticks_us()
flash.ioctl(6, last)
erase_us = time.ticks_diff(time.ticks_us(), t0)
page = bytes(range(256))
t0 = time.ticks_us()
flash.writeblocks(last, page, 0)
program_us = time.ticks_diff(time.ticks_us(), t0)
back = bytearray(256)
flash.readblocks(last, back, 0)
print(json.dumps({"erase_us": erase_us, "program_us": program_us,
                  "read_back": bytes(back) == page, "done_ms": time.ticks_ms()}))
"""


def test_an_erase_and_a_program_take_the_flash_s_time_with_interrupts_off(tmp_path, stock_uf2):
    board = VBoard(tmp_path / "flash-timing.bin", target="pico", uf2=stock_uf2)
    try:
        board.release_console()
        since = len(board.link.events)
        run = board.mpremote("exec", PROBE, timeout=600)
        assert run.returncode == 0, run.stderr
        probe = json.loads(run.stdout.strip().splitlines()[-1])
        assert probe["read_back"], probe
        assert probe["erase_us"] >= ERASE_US, probe
        assert PROGRAM_US <= probe["program_us"] < ERASE_US, probe
        # The erase held interrupts off for all of it (MicroPython's flash write does; the
        # side channel reports every masked stretch of 20 us or more).
        board.link.wait_for(lambda s: s.status()["board_ms"] >= probe["done_ms"], 60,
                            "the chip's clock")
        masked = [e["ns"] for e in board.link.events[since:] if e.get("ev") == "irq_off"]
        assert max(masked, default=0) >= ERASE_US * 1000, masked
    finally:
        board.stop()
