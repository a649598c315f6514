"""Rule tables on the board's flash, over the serial protocol: list, get, put in chunks, commit,
reset.

A new table arrives in chunks into rules/<name>.json.new (at most table_check.MAX_BYTES in
all); `commit` checks its SHA-256, then the table's whole check (table_check: bounds on its
bytes before they are parsed, its game's schema, the game's own loader: what the host
checks), and only then renames it over rules/<name>.json in one atomic step. A power cut
at any moment leaves the old table or the new one, never a mix. A game in progress keeps
the table it started with: before the rename that table is kept aside (`kept`) for a
resume after a power cut, and the new one applies from the next game. `reset` drops a synced
table, so that the firmware's own default applies again (the same care for a game in progress).
"""

import binascii
import json
import os

from cheesefw import checked, table_check
from cheesefw.games import GAMES
from cheesefw.home import HOME, rules_file, rules_files
from cheesefw.request_line import number

CHUNK = 300  # table bytes per `get` reply (400 characters of base64)
MAX_PUT = 900  # table bytes per `put`, as base64 "data" or, for ASCII text, JSON "text"
MAX_UNPACKED = 2048  # table bytes per `put` of deflate-compressed "z": what one put may
# allocate stays small (a 1 KB line of it carries about 2 KB of JSON)
WBITS = 10  # the raw deflate window a "z" chunk is packed with: 1 KB of heap to unpack it


def path(name):
    """Where a synced table goes: rules/ at the root of the flash, beside the firmware's
    slots, so that it outlives a firmware update."""
    if name not in GAMES:
        raise ValueError("name: expected one of %s, got %r" % (GAMES, name))
    return "rules/%s.json" % name


def current(name):
    """The table the board plays: the synced one, else the firmware's default."""
    path(name)
    return rules_file(name)


def sha256_hex(board, name):
    """The SHA-256 of a file's exact bytes (hex), read in chunks; None when it is missing."""
    return checked.file_digest(board.open, name)


def _size(name):
    try:
        return os.stat(name)[6]
    except OSError:
        return None


class Tables:
    """The protocol's table commands; `in_play()` names the game in progress, if any, and
    `kept` is where its table is kept when a newer one replaces it."""

    def __init__(self, board, in_play, kept):
        self.board = board
        self.in_play = in_play
        self.kept = kept

    def handlers(self):
        return {"tables": self.cmd_tables, "get": self.cmd_get, "put": self.cmd_put,
                "commit": self.cmd_commit, "reset": self.cmd_reset}

    def cmd_tables(self, request):
        out = []
        for name in sorted(GAMES):
            p = current(name)
            digest = sha256_hex(self.board, p)
            if digest is None:
                continue
            out.append({"name": name, "sha256": digest, "size": _size(p),
                        "version": self._version(p), "synced": p == path(name)})
        return {"tables": out, "deflate": _has_deflate()}

    def _version(self, p):
        try:
            data = self.board.read_file(p)
            table_check.bounds(data)  # a table an older firmware took in may be too deep
            return json.loads(data).get("version")
        except (OSError, ValueError, AttributeError, TypeError):
            return None

    def cmd_get(self, request):
        p = current(request.get("name"))
        offset = _offset(request)
        size = _size(p)
        if size is None:
            raise ValueError("name: no table %s on this board" % p)
        with self.board.open(p, "rb") as f:
            f.seek(offset)
            data = f.read(CHUNK)
        return {"size": size, "offset": offset,
                "data": binascii.b2a_base64(data).decode().strip()}

    def cmd_put(self, request):
        p = path(request.get("name")) + ".new"
        offset = _offset(request)
        have = _size(p) or 0
        if offset != 0 and offset != have:
            raise ValueError("offset: expected 0 or %d, got %d" % (have, offset))
        data = _chunk(request)
        most = MAX_UNPACKED if "z" in request else MAX_PUT
        if len(data) > most:
            raise ValueError("data: expected at most %d bytes, got %d" % (most, len(data)))
        if offset + len(data) > table_check.MAX_BYTES:
            self.board.remove_file(p)
            raise ValueError("offset: expected a table of at most %d bytes, got %d so far (the "
                             "upload is dropped)" % (table_check.MAX_BYTES, offset + len(data)))
        if offset == 0:
            try:
                os.mkdir("rules")  # the first table synced to a freshly flashed board
            except OSError:
                pass
        with self.board.open(p, "wb" if offset == 0 else "ab") as f:
            f.write(data)
        return {"received": offset + len(data)}

    def cmd_commit(self, request):
        name = request.get("name")
        p = path(name)
        new = p + ".new"
        want = request.get("sha256")
        got = sha256_hex(self.board, new)
        if got is None:
            raise ValueError("name: nothing was put for %s" % name)
        if got != want:
            self.board.remove_file(new)
            raise ValueError("sha256: expected %s, got %s (the upload is dropped)" % (want, got))
        try:
            table_check.check(self.board.read_file(new), name,
                              lambda: table_check.load_schema(self.board, HOME, name))
        except (ValueError, MemoryError, RuntimeError) as e:  # RuntimeError: a deep recursion
            self.board.remove_file(new)
            raise ValueError("refused, the board keeps its table: %s" % e) from None
        later = self._keep_for_the_game(name)
        self.board.rename(new, p)
        # so that a game does not check it again
        checked.record(self.board, p, checked.stamp(self.board.read_file, got))
        return {"committed": name, "sha256": got, "applies": "next game" if later else "now"}

    def cmd_reset(self, request):
        """Drop the synced table of a game: the firmware's default applies again."""
        name = request.get("name")
        p = path(name)
        if rules_files(name)[-1] == p:  # the firmware sits at the root: no default but this
            raise ValueError("no firmware default to go back to on this board")
        self.board.remove_file(p + ".new")  # an upload that was never committed
        if _size(p) is None:
            return {"reset": name, "dropped": False, "applies": "now"}
        later = self._keep_for_the_game(name)
        self.board.remove_file(p)
        return {"reset": name, "dropped": True, "sha256": sha256_hex(self.board, current(name)),
                "applies": "next game" if later else "now"}

    def _keep_for_the_game(self, name):
        """True when a game of `name` is in progress: it keeps the table it started with, for a
        resume, copied atomically before its table is replaced or dropped."""
        later = self.in_play() == name
        if later and _size(self.kept) is None:
            self.board.copy_file(current(name), self.kept)
        return later


