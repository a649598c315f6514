"""The emulated Pico's XIP cache model (host/cheeseboard/pico/xip_cache.mjs): a read of the
flash that misses the cache costs the chip cycles; without the model
(CHEESEBOARD_PICO_XIP_CACHE=off) the flash reads as fast as SRAM, as rp2040js has it. All on
the chip's clock (time.ticks_us on the emulated chip), never the wall's."""

import json

import pytest
from pico import skip_without_the_emulator
from vboard import VBoard

pytestmark = pytest.mark.board

skip_without_the_emulator()

LINES = 4096  # flash lines read: 32 KB, twice the cache
MISS_CYCLES = 44  # the least a miss costs (a line's first word)
CYCLES_PER_US = 125

# The same loop over two lists of flash addresses: one byte read LINES times (one miss, then
# hits), and the first byte of LINES lines in a row (each a line not read before: a miss).
# The chip's time for each, and the cache's access and hit counters (XIP_CTRL's CTR_ACC,
# CTR_HIT) over the second.
PROBE = """
import json, machine, time
flash, counters = machine.mem8, machine.mem32

def read_all(addresses):
    t0 = time.ticks_us()
    for a in addresses:
        flash[a]
    return time.ticks_diff(time.ticks_us(), t0)

same = [0x10040000] * %(n)d
lines = [0x10040000 + 8 * i for i in range(%(n)d)]
read_all(same)
t_same = read_all(same)
counters[0x14000010] = 0
counters[0x1400000c] = 0
t_lines = read_all(lines)
print(json.dumps({"same_us": t_same, "lines_us": t_lines,
                  "accesses": counters[0x14000010], "hits": counters[0x1400000c]}))
""" % {"n": LINES}


def probe(tmp_path, monkeypatch, stock_uf2, cache):
    monkeypatch.setenv("CHEESEBOARD_PICO_XIP_CACHE", cache)
    board = VBoard(tmp_path / ("xip-%s.bin" % cache), target="pico", uf2=stock_uf2)
    try:
        board.release_console()
        run = board.mpremote("exec", PROBE, timeout=600)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout.strip().splitlines()[-1])
    finally:
        board.stop()


def test_a_miss_costs_the_chip_cycles_and_without_the_model_nothing(tmp_path, monkeypatch,
                                                                     stock_uf2):
    cached = probe(tmp_path, monkeypatch, stock_uf2, "on")
    least = 0.8 * LINES * MISS_CYCLES / CYCLES_PER_US  # LINES misses, with a margin
    assert cached["lines_us"] - cached["same_us"] >= least, cached
    # The counters as a Pico's firmware reads them: the interpreter's own fetches hit, each
    # new line read misses.
    assert cached["accesses"] - cached["hits"] >= LINES, cached

    plain = probe(tmp_path, monkeypatch, stock_uf2, "off")
    # Without the model both loops cost the same: the flash is as fast as SRAM.
    assert abs(plain["lines_us"] - plain["same_us"]) < 0.1 * least, plain
    assert cached["lines_us"] > plain["lines_us"] + least, (cached, plain)
