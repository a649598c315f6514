"""Building a Pico's UF2: picotool, mpy-cross, then MicroPython's rp2 port, each cached.

The cache ($CHEESEBOARD_CACHE or ~/.cache/cheeseboard, then uf2/) holds:

    src/        the third_party archives unpacked, a folder per archive's hash
    picotool/   picotool built without USB (pico-sdk needs it to write the UF2; without one on
                PATH it would download it), a folder per key
    mpy-cross/  MicroPython's compiler for the frozen modules, a folder per key
    build/      the port's build folders, one per MicroPython tree and variant (stock, or
                frozen for a profile): kept, so that a changed module recompiles only itself;
                a frozen one holds its staged files (cheeseboard-frozen/ and its .manifest.py)
    out/        each UF2 built, named by a hash of all its inputs: asked again, it is there;
                beside it its ELF (.elf, without debug information), whose symbols say where
                each function runs from
    logs/       each step's output, named in the error when a step fails

A folder in picotool/ or mpy-cross/ counts only once its build finished (a file `done` in it);
a UF2 in out/ is written under a temporary name and renamed. Builds of one folder wait for each
other (a lock), so two commands at once do not build into the same folder.
"""

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
from contextlib import contextmanager

from cheeseboard import paths
from cheeseboard.flash.build import cache_root
from cheeseboard.uf2 import linker, source, uf2file
from cheeseboard.uf2 import manifest as manifests
from cheeseboard.uf2.source import UF2Error

BOARD = "RPI_PICO"
RECIPE = "5"  # bump when the way a UF2 is built changes: no cached UF2 or build folder is reused
# The collector's mark stack, in entries (the port's is 64 on a Pico). A live object with more
# unmarked children than the stack holds sends the collector over the whole heap once more
# (MicroPython's gc.c, gc_deal_with_stack_overflow): Kalle's heap took 9.5 ms of the emulated
# Pico to collect, 4.3 ms with 256. Gatenkaas's lists and dicts of a 16x16 board's cells hold
# 256 objects each, more than 256 entries with what is pending: late in a game its collections
# took 12-28 ms with 256. 2 bytes an entry (1.5 KB of heap more than 256 take).
GC_STACK_ENTRIES = 1024
TOOLS = {  # a command the build needs: what provides it on Debian
    "cmake": "cmake",
    "make": "make",
    "gcc": "gcc",
    "g++": "g++",
    "arm-none-eabi-gcc": "gcc-arm-none-eabi libnewlib-arm-none-eabi",
    "arm-none-eabi-objcopy": "binutils-arm-none-eabi",
}


def cache():
    return cache_root() / "uf2"


def build_uf2(profile="pico", micropython=None, frozen=True, say=None):
    """The path of a UF2 (in the cache) of MicroPython 1.28 for a Pico: with the cheeseboard
    firmware frozen in for profile, or (frozen=False) MicroPython's own stock firmware.
    micropython: the MicroPython tree (default: $CHEESEBOARD_MICROPYTHON, else
    ../shared/third_party's). say(text) hears of each long step."""
    say = say or (lambda text: None)
    board = paths.load_profile(profile)
    if board.get("platform") != "rp2":
        picos = [n for n in paths.profile_names() if paths.load_profile(n).get("platform") == "rp2"]
        raise UF2Error("profile %r is not a Pico's (%s): a UF2 is built for %s"
                       % (profile, board.get("platform"), ", ".join(picos)))
    versions = toolchain()
    root = cache()
    src = source.micropython(micropython, root / "src")
    script = linker.sram_script(src.root)  # refused here, before any build, if it is not 1.28's
    tools = Tools(src, versions, root, say)
    variant = ("frozen-" + board["name"]) if frozen else "stock"
    in_flash = linker.interpreter_in_flash()
    if in_flash:  # the port's own script, for a benchmark's "before": a variant of its own
        variant += "-interpreter-in-flash"
    build_dir = root / "build" / _hash(RECIPE, src.identity)[:16] / variant
    inputs = [RECIPE, src.identity, variant, BOARD, tools.picotool_key, tools.mpy_cross_key,
              versions["arm-none-eabi-gcc"], _hash(script)]
    files = manifests.frozen_files(board)[0] if frozen else {}
    inputs.append(manifests.files_hash(files))
    out = root / "out" / ("%s-%s.uf2" % (variant, _hash(*inputs)[:16]))
    if out.exists():
        return out
    tools.ready()
    with _locked(build_dir):
        if out.exists():  # built meanwhile by another command
            return out
        say("building MicroPython for %s%s (a few minutes the first time)..."
            % (BOARD, " with the firmware frozen in" if frozen else ""))
        make = ["make", "-j%d" % jobs(), "-C", str(src.root / "ports" / "rp2"),
                "BOARD=" + BOARD, "BUILD=" + str(build_dir)]
        env = tools.env()
        # The port's Makefile appends its own arguments to these; CMake reads them once, when
        # it configures the build folder (a new recipe, a new folder).
        cmake_args = ["-DMICROPY_DEF_BOARD=MICROPY_ALLOC_GC_STACK_SIZE=%d" % GC_STACK_ENTRIES]
        if not in_flash:
            # The interpreter, the collector and the parser in SRAM (linker.py says why); the
            # script's path stays the same from one build to the next.
            cmake_args.append("-DMICROPY_BOARD_LINKER_SCRIPT=%s" % linker.write_sram_script(
                src.root, build_dir))
        env["CMAKE_ARGS"] = " ".join(cmake_args)
        if frozen:
            # Staged inside the build folder, under its lock: the same paths every time, so
            # that MicroPython's build recompiles only the modules whose bytes changed.
            staged = manifests.stage(files, build_dir / "cheeseboard-frozen")
            make.append("FROZEN_MANIFEST=%s" % staged)
        run(make, "firmware-" + variant, env)
        built = build_dir / "firmware.uf2"
        uf2file.check_rp2040(built)
        out.parent.mkdir(parents=True, exist_ok=True)
        elf = out.with_suffix(".elf.part")
        run(["arm-none-eabi-objcopy", "--strip-debug", str(build_dir / "firmware.elf"),
             str(elf)], "elf-" + variant, env)
        elf.replace(elf_of(out))  # the ELF first: a UF2 in out/ always has its ELF beside it
        tmp = out.with_name(out.name + ".part")
        shutil.copyfile(built, tmp)
        tmp.replace(out)
    return out


