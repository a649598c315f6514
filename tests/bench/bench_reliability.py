"""Reliability under attack, counted (docs/benchmarks.md's figures): each case bounded.

    make bench        (or: python tests/bench/bench_reliability.py [--cuts N] [--resets N]
                       [--tables N] [--requests N] [--files 0] [--modules 0] [--interrupts N]
                       [--jobs N];
                       a count of 0 leaves a part out)

- resets of the virtual board from its side channel, at the REPL and in a game: `hello`
  answers after each (a deadlock would time out);
- power cuts during `cheeseboard flash` with the port kept open (0.3 s without power, at
  instants spread over the flash): the command ends within its deadline, the board boots a
  whole firmware, the next flash completes;
- mutated rule tables, a quarter of them with a syntax change (a trailing comma, `01`, a bad
  escape: table_mutations.syntax_mutation): host and board (its check on the real MicroPython
  VM) agree, and the board's check never crashes;
- fuzzed requests with extreme field values (tests/support/request_fuzz.py): each answered, no
  restart;
- corrupted flash files: every file the board keeps, each corrupted every way
  (tests/flash/test_flash_files.py's matrix), on a board with a game in progress: the board answers
  its program (not left at the REPL), and the game goes on where its journal was whole;
- compiled modules cut short: every .mpy of a flashed slot cut in half in turn, no other slot:
  the board answers `hello` naming the file (MicroPython's importer would hang on it);
- Ctrl-Cs on the way to the raw REPL, the flash's first step (`Link.enter`), half on blank
  boards and half on a running firmware, --jobs boards at a time, the clock running free as
  the flash tests': each board answers `print(6*7)`, and the Ctrl-Cs the VM had to get as
  SIGINT are counted (a signal can leave the unix port's VM waiting on a lock for ever).
(The seven bad firmwares are tests/flash/test_flash_bad_firmware.py, in `make test`.)
"""

import argparse
import json
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE.parent / "flash"))  # the flash tests' power cuts and corruptions
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "firmware"))

import request_fuzz  # noqa: E402
from flashing import active_slot, append, firmware_copy, flash  # noqa: E402
from table import print_table  # noqa: E402
from table_mutations import board_verdicts, cases  # noqa: E402
from test_flash_power_open import DEADLINE, WINDOW, cut_during_flash  # noqa: E402
from vboard import VBoard  # noqa: E402

from cheeseboard.flash.link import Link, LinkError  # noqa: E402
from cheeseboard.rules.check import check_bytes  # noqa: E402


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


def interrupts(n, tmp, jobs=1):
    """(boards that answered, Ctrl-Cs delivered by SIGINT, failures' messages). In processes:
    the link quiets mpremote by redirecting stdout, which threads would tangle."""
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(enter_raw_repl, [tmp / ("intr%d" % i) for i in range(n)],
                                [i % 2 == 0 for i in range(n)]))
    return (sum(1 for ok, _, _ in results if ok), sum(s for _, s, _ in results),
            [why for _, _, why in results if why])


def enter_raw_repl(folder, blank):
    """The flash's first step on a new board."""
    board = VBoard(folder, blank=blank)
    try:
        board.release_console()
        with board.free_running(), Link(board.pty) as link:
            link.enter()
            answered = link.exec("print(6*7)").strip() == b"42"
        return answered, board.link.status()["interrupts_signalled"], None
    except (LinkError, AssertionError) as e:
        return False, 0, str(e).splitlines()[0]
    finally:
        board.stop()


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


def fuzzed_requests(n, tmp):
    board = VBoard(tmp / "requests")
    try:
        board.wait_protocol()
        answered, restarts, _, before, after = request_fuzz.run(board, n, seed=11)
    finally:
        board.stop()
    return answered, restarts, before == after


def tables(n, tmp):
    """How many of n mutated tables host and board agree on, the board's crashes, how many
    both accept, and how many the host refuses as no JSON (syntax changes among them)."""
    pairs = cases(n, 11)
    board = board_verdicts(pairs, tmp)
    host = [check_bytes(d, g) for g, d in pairs]
    crashes = sum(v.startswith("CRASH") for v in board)
    agree = sum((v == "ok") == (not h) for v, h in zip(board, host, strict=True))
    not_json = sum(h[:1] != [] and h[0].startswith("(the file): not valid JSON") for h in host)
    return agree, crashes, sum(v == "ok" for v in board), not_json


