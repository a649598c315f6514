"""Figures on an emulated Pico: MicroPython's rp2 port on rp2040js, in the chip's own time,
each beside what a real Pico is expected to show (cheeseboard/pico/calibration.py's factor
for its kind of code, from bench_calibration.py).

    python tests/bench/bench_pico.py [PART ...]      (no part: all; --help lists them)

The UF2s are `cheeseboard uf2`'s (MicroPython's own, and with the firmware frozen in: built
once from ../shared/third_party or $CHEESEBOARD_MICROPYTHON, then cached; only those the
parts need); CHEESEBOARD_PICO_UF2 and CHEESEBOARD_PICO_FROZEN_UF2 name others. The emulator
models the flash's XIP cache (CHEESEBOARD_PICO_XIP_CACHE=off leaves it out).

Each step has a deadline on the wall; a step that fails or runs past it stops the run with a
line naming the step, the chip's clock and the last line the board printed, and every
emulator started is stopped.
"""

import argparse
import json
import os
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE))

from flashing import flash  # noqa: E402
from pico_run import PicoRun, Stopped, print_pico_table  # noqa: E402

from cheeseboard.flash import image  # noqa: E402
from cheeseboard.paths import load_profile  # noqa: E402
from cheeseboard.pico import calibration  # noqa: E402

PROFILE = "pico"
WIRE_US_PER_PIXEL = 30
TICK_US = 10000
# A redraw tick's target on a real Pico, by the frame's pixels: a 64 px board's fits in its
# 10 ms tick, a 16x16 board's tick that writes the frame in half of one (the view's tick after a
# move, which writes none, in its 10 ms).
REDRAW_TARGET_US = {64: 10000, 256: 5000}
FLASH_TARGET = 3.5  # a full flash against `mpremote fs cp -r` of the same files, times faster
HEAP_TARGET, HEAP_MOONSHOT = 48 * 1024, 40 * 1024  # the frozen firmware's peak live heap
# The games whose peak live heap is measured: (label, games_on_vm.py's heap arguments)
HEAP_GAMES = (("6-player Gouda with powers", ("gouda", "6", "1")),
              ("kitchen", ("kitchen", "2", "0")))
PARTS = {
    "flash": "`cheeseboard flash` onto a blank Pico running MicroPython's own firmware, then "
             "again with nothing changed, against `mpremote fs cp -r` of the same image as "
             "files onto another (chip time, the side channel's clock)",
    "chip": "boot to the menu (power on to the first frame on the pin), the menu's frame on "
            "the pin against the WS2812 wire time, free heap after boot; pico_on_chip.py: a "
            "6-player Gouda tick, each game with the board playing every seat (its longest "
            "tick, the ticks late), a frame write through the HAL at 64 and 256 px against "
            "the wire time, a journal append on LittleFS",
    "render": "render plus power limit of a 6-player Gouda frame against a frame copy "
              "(render_on_vm.py, as bench_render.py runs it on the unix port)",
    "redraw": "where a redraw's time goes, per game, the board playing every seat "
              "(redraw_on_chip.py): the view, the marks, the rest of the painting, the power "
              "limit, the write on the pin; the 8x8 profile's games (a redraw tick's target: "
              "10 ms on a Pico) and the 16x16 (pico16) profile's (5 ms)",
    "heaps": "the peak live heap of a whole 6-player Gouda game with powers and of a kitchen "
             "game (games_on_vm.py's heap mode, sampled at every step), the firmware as .mpy "
             "files and frozen into the UF2 (target 48 KB, moonshot 40 KB)",
    "gatenkaas": "a Gatenkaas hand's legal placements and the board's choice "
                 "(games_on_vm.py's gatenkaas mode)",
    "frozen": "the UF2 with the firmware frozen in: its boot to the menu (and its first "
              "power-on, which makes the file system) and free heap",
}
FROZEN_PARTS = ("heaps", "frozen")  # the parts that need the frozen UF2


def arguments():
    parser = argparse.ArgumentParser(
        prog="bench_pico.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Figures on the emulated Pico (rp2040js with its XIP cache model), each "
                    "beside what a real Pico is expected to show.",
        epilog="parts:\n" + "\n".join(
            textwrap.fill(text, 92, initial_indent="  %-10s " % name, subsequent_indent=" " * 13)
            for name, text in PARTS.items()))
    parser.add_argument("parts", nargs="*", metavar="PART", help="the parts to run (default: all)")
    parts = parser.parse_args().parts
    for part in parts:
        if part not in PARTS:
            parser.error("no part %r (the parts: %s)" % (part, ", ".join(PARTS)))
    return parts or list(PARTS)


def chip_ms(board):
    return board.link.status()["board_ms"]


