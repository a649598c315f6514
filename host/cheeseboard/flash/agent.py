# The board's half of `cheeseboard flash`: MicroPython code, sent once over the raw
# REPL and then called by name (see deploy.py). It hashes, lists, copies, removes
# and receives files, checks a slot against its manifest and switches slots.
# Files arrive on stdin as raw bytes (deflate-compressed per file when the board has
# `deflate`), Ctrl-C escaped, many in one call, in blocks each acknowledged with "." so
# that no buffer on a UART board overflows (the host sends the next block only then; on
# a USB board it sends ahead). A file is held in RAM until it is whole (the largest,
# compressed, is under 6 KB), then written.
import binascii
import gc
import hashlib
import json
import os
import select
import sys

_buf = bytearray(512)
_poll = None


def _alive():
    # A sign of life, after each file of a long call: the host gives a board up after seconds
    # with no byte from it, and a slot's files copied erase a block each (45 ms typical, 400
    # ms at worst), hashed each walk their path from the root. Link.call reads past the dots.
    sys.stdout.write(".")


def _sha(path):
    _alive()
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            n = f.readinto(_buf)
            if not n:
                break
            h.update(memoryview(_buf)[:n])
    return _hex(h)


def _hex(h):
    return binascii.hexlify(h.digest()).decode()


def _walk(top, rel=""):
    """(path in the slot, path on the flash, size) of every file under top. The size is the
    listing's (LittleFS gives it; there a stat would walk the path down from the root again,
    some 3 ms a folder on a Pico), else a stat's (the unix port's listing has none)."""
    try:
        entries = list(os.ilistdir(top))
    except OSError:
        return []
    out = []
    for e in entries:
        full = top + "/" + e[0]
        if e[1] & 0x4000:
            out += _walk(full, rel + e[0] + "/")
        else:
            out.append((rel + e[0], full, e[3] if len(e) > 3 else os.stat(full)[6]))
    return out


def _load(path):
    """A JSON file's object, or None when it cannot be read (missing, a folder, larger than
    any manifest, not JSON, nested too deep for the heap, not an object)."""
    global _why
    try:
        if os.stat(path)[6] > 32768:
            _why = "larger than any manifest"
            return None
        with open(path) as f:  # parsed from the file: no copy of its text on a tight heap
            obj = json.load(f)
    except MemoryError:
        _why = "no room to read it"
        return None
    except Exception as e:
        _why = repr(e)[:80]
        return None
    _why = "not an object"
    return obj if isinstance(obj, dict) else None


_why = ""  # why the last file _load refused could not be read


def _put(path, obj):
    with open(path + ".new", "w") as f:
        json.dump(obj, f)
    os.rename(path + ".new", path)


def _mkdirs(path):
    parts = path.split("/")[:-1]
    for i in range(len(parts)):
        try:
            os.mkdir("/".join(parts[: i + 1]))
        except OSError:
            pass


def _out(obj):
    print(json.dumps(obj))


def facts(loader):
    """Who the board is, which slot runs, and the loader's hashes (16 hex digits)."""
    impl = sys.implementation
    state = _load("slot.json")
    fs = os.statvfs("/")
    gc.collect()
    active = state.get("active") if state else None
    manifest = _load(active + "/manifest.json") if active in ("slot_a", "slot_b") else None
    loader_sha = {}
    for p in loader:
        try:
            loader_sha[p] = _sha(p)[:16]
        except OSError:
            pass
    _out(
        {
            "name": impl.name,
            "version": list(impl.version[:3]),
            "mpy": getattr(impl, "_mpy", None),
            "platform": sys.platform,
            "machine": os.uname().machine,
            "deflate": _has("deflate"),
            "frozen": _has("frozen_firmware"),  # a cheeseboard UF2's MicroPython
            "state": state,
            "build": manifest.get("build") if manifest else None,
            "firmware": manifest.get("version") if manifest else None,
            "profile": manifest.get("profile") if manifest else None,
            "loader": loader_sha,
            "flash_free": fs[0] * fs[3],
            "flash_size": fs[0] * fs[2],
            "heap_free": gc.mem_free(),
        }
    )


