"""The live heap of the firmware as flashed, on a 32-bit VM and on the 64-bit one.

    make bench        (or: python tests/bench/bench_heap.py [GAME...], all five by default)
    python tests/bench/bench_heap.py --names GAME    (the names GAME's board interns, by module)

The same image (`cheeseboard flash`'s: compiled .mpy, rule tables, the pico profile) boots
on MicroPython's WebAssembly port in Node (32-bit pointers, as a Pico's; the web board's
VM) as a Pico boots it (boot.py, then main.py's loader, compiled from source and resident,
which starts the App; the port's built-in binascii, os and time, as a Pico has them), and
on the unix port (64-bit; the virtual board's: boot.py, then the App). Then one game is
played through the App (heap_drive.py), the live heap collected and read after every step:
from JS on the WebAssembly port, whose collection frees only what is unreachable once
control is back in JS. Its heap grows on
demand, so these are live-heap figures, not the smallest heap a board needs (for that, on
the unix port, see bench_games.py).
"""

import base64
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "host"))
sys.path.insert(0, str(HERE))

from cheeseboard import paths  # noqa: E402
from cheeseboard.flash import build, image  # noqa: E402
from cheeseboard.sim.vmfiles import micropython_binary  # noqa: E402

TARGET = 64 * 1024  # the board's heap target at 32 bits
STRETCH = 48 * 1024  # at which the whole board plays in a 64 KB heap
# At 32 bits the tables of interned names hold 20, 40, ... 320 names: the 621st name adds one
# of 640 entries at once (4,544 B), never given back.
NAMES_DOUBLE_AT = 621
# (label, game, options, the profile flashed: Gatenkaas is on the 16x16 board's alone); the
# options' "seats" are the [seat, level] pairs the board plays, as the menu gives them.
GAMES = (
    ("6-player Gouda with powers", "gouda", {"players": 6, "powers": True}, "pico"),
    ("kitchen, the board plays the cat", "kitchen", {"cat": "board"}, "pico"),
    ("5-player Kalle, the board plays a seat", "kalle",
     {"players": 5, "seats": [[0, "strong"]]}, "pico"),
    ("6-player Katz, the board plays a seat", "katz",
     {"players": 6, "seats": [[0, "strong"]]}, "pico"),
    ("4-player Gatenkaas on the 16x16 board, the board plays a seat", "gatenkaas",
     {"players": 4, "seats": [[0, "strong"]]}, "pico16"),
)


def write_folder(files, folder):
    for rel, data in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(data)


def flash_files(tmp, profile="pico"):
    """The profile's image laid out as a flashed board after its first boot (the new firmware's
    trial, which checks the profile and every rule table once and stamps them: a board's
    every later boot and game start skips those checks), plus the benchmark's driver."""
    files = image.layout(image.make(paths.load_profile(profile)))
    drive = Path(tmp) / "heap_drive.mpy"
    build.compile_module(HERE / "heap_drive.py", drive, "heap_drive")
    files["heap_drive.mpy"] = drive.read_bytes()
    first = Path(tmp) / ("first-boot-" + profile)
    write_folder(files, first)
    on_unix(first, "--trial", {})
    files["checked.json"] = (first / "checked.json").read_bytes()
    return files


def romfs_image(files):
    """The slot's files (the firmware's code, profile, tables, schemas) and the driver as a
    ROMFS image, built with mpremote's writer, as `mpremote romfs deploy` would put it on a
    board that has a ROMFS partition; and the flash's files that stay outside it."""
    from mpremote.romfs import VfsRomWriter

    prefix = image.SLOTS[0] + "/"
    tree = {}
    for rel, data in files.items():
        if rel.startswith(prefix) or rel == "heap_drive.mpy":
            node = tree
            parts = rel[len(prefix):].split("/") if rel.startswith(prefix) else [rel]
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = data
    rom = VfsRomWriter()

    def add(node):
        for name in sorted(node):
            if isinstance(node[name], dict):
                rom.opendir(name)
                add(node[name])
                rom.closedir()
            else:
                rom.mkfile(name, node[name])

    add(tree)
    rest = {rel: data for rel, data in files.items()
            if not rel.startswith(prefix) and rel not in ("heap_drive.mpy", "checked.json")}
    return rom.finalise(), rest


def on_wasm(flash_json, game, options, romfs=None):
    node = shutil.which("node")
    if not node:
        raise RuntimeError("node is missing: the 32-bit figures need Node 20 (and `make`)")
    r = subprocess.run([node, str(HERE / "heap_wasm.mjs"), str(flash_json), game,
                        json.dumps(options)] + ([str(romfs)] if romfs else []),
                       capture_output=True, text=True, timeout=900)
    if r.returncode:
        raise RuntimeError("node: %s%s" % (r.stdout, r.stderr))
    return json.loads(r.stdout.strip().splitlines()[-1])


def port_modules():
    """{"plain": ..., "builtin": ...}: heap and names of binascii, os and time imported by
    their plain names (the port's Python extensions) and as its built-ins, in a fresh VM."""
    r = subprocess.run([shutil.which("node") or "node", str(HERE / "heap_wasm.mjs"),
                        "port-modules"], capture_output=True, text=True, timeout=300)
    if r.returncode:
        raise RuntimeError("node: %s%s" % (r.stdout, r.stderr))
    return json.loads(r.stdout.strip().splitlines()[-1])


