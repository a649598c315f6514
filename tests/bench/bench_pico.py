"""Figures on an emulated Pico: MicroPython's rp2 port on rp2040js, in the chip's own time.

    python tests/bench/bench_pico.py [render]      (render: its render rows alone)

The UF2s are `cheeseboard uf2`'s (MicroPython's own, and with the firmware frozen in: built
once from ../shared/third_party or $CHEESEBOARD_MICROPYTHON, then cached); CHEESEBOARD_PICO_UF2
and CHEESEBOARD_PICO_FROZEN_UF2 name others.

The emulator does not model the flash's XIP wait states: every figure errs on the fast side
(a real Pico runs code from flash through a 16 KB cache, and each miss costs cycles).

- `cheeseboard flash` onto a blank Pico running MicroPython's own firmware, then again with
  nothing changed, against `mpremote fs cp -r` of the same image laid out as files onto
  another blank Pico (chip time, from the side channel's clock);
- boot to the menu: power on to the first LED frame on the NeoPixel pin;
- the menu's frame write: the pulses on the pin, first rise to last fall, against the
  WS2812 wire time (30 us a pixel);
- free heap after boot (`hello`); the peak live heap of a whole 6-player Gouda game with
  powers and of a kitchen game (games_on_vm.py's heap mode, the firmware loaded as .mpy files,
  and again frozen into the UF2: target 48 KB, moonshot 40 KB); a Gatenkaas hand's
  legal placements and the board's choice (its gatenkaas mode); the UF2 with the firmware
  frozen in: its boot to the menu and free heap;
- on the chip (pico_on_chip.py, time.ticks_us): a main-loop tick of a 6-player Gouda game,
  mean and worst; each game with the board playing every seat, its longest tick and the ticks
  over 10 ms; a frame write through the HAL at 64 and 256 pixels against the wire
  time; a journal line appended on LittleFS; render plus power limit of a 6-player Gouda
  frame against a frame copy (render_on_vm.py, as bench_render.py runs it on the unix port).
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "support"))
sys.path.insert(0, str(HERE))

from flashing import flash  # noqa: E402
from table import print_table  # noqa: E402
from vboard import VBoard  # noqa: E402

from cheeseboard.flash import image  # noqa: E402
from cheeseboard.paths import load_profile  # noqa: E402

PROFILE = "pico"
WIRE_US_PER_PIXEL = 30
HEAP_TARGET, HEAP_MOONSHOT = 48 * 1024, 40 * 1024  # the frozen firmware's peak live heap
# The games whose peak live heap is measured: (label, games_on_vm.py's heap arguments)
HEAP_GAMES = (("6-player Gouda with powers", ("gouda", "6", "1")),
              ("kitchen", ("kitchen", "2", "0")))
MPREMOTE = Path(sys.executable).parent / "mpremote"


def chip_ms(board):
    return board.link.status()["board_ms"]


def timed(board, action):
    """action(), the chip's ms it took and the wall's seconds."""
    start, wall = chip_ms(board), time.monotonic()
    result = action()
    return result, chip_ms(board) - start, time.monotonic() - wall


def on_chip(board, script, *argv):
    """A benchmark script's JSON line, run in the active slot's folder of a flashed board
    with argv as its sys.argv[1:] (its QuietBoard copied to the flash's root)."""
    board.release_console()
    setup = ("import os, sys, json; slot = '/' + json.load(open('/slot.json'))['active']; "
             "os.chdir(slot); sys.path[:0] = [slot, '/']; sys.argv[:] = %r"
             % (["bench"] + list(argv)))
    run = board.mpremote("cp", str(HERE / "quiet_board.py"), ":/quiet_board.py", "+",
                         "exec", setup, "+", "run", str(HERE / script), timeout=900)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def peak_heaps(board):
    """{label: games_on_vm.py's heap figures} of each of HEAP_GAMES, a whole game through the
    engine with random choices, on the board (its firmware as files, or frozen)."""
    return {label: on_chip(board, "games_on_vm.py", "heap", *args) for label, args in HEAP_GAMES}


def heap_verdict(peak):
    """The frozen peak against its target and moonshot; a missed target with its ratio."""
    if peak > HEAP_TARGET:
        return "target 48 KB MISSED: %.2fx" % (peak / HEAP_TARGET)
    if peak > HEAP_MOONSHOT:
        return "target 48 KB met (%.2fx); moonshot 40 KB missed: %.2fx" % (
            peak / HEAP_TARGET, peak / HEAP_MOONSHOT)
    return "target 48 KB and moonshot 40 KB met (%.2fx)" % (peak / HEAP_TARGET)


def pico_uf2s():
    """(MicroPython's own UF2, the frozen one): named by the environment, else built (cached);
    (None, None) with a line saying why where neither can be."""
    named = os.environ.get("CHEESEBOARD_PICO_UF2"), os.environ.get("CHEESEBOARD_PICO_FROZEN_UF2")
    if named[0]:
        return named
    from cheeseboard.uf2 import build_uf2
    from cheeseboard.uf2.source import UF2Error

    try:
        return build_uf2("pico", frozen=False), build_uf2("pico", frozen=True)
    except UF2Error as e:
        print("bench_pico: skipped (%s)" % e)
        return None, None


# The busiest frame of the Pico's profile, drawn on the chip (render_on_vm.py, as
# bench_render.py runs it on the unix port): render plus power limit against a frame copy.
RENDER_GAME = ("gouda", {"players": 6, "powers": True, "markers": 3, "festival": False,
                         "extra_cheese": False})


def render_rows(board):
    """render_on_vm.py's figures on the board, as rows against its frame-copy loop."""
    r = on_chip(board, "render_on_vm.py", "100", RENDER_GAME[0], json.dumps(RENDER_GAME[1]))
    base = r["copy_us"]
    return [
        ("a loop that copies the frame byte by byte, %d px (us)" % r["count"], "%.0f" % base,
         "the baseline, this run"),
        ("render + power limit of a 6-player Gouda frame (us)", "%.0f" % r["render_us"],
         "%.1fx the copy loop (target 3x)" % (r["render_us"] / base)),
        ("a tick that redraws: view, hint, render, limit, show (us)", "%.0f" % r["redraw_us"],
         "%.1fx the copy loop" % (r["redraw_us"] / base)),
    ]


def main():
    uf2, frozen = pico_uf2s()
    if not uf2:
        return 0
    if sys.argv[1:] == ["render"]:  # the render rows alone: a flash and one script
        with tempfile.TemporaryDirectory(prefix="bench-pico-") as tmp:
            board = VBoard(Path(tmp) / "ours.bin", target="pico", uf2=uf2)
            result = flash(board, profile=PROFILE)
            assert result.outcome == "up", result.error
            rows = render_rows(board)
            board.stop()
        print_table("emulated Pico: render (rp2040js; errs fast: no XIP wait states)", rows)
        return 0
    profile = load_profile(PROFILE)
    rows, frozen_rows = [], []
    with tempfile.TemporaryDirectory(prefix="bench-pico-") as tmp:
        tmp = Path(tmp)
        board = VBoard(tmp / "ours.bin", target="pico", uf2=uf2)
        result, full_ms, full_wall = timed(board, lambda: flash(board, profile=PROFILE))
        assert result.outcome == "up", result.error
        result, same_ms, _ = timed(board, lambda: flash(board))
        assert result.outcome in ("up", "up to date"), result.error
        board.stop()

        # mpremote: the same image as files, onto another blank Pico
        files = tmp / "files"
        image.write_to_folder(image.make(profile, profile["arch"]), files)
        other = VBoard(tmp / "mpremote.bin", target="pico", uf2=uf2)
        other.release_console()
        run, cp_ms, cp_wall = timed(other, lambda: other.mpremote(
            "fs", "cp", "-r", *[str(p) for p in sorted(files.iterdir())], ":", timeout=900))
        assert run.returncode == 0, run.stderr
        other.stop()

        # boot to the menu, the menu's frame, the heap; then the firmware's costs on the chip
        again = VBoard(tmp / "ours.bin", target="pico")
        again.link.wait_frame(0, timeout=120)
        first = again.link.frame_event
        hello = again.wait_protocol(timeout=60)
        chip = on_chip(again, "pico_on_chip.py")
        rows += render_rows(again)
        # whole games through the engine (games_on_vm.py's): 6-player Gouda, the kitchen
        heaps = peak_heaps(again)
        # a Gatenkaas hand's legal placements, and the board's choice (games_on_vm.py's)
        hands = on_chip(again, "games_on_vm.py", "gatenkaas")
        again.stop()

        if frozen:
            board = VBoard(tmp / "frozen.bin", target="pico", uf2=frozen)
            board.link.wait_frame(0, timeout=120)
            frozen_first = board.link.frame_event
            frozen_hello = board.wait_protocol(timeout=60)
            frozen_heaps = peak_heaps(board)
            board.stop()
            frozen_rows = [
                ("boot to the menu, frozen (chip ms)", "%d" % frozen_first["at_ms"],
                 "as files: %d ms" % first["at_ms"]),
                ("free heap after boot, frozen", "%d" % frozen_hello["heap_free"],
                 "as files: %d" % hello["heap_free"]),
            ]
            for label, _ in HEAP_GAMES:
                peak = frozen_heaps[label]["peak"]
                frozen_rows.append(("peak live heap, %s, frozen (bytes)" % label, "%d" % peak,
                                    "as files: %d; %s" % (heaps[label]["peak"],
                                                          heap_verdict(peak))))

    pixels = profile["led"]["count"]
    wire_us = first["wire_ns"] / 1000
    rows += [
        ("full flash (chip ms)", "%d" % full_ms, "mpremote fs cp -r: %d ms, %.1fx faster"
         % (cp_ms, cp_ms / full_ms)),
        ("no-change flash (chip ms)", "%d" % same_ms, "%.0f%% of the full flash"
         % (100 * same_ms / full_ms)),
        ("boot to the menu (chip ms)", "%d" % first["at_ms"], "power on to the first frame"),
        ("menu frame on the pin, %d px (us)" % pixels, "%.0f" % wire_us, "wire time %d us: %.2fx"
         % (pixels * WIRE_US_PER_PIXEL, wire_us / (pixels * WIRE_US_PER_PIXEL))),
        ("free heap after boot (bytes)", "%d" % hello["heap_free"], "firmware as .mpy files"),
        ("Gouda tick, 6 players (us)", "%.0f" % chip["tick_mean_us"],
         "worst %d us; a tick is 10 ms" % chip["tick_worst_us"]),
    ]
    for count in (64, 256):
        write_us = chip["write_us"][str(count)]
        wire = count * WIRE_US_PER_PIXEL
        rows.append(("HAL frame write, %d px (us)" % count, "%d" % write_us,
                     "wire time %d us: %.2fx (target 1.1x)" % (wire, write_us / wire)))
    rows.append(("journal append on LittleFS (us)", "%.0f" % chip["append_mean_us"],
                 "worst %d us" % chip["append_worst_us"]))
    for label, _ in HEAP_GAMES:
        rows.append(("peak live heap, %s (bytes)" % label, "%d" % heaps[label]["peak"],
                     "firmware loaded as .mpy files: %d before the game"
                     % heaps[label]["before"]))
    rows.append(("Gatenkaas hand's placements (us)", "%.0f" % hands["mean_us"],
                 "worst %d us over %d hands; the board's choice: worst %d us"
                 % (hands["worst_us"], hands["positions"], hands["bot_us"])))
    for game, t in sorted(chip["thinking"].items()):
        rows.append(("%s, board plays all seats: worst tick (us)" % game, "%d" % t["worst_us"],
                     "%d of %d ticks late (over 10 ms), %d moves; target: none late by more "
                     "than a tick" % (t["late"], t["ticks"], t["moves"])))
    print_table("emulated Pico (rp2040js; errs fast: no XIP wait states)", rows + frozen_rows)
    print("(chip time includes the chip waiting for the host, which runs at the wall's pace: "
          "wall %.0f s ours, %.0f s mpremote)" % (full_wall, cp_wall))
    return 0


if __name__ == "__main__":
    sys.exit(main())
