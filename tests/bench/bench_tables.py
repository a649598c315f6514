"""Benchmarks of rule-table sync on a virtual board throttled to a UART's 115200 baud.

    make bench        (or: python tests/bench/bench_tables.py)

- bytes on the wire (both ways) per byte of table, for a sync that sends it;
- the sync's time against the wire's limit for the table alone (table bytes x 10 / baud);
- a sync with nothing changed: round trips and bytes;
- the heap the board allocates to receive and check the largest table (MicroPython).
"""

import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from mpvm import run_mp  # noqa: E402
from table import print_table  # noqa: E402
from vboard import VBoard  # noqa: E402

from cheeseboard import sync  # noqa: E402

BAUD = 115200


class Meter:
    """Counts the bytes a pyserial port carries each way."""

    def __init__(self, port):
        self.port, self.sent, self.received = port, 0, 0
        self._write, self._read = port.write, port.read
        port.write, port.read = self.write, self.read

    def write(self, data):
        self.sent += len(data)
        return self._write(data)

    def read(self, n=1):
        data = self._read(n)
        self.received += len(data)
        return data


def measure_sync(board, name, data):
    meter = Meter(board.port)
    t = time.perf_counter()
    sync.push(board.client, name, data)
    seconds = time.perf_counter() - t
    return seconds, meter.sent + meter.received


def heap_to_receive(folder):
    """The least free heap (1 KB steps) in which the board takes in and checks the table,
    its game already loaded: the rest of the heap is held by a ballast block."""
    out = run_mp("""
import gc, binascii, hashlib, os
from cheesefw.hal.base import Board
from cheesefw.tables import Tables, MAX_PUT
from cheesefw.games import load
try:
    os.mkdir('rules')
except OSError:
    pass
load('gouda')
class B(Board):
    def __init__(self):
        pass
data = open('table.json', 'rb').read()
want = binascii.hexlify(hashlib.sha256(data).digest()).decode()
chunks = [data[i:i + MAX_PUT].decode() for i in range(0, len(data), MAX_PUT)]
data = None
t = Tables(B(), lambda: None, 'kept.json')
for kb in range(4, 64):
    gc.collect()
    ballast = [None] * 2000  # small blocks, so that they fill the heap's gaps too
    try:
        i = 0
        while gc.mem_free() > kb * 1024 + 200:
            ballast[i] = bytearray(160)
            i += 1
    except MemoryError:
        pass
    try:
        for i in range(len(chunks)):
            t.cmd_put({'name': 'gouda', 'offset': i * MAX_PUT, 'text': chunks[i]})
        t.cmd_commit({'name': 'gouda', 'sha256': want})
        ballast = None
        print(kb)
        break
    except MemoryError:
        ballast = None
""", cwd=folder)
    return int(out.split()[-1]) * 1024


def main():
    gouda = (ROOT / "firmware/rules/gouda.json").read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        board = VBoard(Path(tmp) / "flash", baud=BAUD)
        try:
            board.wait_protocol()
            meter = Meter(board.port)
            t = time.perf_counter()
            same = sync.sync(board.client, sync.default_files())
            noop_s = time.perf_counter() - t
            noop_bytes = meter.sent + meter.received
            board.port.write, board.port.read = meter._write, meter._read
            table = json.loads(gouda)
            table["version"] += 1
            changed = json.dumps(table, indent=1).encode()
            seconds, wire = measure_sync(board, "gouda", changed)
            assert sync.board_tables(board.client)["gouda"]["sha256"] == \
                hashlib.sha256(changed).hexdigest()
        finally:
            board.stop()
        work = Path(tmp) / "heap"
        work.mkdir()
        (work / "table.json").write_bytes(changed)
        heap = heap_to_receive(work)
    limit = len(changed) * 10 / BAUD
    rows = [
        ("sync with nothing changed (%s)" % ", ".join(w for _, w in same),
         "%d B" % noop_bytes, "1 round trip, %.0f ms" % (noop_s * 1000)),
        ("sync of the Gouda table (%d B), bytes on the wire" % len(changed), "%d B" % wire,
         "%.2f per table byte" % (wire / len(changed))),
        ("  its time at %d baud" % BAUD, "%.0f ms" % (seconds * 1000),
         "%.2fx the wire's limit (%.0f ms); target 1.5x" % (seconds / limit, limit * 1000)),
        ("least free heap to take it in and check it (1 KB steps)", "%d KB" % (heap // 1024),
         "%.2f of the 16 KB target" % (heap / 16384)),
    ]
    print_table("rule tables (python tests/bench/bench_tables.py)", rows)


if __name__ == "__main__":
    main()