def _has(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


def listing(slot):
    """Every file of a slot: its hash (16 hex digits) and size."""
    _out({rel: [_sha(full)[:16], size] for rel, full, size in _walk(slot)})


def check(slot, manifest="manifest.json", loader=(), written=()):
    """What differs between a slot's files and its manifest: [] when it is whole. loader:
    the loader's files waiting as name.new, checked against the manifest too. written: files
    of the slot the host has just sent and found whole (receive's hashes), checked by size
    alone, as the listing gives it: one read of each file less (each open walks the path
    down from the root's metadata, 10 ms a module on a Pico)."""
    m = _load(slot + "/" + manifest)
    if not m:
        _out(["no %s (%s)" % (manifest, _why)])
        return
    want = m["files"]
    bad = []
    for name in loader:
        try:
            if _sha(name + ".new") != m["loader"][name][1]:
                bad.append("differs " + name)
        except OSError:
            bad.append("missing " + name)
    have = {}
    for rel, full, size in _walk(slot):
        if rel not in (manifest, "manifest.json", "manifest.json.new"):
            have[rel] = full, size
    for rel in want:
        if rel not in have:
            bad.append("missing " + rel)
        elif have[rel][1] != want[rel][0] or (
                rel not in written and _sha(have[rel][0]) != want[rel][1]):
            bad.append("differs " + rel)
    for rel in have:
        if rel not in want:
            bad.append("extra " + rel)
    _out(bad)


def seal(slot, loader=()):
    """The slot's files match manifest.json.new: make it the slot's manifest, and put the
    checked loader files (name.new) in place."""
    os.rename(slot + "/manifest.json.new", slot + "/manifest.json")
    for name in loader:
        os.rename(name + ".new", name)
    _out("sealed")


def remove(paths):
    for p in paths:
        _alive()
        try:
            os.remove(p)
        except OSError:
            pass
    _out(len(paths))


def copy(pairs):
    """Copy files on the board (from the other slot): no bytes on the wire."""
    for src, dst in pairs:
        _alive()
        _mkdirs(dst)
        with open(src, "rb") as f, open(dst + ".part", "wb") as g:
            while True:
                n = f.readinto(_buf)
                if not n:
                    break
                g.write(memoryview(_buf)[:n])
        os.rename(dst + ".part", dst)
    _out(len(pairs))


def _read(n):
    global _poll
    stdin = sys.stdin.buffer
    if _poll is None:
        _poll = select.poll()
        _poll.register(stdin, select.POLLIN)
    out = b""
    while len(out) < n:
        got = stdin.read(n - len(out))
        if got:
            out += got
        else:
            _poll.poll(100)  # the unix port's console does not block
    return out


def receive(files, packed, wbits=10, block=256):
    """Files from stdin, one after another: files is [[path, size on the wire], ...]. Each
    arrives as size bytes with 0x03 and 0x1b escaped (as 0x1b "c" and 0x1b "e": Ctrl-C stays
    the interrupt), deflate-compressed if packed, in blocks of block bytes (a file's last may
    be shorter); '.' says ready, then acknowledges each block as it is read. Each file is
    written in place: the flash checks every file's hash before it seals the slot, and on
    LittleFS a file cut short keeps its old bytes (a rename more would cost the flash as much
    again as the file's own writes). Says the hash of the bytes written, file by file: the
    host compares them, and the slot's check need not read those files back (LittleFS reads
    back each program of a file's data itself, and fails the write where it differs)."""
    made = set()
    digests = []
    sys.stdout.write(".")  # ready
    for path, size in files:
        folder = path.rpartition("/")[0]
        if folder not in made:
            _mkdirs(path)
            made.add(folder)
        data = bytearray()
        while len(data) < size:
            data.extend(_read(min(block, size - len(data))))
            sys.stdout.write(".")
        data = bytes(data).replace(b"\x1bc", b"\x03").replace(b"\x1be", b"\x1b")
        h = hashlib.sha256()
        with open(path, "wb") as f:
            if packed:
                import io

                import deflate

                d = deflate.DeflateIO(io.BytesIO(data), deflate.RAW, wbits)
                while True:
                    n = d.readinto(_buf)
                    if not n:
                        break
                    f.write(memoryview(_buf)[:n])
                    h.update(memoryview(_buf)[:n])
            else:
                f.write(data)
                h.update(data)
        data = None
        digests.append(_hex(h)[:16])
    _out(digests)


def set_aside(names):
    """Rename each file (or folder) of names that is there to name.bad (an older .bad
    goes): the board's own files a firmware reads at boot, kept for a person to look at."""
    moved = []
    for name in names:
        try:
            os.stat(name)
        except OSError:
            continue
        try:
            os.remove(name + ".bad")
        except OSError:
            pass
        try:
            os.rename(name, name + ".bad")
            moved.append(name)
        except OSError:
            pass
    _out(moved)


def switch(slot, previous, build, trial):
    """Make slot the active one, in one atomic rename of slot.json."""
    state = {"active": slot, "previous": previous, "build": build}
    if trial:
        state["trial"] = True
    _put("slot.json", state)
    _out(state)