def timed(board, action):
    """action(), the chip's ms it took and the wall's seconds."""
    start, wall = chip_ms(board), time.monotonic()
    result = action()
    return result, chip_ms(board) - start, time.monotonic() - wall


def heap_verdict(peak):
    """The frozen peak against its target and moonshot; a missed target with its ratio."""
    if peak > HEAP_TARGET:
        return "target 48 KB MISSED: %.2fx" % (peak / HEAP_TARGET)
    if peak > HEAP_MOONSHOT:
        return "target 48 KB met (%.2fx); moonshot 40 KB missed: %.2fx" % (
            peak / HEAP_TARGET, peak / HEAP_MOONSHOT)
    return "target 48 KB and moonshot 40 KB met (%.2fx)" % (peak / HEAP_TARGET)


def flash_verdict(ratio):
    """How many times faster than mpremote a full flash is, against its target."""
    return "%.1fx faster (target %.1fx %s %.2fx)" % (
        ratio, FLASH_TARGET, "met," if ratio >= FLASH_TARGET else "MISSED:", ratio / FLASH_TARGET)


def tick_verdict(worst_us):
    """A longest tick against the 10 ms tick, on a real Pico (the search's factor)."""
    real = calibration.on_a_pico(worst_us, "search")
    if real > TICK_US:
        return "target 10 ms on a Pico MISSED: %.1fx" % (real / TICK_US)
    return "target 10 ms on a Pico met (%.2fx)" % (real / TICK_US)


def pico_uf2s(parts):
    """(MicroPython's own UF2, the frozen one or None where no part needs it): named by the
    environment, else built (cached); (None, None) with a line saying why where they cannot
    be."""
    named = os.environ.get("CHEESEBOARD_PICO_UF2"), os.environ.get("CHEESEBOARD_PICO_FROZEN_UF2")
    if named[0]:
        return named
    from cheeseboard.uf2 import build_uf2
    from cheeseboard.uf2.source import UF2Error

    try:
        frozen = any(p in FROZEN_PARTS for p in parts)
        return build_uf2("pico", frozen=False), build_uf2("pico", frozen=True) if frozen else None
    except UF2Error as e:
        print("bench_pico: skipped (%s)" % e)
        return None, None


# The busiest frame of the Pico's profile, drawn on the chip (render_on_vm.py, as
# bench_render.py runs it on the unix port): render plus power limit against a frame copy.
RENDER_GAME = ("gouda", {"players": 6, "powers": True, "markers": 3, "festival": False,
                         "extra_cheese": False})


def render_rows(run, board):
    """render_on_vm.py's figures on the board, as rows against its frame-copy loop."""
    r = run.on_chip(board, "render_on_vm.py", "100", RENDER_GAME[0], json.dumps(RENDER_GAME[1]))
    base = r["copy_us"]
    return [
        ("a loop that copies the frame byte by byte, %d px (us)" % r["count"], base,
         "tight loop", "%.0f", "the baseline, this run"),
        ("render + power limit of a 6-player Gouda frame (us)", r["render_us"],
         "ordinary Python", "%.0f", "%.1fx the copy loop (target 3x)" % (r["render_us"] / base)),
        ("a tick that redraws: view, hint, render, limit, show (us)", r["redraw_us"],
         "ordinary Python", "%.0f", "%.1fx the copy loop" % (r["redraw_us"] / base)),
    ]


def redraw_rows(run, board):
    """redraw_on_chip.py's figures on the 8x8 profile and on pico16, as rows."""
    rows = []
    pico16 = HERE.parents[1] / "hardware" / "profiles" / "pico16.json"
    run.mpremote(board, "cp", str(pico16), ":/pico16.json")
    for label, name in (("8x8", "-"), ("pico16", "/pico16.json")):
        with run.step("redraw_on_chip.py, %s" % label, board):
            games = run.on_chip(board, "redraw_on_chip.py", name)
        for game, r in sorted(games.items()):
            for key, what in (("worst_move", "after a move, worst"), ("worst", "any, worst"),
                              ("worst_write", "that writes the frame, worst")):
                t = r.get(key)
                if t is None:
                    continue
                against = "view %d, marks %d, paint %d, limit %d, write %d us" % tuple(
                    t[p] for p in ("view", "marks", "paint", "limit", "write"))
                if key == "worst_move":
                    m = r["mean_move"]
                    against += "; mean %d us (view %d, marks %d) of %d, %d with a collection " \
                        "left out" % (m["tick"], m["view"], m["marks"], r["move_redraws"],
                                      r["collections"])
                if key == "worst_write" and r["pixels"] in REDRAW_TARGET_US:
                    against += "; %s" % redraw_verdict(t["tick"], REDRAW_TARGET_US[r["pixels"]])
                else:  # (any redraw tick, the view's with its marks too: within its tick)
                    against += "; %s" % redraw_verdict(t["tick"], TICK_US)
                rows.append(("%s, %s, %d px: redraw tick %s (us)" % (label, game, r["pixels"],
                                                                      what),
                             t["tick"], "ordinary Python", "%d", against))
    return rows


