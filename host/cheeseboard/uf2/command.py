"""`cheeseboard uf2`: write a UF2 a Pico held in BOOTSEL takes: MicroPython with the firmware
frozen in, its rule tables and profile; one file, and the board plays."""

import os
import shutil
import sys
import time
from pathlib import Path

from cheeseboard import CheeseboardError, paths
from cheeseboard.uf2 import source

HELP = "build MicroPython for a Pico with the firmware frozen in, as one .uf2"


def add_parser(sub):
    p = sub.add_parser(
        "uf2", help=HELP,
        description="Build MicroPython %d.%d for a Raspberry Pi Pico with the cheeseboard "
                    "firmware frozen in (its rule tables and profile too) into one .uf2: hold "
                    "BOOTSEL while plugging the Pico in and copy the file onto the drive that "
                    "appears. Built once from MicroPython's source (a few minutes), then from "
                    "a cache (%s) keyed by its inputs: seconds when nothing changed."
                    % (*source.VERSION, "$CHEESEBOARD_CACHE or ~/.cache/cheeseboard"))
    p.add_argument("--profile", default="pico",
                   help="a Pico's hardware profile (default: pico; pico16 for a 16x16 matrix)")
    p.add_argument("--micropython", metavar="PATH",
                   help="a MicroPython v1.28.0 clone with its submodules (default: $%s, else "
                        "../shared/third_party)" % source.ENV)
    p.add_argument("--out", metavar="FILE",
                   help="where to write it (default: cheeseboard-PROFILE.uf2 here)")
    p.add_argument("--stock", action="store_true",
                   help="the stock MicroPython firmware, nothing frozen in (then `cheeseboard "
                        "flash` installs the firmware)")
    p.set_defaults(run=do_uf2, interrupted="no UF2 was written (what was already built stays "
                                           "in the cache for the next time)")
    return p


def do_uf2(args):
    from cheeseboard.uf2 import build, uf2file

    started = time.monotonic()
    out = Path(args.out or ("micropython-rp2-pico.uf2" if args.stock
                            else "cheeseboard-%s.uf2" % args.profile))
    if out.is_dir():
        raise CheeseboardError("--out %s: a folder; name the file to write (%s)"
                               % (out, out / ("cheeseboard-%s.uf2" % args.profile)))
    if not out.parent.is_dir():
        raise CheeseboardError("--out %s: no folder %s to write it in" % (out, out.parent))
    built = build.build_uf2(args.profile, args.micropython, frozen=not args.stock, say=_say)
    tmp = out.with_name(".%s.%d.part" % (out.name, os.getpid()))
    try:
        shutil.copyfile(built, tmp)
        tmp.replace(out)  # whole or not at all
    finally:
        tmp.unlink(missing_ok=True)
    blocks = uf2file.check_rp2040(out)
    what = ("MicroPython %d.%d for a Pico (stock)" % source.VERSION if args.stock else
            "MicroPython %d.%d for a Pico with firmware %s frozen in (profile %s)"
            % (*source.VERSION, _frozen_version(), args.profile))
    print("wrote %s (%d KB, %d blocks, %.1f s): %s\nhold BOOTSEL while plugging the Pico in, "
          "then copy it onto the drive that appears"
          % (out, out.stat().st_size // 1024, len(blocks), time.monotonic() - started, what))
    return 0


def _frozen_version():
    from cheeseboard.flash import image

    return image.firmware_version(paths.firmware_dir())


def _say(text):
    print(text, file=sys.stderr, flush=True)
