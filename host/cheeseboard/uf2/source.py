"""The sources a Pico firmware is built from: MicroPython 1.28 (with the submodules its rp2
port needs) and picotool, which pico-sdk needs to write the UF2.

MicroPython comes from --micropython PATH or $CHEESEBOARD_MICROPYTHON (a clone at v1.28.0 with
its submodules), else from ../shared/third_party/, whose archive is unpacked once into the
cache. picotool's source comes from ../shared/third_party/ too, else an installed picotool is
used as it is.
"""

import hashlib
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from cheeseboard import CheeseboardError, paths

VERSION = (1, 28)  # the MicroPython this project's firmware is built and tested with
THIRD_PARTY = paths.ROOT.parent / "shared" / "third_party"
MICROPYTHON_ARCHIVE = "micropython-1.28.0-rp2.tar.xz"
PICOTOOL_ARCHIVE = "picotool-2.2.0.tar.xz"
ENV = "CHEESEBOARD_MICROPYTHON"
# The submodules the rp2 port builds with: a file each that a clone without them lacks.
SUBMODULES = {
    "lib/pico-sdk": "lib/pico-sdk/README.md",
    "lib/tinyusb": "lib/tinyusb/src/tusb.c",
    "lib/mbedtls": "lib/mbedtls/include/mbedtls/version.h",
    "lib/micropython-lib": "lib/micropython-lib/micropython/drivers/led/neopixel/neopixel.py",
}
NEEDED = ("a MicroPython v1.28.0 clone with its submodules (git clone -b v1.28.0 "
          "https://github.com/micropython/micropython && make -C micropython/ports/rp2 "
          "submodules): pass it with --micropython PATH or $%s" % ENV)


class UF2Error(CheeseboardError):
    """A UF2 cannot be built from what is here; the message says what to do."""


class Source:
    """A MicroPython tree to build from, and what identifies its contents for the cache."""

    def __init__(self, root, identity):
        self.root = Path(root)
        self.identity = identity


def micropython(given=None, unpack_into=None):
    """The MicroPython tree: given (a path, or $CHEESEBOARD_MICROPYTHON), else the archive in
    ../shared/third_party unpacked into unpack_into (once: the folder is named by its hash)."""
    given = given or os.environ.get(ENV)
    if given:
        root = Path(given).expanduser().resolve()
        check_tree(root)
        return Source(root, "%s@%s" % (root, _git_head(root)))
    archive = THIRD_PARTY / MICROPYTHON_ARCHIVE
    if not archive.exists():
        raise UF2Error("no MicroPython source to build from: " + NEEDED)
    digest = file_hash(archive)
    root = unpack(archive, Path(unpack_into) / ("micropython-" + digest[:16]), "micropython")
    check_tree(root)
    return Source(root, "archive:" + digest)


def check_tree(root):
    """Refuse, in one line each, a folder that is not MicroPython 1.28 or lacks a submodule."""
    header = root / "py" / "mpconfig.h"
    if not header.exists():
        raise UF2Error("%s is not a MicroPython source tree (no py/mpconfig.h): %s"
                       % (root, NEEDED))
    found = tree_version(header.read_text(errors="replace"))
    if found[:2] != VERSION:
        raise UF2Error("%s is MicroPython %s; the firmware is built with %d.%d: check out "
                       "v1.28.0 (git checkout v1.28.0 && git submodule update)"
                       % (root, ".".join(map(str, found)) or "of an unknown version", *VERSION))
    for name, marker in SUBMODULES.items():
        if not (root / marker).exists():
            raise UF2Error("%s lacks the submodule %s: run `make -C %s/ports/rp2 submodules` "
                           "(or git submodule update --init %s)" % (root, name, root, name))


def tree_version(text):
    """(major, minor, micro) from py/mpconfig.h's text; () when it does not say."""
    parts = []
    for part in ("MAJOR", "MINOR", "MICRO"):
        m = re.search(r"#define MICROPY_VERSION_%s \(?(\d+)" % part, text)
        if not m:
            return ()
        parts.append(int(m.group(1)))
    return tuple(parts)


def picotool_source(unpack_into):
    """picotool's source tree from ../shared/third_party (unpacked once), or None: then an
    installed picotool is used."""
    archive = THIRD_PARTY / PICOTOOL_ARCHIVE
    if not archive.exists():
        return None
    digest = file_hash(archive)
    return unpack(archive, Path(unpack_into) / ("picotool-" + digest[:16]), "picotool")


def unpack(archive, dest, top):
    """archive's folder `top` at dest/top, unpacked whole or not at all (a temporary folder
    renamed into place, so that an interrupted unpack is never taken for a tree)."""
    if (dest / top).is_dir():
        return dest / top
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=dest.name + ".", suffix=".part", dir=dest.parent))
    try:
        with tarfile.open(archive) as tar:
            if hasattr(tarfile, "tar_filter"):  # Python 3.11.4+: no link or path out of tmp
                tar.extractall(tmp, filter="tar")
            else:
                tar.extractall(tmp)  # ../shared/third_party's own archives
        if not (tmp / top).is_dir():
            raise UF2Error("%s: expected a folder %s/ in it" % (archive, top))
        try:
            tmp.rename(dest)
        except OSError:  # another build unpacked it meanwhile
            if not (dest / top).is_dir():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return dest / top


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _git_head(root):
    """The commit a clone is at (with + when it has changes), or "" outside git."""
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=30)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    if head.returncode:
        return ""
    return head.stdout.strip() + ("+" + hashlib.sha256(dirty.stdout.encode()).hexdigest()[:12]
                                  if dirty.stdout.strip() else "")