def redraw_verdict(us, target):
    """A redraw tick against its target (us) on a real Pico."""
    ratio = calibration.on_a_pico(us, "ordinary Python") / target
    return "target %d ms on a Pico %s %.2fx" % (target // 1000, "met:" if ratio <= 1 else
                                                "MISSED:", ratio)


def flash_rows(run, tmp, uf2, profile):
    """The full and the no-change flash of our image, and mpremote's copy of it as files."""
    board = run.board(tmp / "ours.bin", uf2=uf2)
    with run.step("flash: cheeseboard flash, full", board):
        result, full_ms, full_wall = timed(board, lambda: flash(board, profile=PROFILE))
        assert result.outcome == "up", result.error
    with run.step("flash: cheeseboard flash, nothing changed", board):
        result, same_ms, _ = timed(board, lambda: flash(board))
        assert result.outcome in ("up", "up to date"), result.error
    board.stop()
    files = tmp / "files"
    image.write_to_folder(image.make(profile, profile["arch"]), files)
    other = run.board(tmp / "mpremote.bin", uf2=uf2)
    with run.step("flash: mpremote fs cp -r", other):
        _, cp_ms, cp_wall = timed(other, lambda: run.mpremote(
            other, "fs", "cp", "-r", *[str(p) for p in sorted(files.iterdir())], ":"))
    other.stop()
    # Chip time for a flash includes the chip waiting for the host: not set by its speed.
    return [
        ("full flash (chip ms)", full_ms, None, "%d", "mpremote fs cp -r: %d ms, %s; wall "
         "%.0f s ours, %.0f s mpremote"
         % (cp_ms, flash_verdict(cp_ms / full_ms), full_wall, cp_wall)),
        ("no-change flash (chip ms)", same_ms, None, "%d", "%.0f%% of the full flash"
         % (100 * same_ms / full_ms)),
    ]


def flashed(run, tmp, uf2):
    """A Pico with our firmware flashed (the flash part's image, else flashed here), booted."""
    if not (tmp / "ours.bin").exists():
        board = run.board(tmp / "ours.bin", uf2=uf2)
        with run.step("flash our firmware", board):
            result = flash(board, profile=PROFILE)
            assert result.outcome == "up", result.error
        board.stop()
    return run.board(tmp / "ours.bin")


def chip_rows(run, board, profile):
    """Boot, the menu's frame, the heap after boot, and pico_on_chip.py's figures."""
    with run.step("boot to the menu", board):
        board.link.wait_frame(0, timeout=300)
        first = board.link.frame_event
        hello = board.wait_protocol(timeout=300)
    with run.step("pico_on_chip.py", board):
        chip = run.on_chip(board, "pico_on_chip.py")
    pixels = profile["led"]["count"]
    wire_us = first["wire_ns"] / 1000
    rows = [
        ("boot to the menu (chip ms)", first["at_ms"], "ordinary Python", "%d",
         "power on to the first frame"),
        ("menu frame on the pin, %d px (us)" % pixels, wire_us, None, "%.0f",
         "wire time %d us: %.2fx" % (pixels * WIRE_US_PER_PIXEL,
                                      wire_us / (pixels * WIRE_US_PER_PIXEL))),
        ("free heap after boot (bytes)", hello["heap_free"], None, "%d",
         "firmware as .mpy files"),
        ("Gouda tick, 6 players (us)", chip["tick_mean_us"], "ordinary Python", "%.0f",
         "worst %d us emulated; a tick is 10 ms" % chip["tick_worst_us"]),
    ]
    for count in (64, 256):
        write_us = chip["write_us"][str(count)]
        wire = count * WIRE_US_PER_PIXEL
        rows.append(("HAL frame write, %d px (us)" % count, write_us, "ordinary Python", "%d",
                     "wire time %d us: %.2fx emulated, a chain's first write (the writes "
                     "after it against the 0.1x target: bench_pico_leds.py)"
                     % (wire, write_us / wire)))
    rows.append(("journal append on LittleFS (us)", chip["append_mean_us"], "ordinary Python",
                 "%.0f", "worst %d us emulated" % chip["append_worst_us"]))
    for game, t in sorted(chip["thinking"].items()):
        rows.append(("%s, board plays all seats: worst tick (us)" % game, t["worst_us"],
                     "search", "%d", "%s; %d of %d ticks over 10 ms emulated, %d moves"
                     % (tick_verdict(t["worst_us"]), t["late"], t["ticks"], t["moves"])))
    return rows, first, hello