def _has_deflate():
    try:
        import deflate  # noqa: F401 (built into MicroPython 1.21 and later, where enabled)
    except ImportError:
        return False
    return True


def _unpack(z):
    """The bytes of a "z" chunk: base64 of raw deflate data (window 2**WBITS), independent of
    the other chunks, so that nothing is kept between puts."""
    import io

    import deflate

    try:
        packed = binascii.a2b_base64(z)
        data = deflate.DeflateIO(io.BytesIO(packed), deflate.RAW, WBITS).read(MAX_UNPACKED + 1)
    except (ValueError, OSError, EOFError):
        raise ValueError("z: expected base64 of raw deflate data") from None
    return data


def _chunk(request):
    """A put's bytes: "z" (base64 of deflate-compressed bytes, when the board has deflate:
    about 0.4 bytes a byte for a table), "text" (the table's ASCII text, as a JSON string: it
    travels at about 1.2 bytes a byte) or "data" (base64, for anything else: 1.33)."""
    z = request.get("z")
    if z is not None:
        if not isinstance(z, str) or not _has_deflate():
            raise ValueError("z: expected base64 text, on a board with deflate")
        return _unpack(z)
    text = request.get("text")
    if text is not None:
        if not isinstance(text, str):
            raise ValueError("text: expected a string")
        data = text.encode()
        for b in data:  # (bytes, not the text's characters: each would be interned for good)
            if b > 126:
                raise ValueError("text: expected ASCII, send other bytes as base64 data")
        return data
    b64 = request.get("data")
    if not isinstance(b64, str):
        raise ValueError("data: expected base64 text (or text: the table's text)")
    if len(b64) % 4 or b64.strip(_BASE64):  # a2b_base64 would take "!!!" as no bytes
        raise ValueError("data: expected base64 text, got %r" % b64[:20])
    try:
        return binascii.a2b_base64(b64)
    except ValueError:
        raise ValueError("data: expected base64 text") from None


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


def _offset(request):
    """A get's or a put's byte offset: within the largest table a board takes."""
    return number(request, "offset", 0, table_check.MAX_BYTES, 0)
