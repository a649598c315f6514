"""Benchmarks of rule-table sync on a virtual board throttled to a UART's 115200 baud.

    make bench        (or: python tests/bench/bench_tables.py)

- bytes on the wire (both ways) per byte of table, for a sync that sends it, compressed (the
  board has deflate) and as plain text (a board without);
- the sync's time against the wire's limit for the table alone (table bytes x 10 / baud);
- a sync with nothing changed: round trips and bytes;
- the heap the board allocates to receive and check the largest table (MicroPython);
- the strict JSON check (cheesefw/strict_json.py) that runs before MicroPython's json.loads:
  its time against json.loads's on each shipped table, and its heap (its code, and what a
  check allocates), on the unix port (64-bit) and on the WebAssembly port (32-bit, as a
  Pico's pointers; its clock is Node's, not a Pico's 125 MHz core).
"""

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE))

from mpvm import run_mp  # noqa: E402
from table import print_table  # noqa: E402
from vboard import VBoard  # noqa: E402

from cheeseboard import paths  # noqa: E402
from cheeseboard.flash import build, image  # noqa: E402
from cheeseboard.rules import sync  # noqa: E402

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


def measure_sync(board, name, data, packed):
    meter = Meter(board.port)
    t = time.perf_counter()
    sync.push(board.client, name, data, packed)
    seconds = time.perf_counter() - t
    board.port.write, board.port.read = meter._write, meter._read
    return seconds, meter.sent + meter.received


def heap_to_receive(folder, packed):
    """The least free heap (1 KB steps) in which the board takes in and checks the table,
    its game already loaded: the rest of the heap is held by a ballast block. The firmware
    runs compiled, as flashed (from source, its compiler would need more heap than the check)."""
    build.build_tree(paths.FIRMWARE, folder / "firmware")
    for rel, schema in image._schemas().items():  # as a flashed slot has them
        (folder / "firmware" / rel).parent.mkdir(exist_ok=True)
        (folder / "firmware" / rel).write_bytes(schema)
    data = (folder / "table.json").read_bytes()
    puts = [args for _, args in (sync._packed_puts if packed else sync._puts)("gouda", data)]
    (folder / "puts.json").write_text(json.dumps(puts))
    out = run_mp("""
import gc, binascii, hashlib, json, os
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
chunks = json.load(open('puts.json'))
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
        for put in chunks:
            t.cmd_put(put)
        t.cmd_commit({'name': 'gouda', 'sha256': want})
        ballast = None
        print(kb)
        break
    except MemoryError:
        ballast = None
    except ValueError as e:  # commit refuses a table it had no heap to check, and says so
        ballast = None
        if 'memory allocation failed' not in str(e):
            raise
""", cwd=folder, path=[folder / "firmware"])
    return int(out.split()[-1]) * 1024


CHECK_COST = """
import gc, json, time
gc.collect()
before = gc.mem_alloc()
from cheesefw import strict_json
gc.collect()
code = gc.mem_alloc() - before
from cheesefw import table_check


class Flash:
    def read_file(self, name):
        with open(name, 'rb') as f:
            return f.read()


def fastest(f, data, runs):  # us per run: the best of 5 batches (the WebAssembly port's
    # clock ticks in milliseconds)
    best = None
    for _ in range(5):
        t = time.ticks_us()
        for _ in range(runs):
            f(data)
        t = time.ticks_diff(time.ticks_us(), t)
        best = t if best is None or t < best else best
    return best / runs


def check(data):
    strict_json.check(data, table_check.MAX_DEPTH)


rows = []
for name in %r:
    data = open('rules/%%s.json' %% name, 'rb').read()
    gc.collect()
    gc.disable()
    at = gc.mem_alloc()
    check(data)
    allocated = gc.mem_alloc() - at
    gc.enable()
    whole = fastest(lambda d: table_check.check(
        d, name, lambda: table_check.load_schema(Flash(), '', name)), data, 1)
    rows.append([name, len(data), fastest(check, data, 100), fastest(json.loads, data, 100),
                 allocated, whole])
print(json.dumps({'code': code, 'rows': rows}))
"""


