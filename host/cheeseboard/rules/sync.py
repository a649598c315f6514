"""Rule tables between the host and a board: list, diff field by field, push what differs, pull.

The transfer is the protocol's `tables`, `get`, `put` and `commit` (firmware/cheesefw/
tables.py): chunks of the table, one line each (deflate-compressed where the board has
`deflate`, else the table's text), then a commit that the board checks and applies
atomically. A table that is the same on both sides (same SHA-256)
is not sent at all. `reset` drops a synced table, so that the firmware's default applies.
"""

import base64
import hashlib
import json
import zlib
from pathlib import Path

from cheeseboard import paths
from cheeseboard.board.protocol import ProtocolError
from cheeseboard.rules.check import check_file, game_of

CHUNK = 300  # base64 bytes per put, for a table that is not plain ASCII
TEXT_LINE = 900  # characters of JSON-escaped text per put: the line stays under 1 KB
Z_LINE = 900  # base64 characters of a compressed chunk per put: the line stays under 1 KB
Z_MOST = 2048  # table bytes a compressed chunk may unpack to (the board's MAX_UNPACKED)
WBITS = 10  # the deflate window the board unpacks with (its tables.WBITS)


def default_files():
    return sorted((paths.FIRMWARE / "rules").glob("*.json"))


def board_tables(client):
    """{name: {"sha256": ..., "size": ..., "version": ..., "synced": ...}} of the tables on
    the board."""
    return _tables(client)[0]


def _tables(client):
    """The board's tables, and whether it can unpack deflate-compressed puts: one request."""
    reply = client.request("tables")
    return {t["name"]: t for t in reply["tables"]}, bool(reply.get("deflate"))


def pull(client, name):
    """A table's exact bytes from the board."""
    data = b""
    while True:
        reply = client.request("get", name=name, offset=len(data))
        chunk = base64.b64decode(reply["data"])
        data += chunk
        if not chunk or len(data) >= reply["size"]:
            return data


def push(client, name, data, packed=False):
    """Send a table in chunks (deflate-compressed if packed: the board has deflate) and commit
    it; the board's reply to the commit."""
    # The chunks and the commit go out back to back; the replies follow. The board reads
    # its console in order, so the commit is taken after the last chunk.
    commit = ("commit", {"name": name, "sha256": hashlib.sha256(data).hexdigest()})
    puts = _packed_puts(name, data) if packed else _puts(name, data)
    return client.pipeline(puts + [commit])[-1]


def _pack(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -WBITS)
    return base64.b64encode(c.compress(data) + c.flush()).decode()


def _packed_puts(name, data):
    """The put requests for a table, each chunk compressed on its own (the board keeps
    nothing between puts) and as long as fits in a line: about 0.4 characters a byte."""
    puts = []
    offset = 0
    while offset < len(data) or not puts:
        lo, hi = offset + 1, min(len(data), offset + Z_MOST)
        best = lo
        while lo <= hi:  # the longest chunk whose packed form fits in a line
            mid = (lo + hi) // 2
            if len(_pack(data[offset:mid])) <= Z_LINE:
                best, lo = mid, mid + 1
            else:
                hi = mid - 1
        puts.append(("put", {"name": name, "offset": offset, "z": _pack(data[offset:best])}))
        offset = best
    return puts


def _puts(name, data):
    """The put requests for a table: its text as JSON strings when it is printable ASCII
    (about 1.2 characters a byte), else base64 (1.33)."""
    try:
        text = data.decode("ascii")
        ascii_text = all(32 <= ord(c) <= 126 or c in "\n\r\t" for c in text)
    except UnicodeDecodeError:
        ascii_text = False
    if not ascii_text:
        return [("put", {"name": name, "offset": offset,
                         "data": base64.b64encode(data[offset:offset + CHUNK]).decode()})
                for offset in range(0, max(len(data), 1), CHUNK)]
    puts = []
    offset = 0
    while offset < len(text) or not puts:
        end = offset
        size = 0
        while end < len(text) and size + len(json.dumps(text[end])) - 2 <= TEXT_LINE:
            size += len(json.dumps(text[end])) - 2
            end += 1
        puts.append(("put", {"name": name, "offset": offset, "text": text[offset:end]}))
        offset = end
    return puts


