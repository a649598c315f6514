"""Files the board has checked, unchanged since: they pass again without their check running.

The profile is checked at every power-on and a rule table at every game start, and a check's
code is let go once it has run -- but not the names it brought. MicroPython interns every
identifier of the code it loads and never frees one: the profile's, the table's and the
schema's checks would leave some 90 of them in the heap of every game (and push the table of
interned names past its next doubling, 4.5 KB more at 32 bits). So a file that passes gets a
stamp, in _STAMPS at the root of the flash: the firmware's build id and the SHA-256 of the
file's bytes. Next time a file whose stamp matches is taken as checked. A changed file, another
firmware, a stamp lost to a power cut, or a firmware with no build id (run from a checkout, or
gone back to after a failed update): the check runs again.
"""

import binascii
import hashlib
import json

from cheesefw import const

_STAMPS = const("checked.json")  # {file name: "<build id> <sha256 of its bytes>"}
_SLOT_STATE = const("slot.json")  # where `cheeseboard flash` names the build in the active slot


def digest(data):
    """The SHA-256 of data (bytes), in hex."""
    return binascii.hexlify(hashlib.sha256(data).digest()).decode()


def file_digest(open_file, name):
    """The SHA-256 of a file's bytes, in hex, read a little at a time (the board may have no
    free block the file's size); None when it is missing. open_file: open, or a board's."""
    h = hashlib.sha256()
    try:
        with open_file(name, "rb") as f:
            while True:
                chunk = f.read(256)
                if not chunk:
                    break
                h.update(chunk)
    except OSError:
        return None
    return binascii.hexlify(h.digest()).decode()


def _read_json(read, name):
    try:
        value = json.loads(read(name) or "{}")
    except (OSError, ValueError, MemoryError):  # missing, too large, not JSON, nested too
        return {}  # deep for the heap: nothing checked (each check runs again, and passes)
    return value if type(value) is dict else {}


def stamp(read, sha):
    """The stamp of a file whose bytes have digest sha, as this firmware would record it: its
    build id and sha; None where there is no build id (then nothing is stamped). read(file
    name) gives a file's bytes or None (a board's read_file)."""
    build = _read_json(read, _SLOT_STATE).get("build")
    return "%s %s" % (build, sha) if type(build) is str else None


def passed(read, name, stamp):
    """True when this firmware's check passed the file name as it is now (its stamp)."""
    return stamp is not None and _read_json(read, _STAMPS).get(name) == stamp


def record(board, name, stamp):
    """Note that the file name passed this firmware's check, with its stamp (written through
    the board, atomically: the web board keeps its files that way)."""
    if stamp is None:
        return
    stamps = _read_json(board.read_file, _STAMPS)
    if stamps.get(name) != stamp:
        stamps[name] = stamp
        data = json.dumps(stamps).encode()
        try:
            board.write_file(_STAMPS, data)
        except OSError:  # _STAMPS is no file it can replace (a folder): set aside, made anew
            try:
                board.rename(_STAMPS, _STAMPS + ".bad")
                board.write_file(_STAMPS, data)
            except OSError:
                pass  # no stamp: the check runs again next time