def check_cost(folder):
    """{VM: {"code": heap bytes of the module, "rows": [[game, bytes, check us, json.loads us,
    bytes a check allocates, the table's whole check (table_check.check) us]]}} for the
    shipped tables, the firmware compiled as flashed."""
    build.build_tree(paths.FIRMWARE, folder)
    for rel, schema in image._schemas().items():  # as a flashed slot has them
        (folder / rel).parent.mkdir(exist_ok=True)
        (folder / rel).write_bytes(schema)
    (folder / "rules").mkdir(exist_ok=True)
    tables = sorted((paths.FIRMWARE / "rules").glob("*.json"))
    for table in tables:
        shutil.copy(table, folder / "rules")
    script = CHECK_COST % ([t.stem for t in tables],)
    (folder / "check_cost.py").write_text(script)
    out = {"unix port, 64-bit": run_mp(script, heap=4 << 20, cwd=folder, path=[folder])}
    node = shutil.which("node")
    if node:
        out["WebAssembly port, 32-bit"] = subprocess.run(
            [node, str(HERE / "run_wasm.mjs"), str(folder), str(folder / "check_cost.py")],
            capture_output=True, text=True, timeout=600, check=True).stdout
    return {vm: json.loads(text.strip().splitlines()[-1]) for vm, text in out.items()}


def check_rows(cost):
    rows = []
    for vm, found in cost.items():
        tables = found["rows"]
        ratios = [r[2] / r[3] for r in tables]
        shares = [r[2] / r[5] for r in tables]
        rows += [
            ("strict JSON check before json.loads, %s: time per table (%d tables, %d-%d B)" % (
                vm, len(tables), min(r[1] for r in tables), max(r[1] for r in tables)),
             "%.0f-%.0f us" % (min(r[2] for r in tables), max(r[2] for r in tables)),
             "%.1f-%.1fx json.loads's; %.0f-%.0f%% of the table's whole check (%.0f-%.0f ms)" % (
                 min(ratios), max(ratios), 100 * min(shares), 100 * max(shares),
                 min(r[5] for r in tables) / 1000, max(r[5] for r in tables) / 1000)),
            ("  its heap: the module's code / allocated by a check",
             "%d B / %d B" % (found["code"], max(r[4] for r in tables)),
             "imported for a check, let go after it")]
    return rows


def main():
    gouda = (ROOT / "firmware/rules/gouda.json").read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        board = VBoard(Path(tmp) / "flash", baud=BAUD, clock="real")
        try:
            board.wait_protocol()
            meter = Meter(board.port)
            t = time.perf_counter()
            same = sync.sync(board.client, sync.default_files())
            noop_s = time.perf_counter() - t
            noop_bytes = meter.sent + meter.received
            board.port.write, board.port.read = meter._write, meter._read
            table = json.loads(gouda)
            assert board.request("tables")["deflate"], "the virtual board has deflate"
            timed = {}
            for packed in (True, False, True, False, True, False):  # interleaved: fair
                table["version"] += 1
                changed = json.dumps(table, indent=1).encode()
                seconds, wire = measure_sync(board, "gouda", changed, packed)
                assert sync.board_tables(board.client)["gouda"]["sha256"] == \
                    hashlib.sha256(changed).hexdigest()
                timed.setdefault(packed, []).append((seconds, wire))
        finally:
            board.stop()
        work = Path(tmp) / "heap"
        work.mkdir()
        (work / "table.json").write_bytes(changed)
        heap = {packed: heap_to_receive(work, packed) for packed in (True, False)}
        cost = check_cost(Path(tmp) / "cost")
    limit = len(changed) * 10 / BAUD
    rows = [
        ("sync with nothing changed (%s)" % ", ".join(w for _, w in same),
         "%d B" % noop_bytes, "1 round trip, %.0f ms" % (noop_s * 1000)),
    ]
    for packed, label in ((True, "compressed (deflate)"), (False, "as text (no deflate)")):
        runs = sorted(timed[packed])
        seconds, wire = runs[len(runs) // 2]  # the median of three
        rows += [
            ("sync of the Gouda table (%d B) %s, bytes on the wire" % (len(changed), label),
             "%d B" % wire, "%.2f per table byte" % (wire / len(changed))),
            ("  its time at %d baud" % BAUD,
             "%.0f-%.0f ms" % (runs[0][0] * 1000, runs[-1][0] * 1000),
             "%.2fx the raw table's wire time (%.0f ms)%s" % (
                 seconds / limit, limit * 1000, "; target 1.0x" if packed else "")),
        ]
    rows += [
        ("least free heap to take it in and check it, compressed (1 KB steps)",
         "%d KB" % (heap[True] // 1024), "%.2f of the 16 KB target" % (heap[True] / 16384)),
        ("  as text", "%d KB" % (heap[False] // 1024),
         "%.2f of the 16 KB target" % (heap[False] / 16384)),
    ]
    rows += check_rows(cost)
    print_table("rule tables (python tests/bench/bench_tables.py)", rows)


if __name__ == "__main__":
    main()
