"""Reliability under attack, counted (the README's figures): each case bounded.

    make bench        (or: python tests/bench/bench_reliability.py [--cuts N] [--resets N]
                       [--tables N] [--jobs N])

- resets of the virtual board from its side channel, at the REPL and in a game: `hello`
  answers after each (a deadlock would time out);
- power cuts during `cheeseboard flash` with the port kept open (0.3 s without power, at
  instants spread over the flash): the command ends within its deadline, the board boots a
  whole firmware, the next flash completes;
- mutated rule tables: host and board (its check on the real MicroPython VM) agree, and the
  board's check never crashes.
(The seven bad firmwares are tests/test_flash_bad_firmware.py, in `make test`.)
"""

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "firmware"))

from flashing import active_slot, append, firmware_copy, flash  # noqa: E402
from table import print_table  # noqa: E402
from table_mutations import board_verdicts, cases  # noqa: E402
from test_flash_power_open import DEADLINE, WINDOW, cut_during_flash  # noqa: E402
from vboard import VBoard  # noqa: E402

from cheeseboard.rules import check_bytes  # noqa: E402


def resets(n, tmp):
    board = VBoard(tmp / "resets", clock="real")
    board.wait_protocol()
    ok = 0
    try:
        for i in range(n):
            if i % 2 == 0:
                board.port.write(b"\r\x03")
                board.read_until(b">>> ")
            boots = board.link.status()["boots"]
            board.link.send(op="reset")
            try:
                board.link.wait_for(lambda s, b=boots: s.status(timeout=5)["boots"] > b,
                                    timeout=10)
                board.wait_protocol(timeout=15)
                ok += 1
            except Exception:
                pass
    finally:
        board.stop()
    return ok


def flash_cuts(n, tmp, jobs=1):
    """Cuts at n instants spread over the flash's window, up to jobs boards at a time (each
    flash is mostly waiting on its board; a loaded machine only makes a hang likelier)."""
    firmware = firmware_copy(tmp, change=lambda root: append(
        root / "cheesefw" / "render.py", "\nUPDATED = 5\n"))
    def cut(i):
        outcome = one_cut(firmware, tmp / ("cut%d" % i), WINDOW * i / n)
        print("cut at %.2f s: %s" % (WINDOW * i / n, outcome), file=sys.stderr, flush=True)
        return outcome

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        outcomes = list(pool.map(cut, range(n)))
    hangs = sum(o == "hang" for o in outcomes)
    bricks = sum(o == "brick" for o in outcomes)
    longest = max([o for o in outcomes if isinstance(o, float)], default=0.0)
    return hangs, bricks, longest


def one_cut(firmware, folder, after):
    """The flash's seconds when it ended and the board was whole after; else hang or brick."""
    board = VBoard(folder, baud=115200, clock="real")
    try:
        board.wait_protocol()
        try:
            seconds, _, _, _ = cut_during_flash(board, firmware, after)
        except AssertionError:
            return "hang"
        try:
            board.wait_protocol(timeout=30)
            active_slot(board.flash_dir, loader=False)
            if flash(board, firmware).outcome not in ("up", "up to date"):
                return "brick"
        except Exception:
            return "brick"
        return seconds
    finally:
        board.stop()


def tables(n, tmp):
    pairs = cases(n, 11)
    board = board_verdicts(pairs, tmp)
    crashes = sum(v.startswith("CRASH") for v in board)
    agree = sum((v == "ok") == (not check_bytes(d, g)) for (g, d), v in zip(pairs, board,
                                                                            strict=True))
    return agree, crashes, sum(v == "ok" for v in board)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cuts", type=int, default=100)
    p.add_argument("--resets", type=int, default=100)
    p.add_argument("--tables", type=int, default=5000)
    p.add_argument("--jobs", type=int, default=1, help="flash-cut boards at a time")
    args = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t = time.monotonic()
        agree, crashes, accepted = tables(args.tables, tmp / "t")
        rows.append(("mutated rule tables, host and board", "%d of %d agree" % (
            agree, args.tables), "%d board crashes; %d accepted by both" % (crashes, accepted)))
        ok = resets(args.resets, tmp)
        rows.append(("side-channel resets, half at the REPL, half in the menu",
                     "%d of %d answered" % (ok, args.resets), "%d deadlocks" % (args.resets - ok)))
        hangs, bricks, longest = flash_cuts(args.cuts, tmp, args.jobs)
        rows.append(("flash power cuts, port kept open (0.3 s off)", "%d instants" % args.cuts,
                     "%d hangs past %.0f s (longest %.1f s), %d bricks" % (
                         hangs, DEADLINE, longest, bricks)))
        print("(%.0f s)" % (time.monotonic() - t), file=sys.stderr)
    print_table("reliability (python tests/bench/bench_reliability.py)", rows)
    print(json.dumps({"ok": not (crashes or hangs or bricks) and agree == args.tables}))


if __name__ == "__main__":
    main()