def heap_rows(run, board, frozen=""):
    """{label: games_on_vm.py's heap figures} of each of HEAP_GAMES on the board."""
    heaps = {}
    for label, args in HEAP_GAMES:
        with run.step("peak heap, %s%s" % (label, frozen), board):
            heaps[label] = run.on_chip(board, "games_on_vm.py", "heap", *args)
    return heaps


def frozen_rows(run, tmp, frozen, heaps, first, hello):
    """The frozen UF2's boot, heap after boot and peak heaps, against the .mpy files'."""
    board = run.board(tmp / "frozen.bin", uf2=frozen)
    with run.step("first power-on, frozen", board):
        board.link.wait_frame(0, timeout=300)
        power_on = board.link.frame_event
        board.wait_protocol(timeout=300)
    board.stop()
    # Timed as the .mpy files' boot is: on a file system made already (the first power-on
    # makes it on the blank flash, erase by erase)
    board = run.board(tmp / "frozen.bin")
    with run.step("boot to the menu, frozen", board):
        board.link.wait_frame(0, timeout=300)
        frozen_first = board.link.frame_event
        frozen_hello = board.wait_protocol(timeout=300)
    as_files = "as files: %d ms" % first["at_ms"] if first else "(as files: the chip part)"
    rows = [
        ("boot to the menu, frozen (chip ms)", frozen_first["at_ms"], "ordinary Python", "%d",
         "%s; the first power-on, its file system made: %d ms" % (as_files,
                                                                  power_on["at_ms"])),
        ("free heap after boot, frozen", frozen_hello["heap_free"], None, "%d",
         "as files: %d" % hello["heap_free"] if hello else "(as files: the chip part)"),
    ]
    if heaps is not None:
        frozen_heaps = heap_rows(run, board, ", frozen")
        for label, _ in HEAP_GAMES:
            peak = frozen_heaps[label]["peak"]
            rows.append(("peak live heap, %s, frozen (bytes)" % label, peak, None, "%d",
                         "as files: %d; %s" % (heaps[label]["peak"], heap_verdict(peak))))
    board.stop()
    return rows


def measure(run, tmp, parts, uf2, frozen):
    profile = load_profile(PROFILE)
    rows = []
    if "flash" in parts:
        rows += flash_rows(run, tmp, uf2, profile)
    first = hello = heaps = None
    if any(p in parts for p in ("chip", "render", "redraw", "heaps", "gatenkaas")):
        board = flashed(run, tmp, uf2)
        if "chip" in parts:
            chip, first, hello = chip_rows(run, board, profile)
            rows += chip
        else:
            with run.step("boot to the menu", board):
                board.wait_protocol(timeout=300)
        if "render" in parts:
            with run.step("render_on_vm.py", board):
                rows += render_rows(run, board)
        if "redraw" in parts:
            rows += redraw_rows(run, board)
        if "heaps" in parts:
            heaps = heap_rows(run, board)
            for label, _ in HEAP_GAMES:
                rows.append(("peak live heap, %s (bytes)" % label, heaps[label]["peak"], None,
                             "%d", "firmware loaded as .mpy files: %d before the game"
                             % heaps[label]["before"]))
        if "gatenkaas" in parts:
            with run.step("a Gatenkaas hand's placements", board):
                hands = run.on_chip(board, "games_on_vm.py", "gatenkaas")
            rows.append(("Gatenkaas hand's placements (us)", hands["mean_us"], "search", "%.0f",
                         "worst %d us emulated over %d hands; the board's choice: worst %d us "
                         "emulated" % (hands["worst_us"], hands["positions"], hands["bot_us"])))
        board.stop()
    if frozen and any(p in parts for p in FROZEN_PARTS):
        rows += frozen_rows(run, tmp, frozen, heaps, first, hello)
    return rows


def main():
    parts = arguments()
    uf2, frozen = pico_uf2s(parts)
    if not uf2:
        return 0
    try:
        with tempfile.TemporaryDirectory(prefix="bench-pico-") as tmp, PicoRun() as run:
            rows = measure(run, Path(tmp), parts, uf2, frozen)
    except Stopped as e:
        print("bench_pico: %s" % e, file=sys.stderr)
        return 1
    modelled = os.environ.get("CHEESEBOARD_PICO_XIP_CACHE") != "off"
    cache = "XIP cache modelled" if modelled else "no XIP cache model"
    print_pico_table("emulated Pico (rp2040js, %s): %s" % (cache, " ".join(parts)), rows,
                     calibrated=modelled)
    return 0


if __name__ == "__main__":
    sys.exit(main())