def elf_of(uf2):
    """The ELF a UF2 in the cache was made from (its symbols; no debug information)."""
    return uf2.with_suffix(".elf")


class Tools:
    """picotool and mpy-cross for one MicroPython tree: their cache folders and keys."""

    def __init__(self, src, versions, root, say):
        self.src, self.root, self.say = src, root, say
        self.picotool_src = source.picotool_source(root / "src")
        self.installed_picotool = None
        if self.picotool_src is None:
            self.installed_picotool = shutil.which("picotool")
            if not self.installed_picotool:
                raise UF2Error("picotool 2.2 is missing, which pico-sdk needs to write a UF2: "
                               "install it (https://github.com/raspberrypi/picotool, built with "
                               "-DPICOTOOL_NO_LIBUSB=1 will do) or put its source in "
                               "../shared/third_party/%s" % source.PICOTOOL_ARCHIVE)
        ident = str(self.picotool_src or self.installed_picotool)
        self.picotool_key = _hash("picotool", ident, src.identity, versions["g++"],
                                  versions["cmake"])[:16]
        self.mpy_cross_key = _hash("mpy-cross", src.identity, versions["gcc"])[:16]
        self.picotool_dir = root / "picotool" / self.picotool_key
        self.mpy_cross_dir = root / "mpy-cross" / self.mpy_cross_key

    def ready(self):
        """Build picotool and mpy-cross unless the cache has them."""
        if self.picotool_src is not None:
            with _locked(self.picotool_dir):
                if not (self.picotool_dir / "done").exists():
                    self.say("building picotool (about 3 minutes, once)...")
                    shutil.rmtree(self.picotool_dir / "install", ignore_errors=True)
                    build = self.picotool_dir / "build"
                    run(["cmake", "-S", str(self.picotool_src), "-B", str(build),
                         "-DPICOTOOL_NO_LIBUSB=1", "-DPICOTOOL_FLAT_INSTALL=1",
                         "-DCMAKE_BUILD_TYPE=Release",
                         "-DCMAKE_INSTALL_PREFIX=" + str(self.picotool_dir / "install")],
                        "picotool-cmake", self.env(path=False))
                    run(["make", "-j%d" % jobs(), "-C", str(build), "install"], "picotool",
                        self.env(path=False))
                    shutil.rmtree(build, ignore_errors=True)
                    (self.picotool_dir / "done").write_text("")
        with _locked(self.mpy_cross_dir):
            if not (self.mpy_cross_dir / "done").exists():
                self.say("building mpy-cross (about 2 minutes, once)...")
                run(["make", "-j%d" % jobs(), "-C", str(self.src.root / "mpy-cross"),
                     "BUILD=" + str(self.mpy_cross_dir / "build")], "mpy-cross",
                    self.env(path=False))
                (self.mpy_cross_dir / "done").write_text("")

    def env(self, path=True):
        env = dict(os.environ, PICO_SDK_PATH=str(self.src.root / "lib" / "pico-sdk"))
        env.pop("CMAKE_ARGS", None)  # it would replace the board's own arguments
        env.pop("PICOTOOL_FETCH_FROM_GIT_PATH", None)
        if path:
            env["MICROPY_MPYCROSS"] = str(self.mpy_cross_dir / "build" / "mpy-cross")
            if self.picotool_src is not None:
                install = self.picotool_dir / "install"
                # pico-sdk finds picotool's CMake package through PATH (install/picotool/).
                env["PATH"] = os.pathsep.join(
                    [str(install / "picotool"), str(install), env.get("PATH", "")])
        return env


def toolchain():
    """{command: its version line} for each command the build needs; one line on the first
    missing, with the Debian packages that provide it."""
    versions = {}
    for name, package in TOOLS.items():
        if not shutil.which(name):
            raise UF2Error("`%s` is missing, which building a UF2 needs: apt-get install %s"
                           % (name, package))
        r = subprocess.run([name, "--version"], capture_output=True, text=True)
        versions[name] = (r.stdout or r.stderr).split("\n")[0].strip()
    libc = subprocess.run(["arm-none-eabi-gcc", "-print-file-name=libc.a"],
                          capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(libc):
        raise UF2Error("the ARM C library (newlib) is missing, which building a UF2 needs: "
                       "apt-get install libnewlib-arm-none-eabi")
    return versions


def run(cmd, step, env):
    """Run one build step, its output into logs/<step>.log; a failure is one line naming it."""
    log = cache() / "logs" / (step + ".log")
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env)
    if r.returncode:
        raise UF2Error("%s failed (%s): %s" % (step, _last_error(log), log))


def _last_error(log):
    lines = log.read_text(errors="replace").splitlines()
    errors = [line for line in lines if re.search(r"error|Error|ERROR", line)]
    return (errors or lines or ["no output"])[-1].strip()[:200]


def jobs():
    return os.cpu_count() or 2


@contextmanager
def _locked(folder):
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(folder.name + ".lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _hash(*parts):
    return hashlib.sha256("\0".join(map(str, parts)).encode()).hexdigest()