def name_of(path, game=None):
    """The board's name for a table file: its game (kitchen-8cheese.json is the kitchen's)."""
    try:
        table = json.loads(Path(path).read_bytes())
    except ValueError:
        table = None
    return game_of(path, table, game) or Path(path).stem


def sync(client, files, game=None):
    """Push each file whose table differs from the board's; [(name, what happened)]. `game`
    names the game the files are for, where neither the table nor its file name says."""
    problems = {}
    names = [name_of(f, game) for f in files]
    for name in set(names):
        if names.count(name) > 1:
            problems["(the files)"] = ["%d files are %s tables: send one" % (names.count(name),
                                                                               name)]
    for f in files:
        found = check_file(f, game)
        if found:
            problems[str(f)] = found
    if problems:
        raise ProtocolError("refused before sending:\n" + "\n".join(
            "%s: %s" % (f, p) for f, ps in problems.items() for p in ps))
    on_board, packed = _tables(client)
    done = []
    for f, name in zip(files, names, strict=True):
        data = Path(f).read_bytes()
        if on_board.get(name, {}).get("sha256") == hashlib.sha256(data).hexdigest():
            done.append((name, "same"))
            continue
        reply = push(client, name, data, packed)
        done.append((name, "sent, applies " + reply["applies"]))
    return done


def reset(client, game=None):
    """Drop the board's synced table of `game` (all of them when None), so that the firmware's
    default applies again; [(name, what happened)]."""
    on_board = board_tables(client)
    names = [game] if game else sorted(n for n, t in on_board.items() if t.get("synced"))
    done = []
    for name in names:
        if name in on_board and not on_board[name].get("synced"):
            done.append((name, "no synced table, the firmware's default applies"))
            continue
        reply = client.request("reset", name=name)
        if reply["dropped"]:
            done.append((name, "synced table dropped, the firmware's default applies "
                         + reply["applies"]))
        else:
            done.append((name, "no synced table, the firmware's default applies"))
    return done


def diff_values(old, new, where=""):
    """The differences between two parsed tables, as "path: old -> new" lines."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in sorted(set(old) | set(new), key=str):
            here = "%s.%s" % (where, key) if where else str(key)
            if key not in old:
                out.append("%s: (none) -> %s" % (here, json.dumps(new[key])))
            elif key not in new:
                out.append("%s: %s -> (none)" % (here, json.dumps(old[key])))
            else:
                out += diff_values(old[key], new[key], here)
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        out = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            out += diff_values(a, b, "%s.%d" % (where, i) if where else str(i))
        return out
    return [] if old == new else ["%s: %s -> %s" % (where or "(the table)", json.dumps(old),
                                                     json.dumps(new))]


def diff(client, files, game=None):
    """{name: [differences, board -> file]} for each file; [] where they are the same."""
    on_board = board_tables(client)
    out = {}
    for f in files:
        name = name_of(f, game)
        data = Path(f).read_bytes()
        if on_board.get(name, {}).get("sha256") == hashlib.sha256(data).hexdigest():
            out[name] = []
        elif name not in on_board:
            out[name] = ["(the table): not on the board"]
        else:
            board_table, problem = _json(pull(client, name), "the board's table")
            table, problem = (None, problem) if problem else _json(data, "the file")
            out[name] = [problem] if problem else diff_values(board_table, table) or [
                "(the table): same fields, different bytes (spacing)"]
    return out


def _json(data, whose):
    """(the parsed table, None), or (None, a one-line problem) where data is no JSON the host
    reads (a table an older firmware took in, say, whose parser was lenient)."""
    try:
        return json.loads(data), None
    except ValueError as e:
        return None, "(%s): not valid JSON: %s" % (whose, e)
