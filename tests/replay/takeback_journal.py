"""A real game's journal with many takebacks (the replay's tests and its benchmark)."""

import binascii
import json
from pathlib import Path

JOURNAL = Path(__file__).resolve().parents[2] / "docs" / "pictures" / "kitchen-journal.txt"


def crc_line(obj):
    """One journal line, as the firmware writes it (engine/journal.py)."""
    text = json.dumps(obj)
    return "%08x %s\n" % (binascii.crc32(text.encode()) & 0xFFFFFFFF, text)


def journal_with_takebacks(count, journal=JOURNAL):
    """The kitchen's journal, then `count` takebacks: each one or two moves back, the moves
    played again after it, so that the game ends where the journal ends."""
    text = journal.read_text()
    rows = text.splitlines(keepends=True)[1:]  # (the moves' lines, as the board wrote them)
    out = [text]
    for i in range(count):
        back = 1 + i % 2
        out.append(crc_line({"takeback": len(rows) - back}))
        out.extend(rows[-back:])
    return "".join(out)