def flash_files(tmp):
    """(cases, boards that did not answer their program, games with a whole journal, of them
    games not resumed at the same move)."""
    from test_flash_files import JOURNAL_WHOLE, MATRIX, board_with_a_game, corrupt

    moves = board_with_a_game(tmp / "files")
    silent = whole = lost = 0
    for i, (name, kind) in enumerate(MATRIX):
        folder = tmp / ("files%d" % i)
        shutil.copytree(tmp / "files", folder)
        corrupt(folder, name, kind)
        board = VBoard(folder)
        try:
            try:
                board.wait_protocol(timeout=60)
            except Exception:
                silent += 1
                print("%s %s: no answer" % (name, kind), file=sys.stderr, flush=True)
                continue
            if name != "journal.txt" or kind in JOURNAL_WHOLE:
                whole += 1
                s = board.request("state")["state"]
                lost += not (s["mode"] == "play" and s["moves"] == moves)
        finally:
            board.stop()
    return len(MATRIX), silent, whole, lost


def cut_modules(tmp):
    """(modules, boards that did not answer hello naming the cut file): each .mpy of a flashed
    slot cut in half in turn."""
    from cheeseboard import paths
    from cheeseboard.sim import flash as simflash

    whole = tmp / "modules"
    simflash.install_firmware(whole, paths.load_profile("pico"))
    modules = sorted(p.relative_to(whole) for p in (whole / "slot_a").rglob("*.mpy"))
    silent = 0
    for i, module in enumerate(modules):
        folder = tmp / ("modules%d" % i)
        shutil.copytree(whole, folder)
        data = (folder / module).read_bytes()
        (folder / module).write_bytes(data[: len(data) // 2])
        board = VBoard(folder)
        try:
            fault = board.wait_protocol(timeout=60).get("fault", "")
            if str(module) not in fault:
                raise ValueError("hello without the file: %r" % fault)
        except Exception as e:
            silent += 1
            print("%s cut: %s" % (module, e), file=sys.stderr, flush=True)
        finally:
            board.stop()
    return len(modules), silent


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cuts", type=int, default=100)
    p.add_argument("--resets", type=int, default=100)
    p.add_argument("--tables", type=int, default=5000)
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--files", type=int, default=1, help="0 leaves the corrupted files out")
    p.add_argument("--modules", type=int, default=1, help="0 leaves the cut modules out")
    p.add_argument("--interrupts", type=int, default=200)
    p.add_argument("--jobs", type=int, default=1, help="flash-cut and Ctrl-C boards at a time")
    args = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t = time.monotonic()
        # (a count of 0 leaves that part out)
        agree, crashes, accepted, not_json = (tables(args.tables, tmp / "t") if args.tables
                                              else (0, 0, 0, 0))
        rows.append(("mutated rule tables (%d no JSON to the host), host and board" % not_json,
                     "%d of %d agree" % (agree, args.tables),
                     "%d board crashes; %d accepted by both" % (crashes, accepted)))
        answered, restarts, kept = (fuzzed_requests(args.requests, tmp) if args.requests
                                    else (0, 0, True))
        rows.append(("fuzzed requests, extreme field values (Pico heap)", "%d of %d answered" % (
            answered, args.requests), "%d restarts; tables %s" % (
            restarts, "unchanged" if kept else "CHANGED")))
        cases, silent, whole, lost = flash_files(tmp) if args.files else (0, 0, 0, 0)
        rows.append(("corrupted flash files, a game in progress", "%d cases" % cases,
                     "%d boards left at the REPL; %d games lost of %d whose journal was whole"
                     % (silent, lost, whole)))
        modules, unnamed = cut_modules(tmp) if args.modules else (0, 0)
        rows.append(("compiled modules cut in half, no other slot", "%d modules" % modules,
                     "%d boards silent or not naming the file" % unnamed))
        ok = resets(args.resets, tmp) if args.resets else 0
        rows.append(("side-channel resets, half at the REPL, half in the menu",
                     "%d of %d answered" % (ok, args.resets), "%d deadlocks" % (args.resets - ok)))
        hangs, bricks, longest = flash_cuts(args.cuts, tmp, args.jobs) if args.cuts else (0, 0, 0)
        rows.append(("flash power cuts, port kept open (0.3 s off)", "%d instants" % args.cuts,
                     "%d hangs past %.0f s (longest %.1f s), %d bricks" % (
                         hangs, DEADLINE, longest, bricks)))
        entered, signalled, failures = (interrupts(args.interrupts, tmp, args.jobs)
                                        if args.interrupts else (0, 0, []))
        rows.append(("Ctrl-C on the way to the raw REPL, half blank boards, half running",
                     "%d of %d answered" % (entered, args.interrupts),
                     "%d Ctrl-Cs by SIGINT%s" % (signalled, "; first failure: %s" % failures[0]
                                                 if failures else "")))
        print("(%.0f s)" % (time.monotonic() - t), file=sys.stderr)
    print_table("reliability (python tests/bench/bench_reliability.py)", rows)
    print(json.dumps({"ok": not (crashes or hangs or bricks or restarts or silent or lost
                                 or unnamed)
                      and kept and agree == args.tables and answered == args.requests
                      and entered == args.interrupts}))


if __name__ == "__main__":
    main()