def on_unix(folder, game, options):
    simvm = ROOT / "host" / "cheeseboard" / "sim" / "vm"
    r = subprocess.run([micropython_binary(), "-X", "heapsize=4194304", str(HERE / "heap_unix.py"),
                        str(folder), str(simvm), game, json.dumps(options)],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
    if r.returncode:
        raise RuntimeError("micropython: %s%s" % (r.stdout, r.stderr))
    return json.loads(r.stdout.strip().splitlines()[-1])


def as_json(files, path):
    path.write_text(json.dumps(
        {"files": {p: base64.b64encode(d).decode() for p, d in files.items()}}))


def measure(only=()):
    """{label: (32-bit result, 64-bit result, 32-bit result with the code in ROMFS)}; only:
    the games to play (all when empty)."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="cheeseboard-heap-") as tmp:
        images = {}  # profile -> (files, flash json, flash json beside ROMFS, ROMFS image)
        for label, game, options, profile in GAMES:
            if only and game not in only:
                continue
            if profile not in images:
                files = flash_files(tmp, profile)
                flash_json = Path(tmp) / ("flash-%s.json" % profile)
                as_json(files, flash_json)
                rom, rest = romfs_image(files)
                romfs = Path(tmp) / ("firmware-%s.romfs" % profile)
                romfs.write_bytes(rom)
                rest_json = Path(tmp) / ("flash-beside-romfs-%s.json" % profile)
                as_json(rest, rest_json)
                images[profile] = (files, flash_json, rest_json, romfs)
            files, flash_json, rest_json, romfs = images[profile]
            folder = Path(tmp) / ("flash-" + game)  # a fresh board's flash for each game
            write_folder(files, folder)
            out[label] = (on_wasm(flash_json, game, options), on_unix(folder, game, options),
                          on_wasm(rest_json, game, options, romfs))
    return out


def main(only=()):
    results = measure(only)
    w_boot, u_boot, r_boot = next(iter(results.values()))
    rows = [("live heap after boot (menu)", "%d B" % w_boot["boot"], "%d B" % u_boot["boot"],
             "%.2f" % (w_boot["boot"] / u_boot["boot"]),
             "%.2f of the 64 KB target" % (w_boot["boot"] / TARGET), "%d B" % r_boot["boot"])]
    for label, (w, u, r) in results.items():
        rows.append(("peak live heap: %s (%d moves)" % (label, w["moves"]), "%d B" % w["peak"],
                     "%d B" % u["peak"], "%.2f" % (w["peak"] / u["peak"]),
                     "%.2f of 64 KB, %.2f of 48 KB" % (w["peak"] / TARGET, w["peak"] / STRETCH),
                     "%d B (%.2f of 48 KB)" % (r["peak"], r["peak"] / STRETCH)))
    for label, (w, _, r) in results.items():
        rows.append(("interned names at the end: %s" % label, "%d" % w["names"], "", "",
                     "%d to go to %d, where the table of names doubles"
                     % (NAMES_DOUBLE_AT - w["names"], NAMES_DOUBLE_AT), "%d" % r["names"]))
    port = port_modules()
    rows.append(("the port's binascii, os, time by their plain names (Python)",
                 "%d B, %d names" % (port["plain"]["heap"], port["plain"]["names"]), "", "",
                 "its built-ins: %d B, %d names (the web board's boot takes those)"
                 % (port["builtin"]["heap"], port["builtin"]["names"]), ""))
    header = ("heap, firmware as flashed (python tests/bench/bench_heap.py)",
              "32-bit (wasm)", "64-bit (unix)", "32/64", "32-bit against",
              "32-bit, code in ROMFS")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(5)]
    for r in [header] + rows:
        print("%-*s  %*s  %*s  %*s  %-*s  %s" % (widths[0], r[0], widths[1], r[1], widths[2], r[2],
                                                 widths[3], r[3], widths[4], r[4], r[5]))


def by_module(interned):
    """[(module, its names)] in the order the board interned them. Loading a module interns its
    path (its __file__), right after its dotted name, then every name its code holds that the
    VM did not know; the names a module's code makes as it runs (a string turned attribute, a
    key) follow the last module loaded before them."""
    groups = [("before any module of the image (boot.py, main.py's loader)", [])]
    for i, name in enumerate(interned):
        if name.endswith((".mpy", ".py")) and name.startswith("/"):
            module = name.split("/", 2)[2].rsplit(".", 1)[0].replace("/", ".")
            module = module[:-len(".__init__")] if module.endswith(".__init__") else module
            last = groups[-1][1]
            taken = [last.pop()] if last and last[-1] == module and i else []
            groups.append((module, taken + [name]))
        else:
            groups[-1][1].append(name)
    return groups


def list_names(game):
    """Print the names a whole game of `game` leaves interned on the 32-bit VM, by module."""
    label, game, options, profile = next(g for g in GAMES if g[1] == game)
    with tempfile.TemporaryDirectory(prefix="cheeseboard-heap-") as tmp:
        flash_json = Path(tmp) / "flash.json"
        as_json(flash_files(tmp, profile), flash_json)
        interned = on_wasm(flash_json, game, options)["interned"]
    print("names interned by a whole game (%s) on the 32-bit VM: %d, %d to go to %d, where"
          " the table of names doubles" % (label, len(interned), NAMES_DOUBLE_AT - len(interned),
                                           NAMES_DOUBLE_AT))
    for module, names in by_module(interned):
        print("\n%s: %d" % (module, len(names)))
        print("   " + " ".join(repr(n) if not n.isidentifier() else n for n in names))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--names"]:
        games = [g[1] for g in GAMES]
        if len(sys.argv) != 3 or sys.argv[2] not in games:
            sys.exit("bench_heap.py: --names takes one game of %s" % ", ".join(games))
        list_names(sys.argv[2])
    else:
        main(sys.argv[1:])  # game names: only those (all five when none)
