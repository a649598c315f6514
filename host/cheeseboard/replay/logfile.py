"""The logs a replay reads: a board's journal, a saved `cheeseboard log`, or a board asked now.

- The journal (journal.txt on the board's flash; a virtual board's flash folder holds it): its
  first line names the game, each line after it a move or a takeback, every line with its CRC.
  It holds every move in clear, hidden ones too: the replay keeps them hidden as the board does.
- What `cheeseboard log` prints, saved to a file: a `# {"game": ...}` line, then `N: move` lines
  and `taken back: ...` notes. While the game runs, its deals and secret moves are "?", so the
  replay stops before the first of them (the journal has them).
- A board over its serial port: `state` says the game, `log` gives the moves, as above.
"""

import io
import json
import re

try:
    from cheeseboard.replay.positions import Game, ReplayError
except ImportError:  # in the web board's VM, beside positions.py (it runs on MicroPython too)
    from positions import Game, ReplayError

_MAX_BYTES = 4 << 20  # no game's log comes near (a long game's journal: tens of KB)
_MOVE = re.compile(r"^(\d+): (.*)$")
_HEADER = "# "


def read(path):
    """The game in a journal or a saved log file; ReplayError (one line) when it is neither."""
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_BYTES + 1)
    except OSError as e:
        raise ReplayError("%s: cannot read it (%s)" % (path, e.strerror or e)) from None
    if len(data) > _MAX_BYTES:
        raise ReplayError("%s: over %d MB: not a game's log" % (path, _MAX_BYTES >> 20))
    try:
        text = data.decode()
    except UnicodeDecodeError:
        raise ReplayError("%s: not text: expected a board's journal.txt or a file saved from "
                          "`cheeseboard log`" % path) from None
    return parse(text, path)


def parse(text, source, load=None):
    """The game in a journal's or a saved log's text (the web board hands it over as text, with
    its VM's own import as `load`)."""
    if len(text) > _MAX_BYTES:  # (a file dropped on the web board comes here whole)
        raise ReplayError("%s: over %d MB: not a game's log" % (source, _MAX_BYTES >> 20))
    first = text.split("\n", 1)[0]
    if first.startswith(_HEADER):
        return parse_log(text, source)
    if len(first) > 9 and first[8] == " " and all(c in "0123456789abcdef" for c in first[:8]):
        return parse_journal(text, source, load)
    raise ReplayError("%s: expected a board's journal.txt (its lines start with a CRC) or a "
                      "file saved from `cheeseboard log` (its first line starts with \"# \"), "
                      "got %r" % (source, first[:40]))


def parse_journal(text, source, load=None):
    """The journal's header and moves, read by the firmware's own rule (engine/journal.py's
    read_moves): the moves the board resumes, up to a line torn by a power cut or one that is
    no move (the board keeps the file aside and plays on from the lines before it). The
    firmware comes from load(name) (a VM's own import), else as the lab takes it
    (paths.import_firmware)."""
    if load is None:
        from cheeseboard import paths

        load = paths.import_firmware
    journal = load("cheesefw.engine.journal")
    header = journal.read_header(io.StringIO(text).readline)
    if not isinstance(header, dict) or not isinstance(header.get("game"), str):
        raise ReplayError("%s: its first line names no game: %s"
                          % (source, text.split("\n", 1)[0][9:80]))
    moves = []
    journal.read_moves(io.StringIO(text).readline, moves.append)
    return Game(header, moves, source)


def parse_log(text, source):
    """A file saved from `cheeseboard log`: the game's header, then its moves in order."""
    rows = text.splitlines()
    try:
        header = json.loads(rows[0][len(_HEADER):])
    except (ValueError, RuntimeError):  # (RuntimeError: nested past the parser's depth)
        header = None
    if not isinstance(header, dict) or not isinstance(header.get("game"), str):
        raise ReplayError("%s: line 1: expected # {\"game\": ..., \"options\": ...} as "
                          "`cheeseboard log` prints it" % source)
    moves = []
    for n, row in enumerate(rows[1:], 2):
        if not row.strip() or row.strip().startswith("taken back:"):
            continue  # (the moves kept are listed; what went back is not there to replay)
        m = _MOVE.match(row)
        try:
            if not m or int(m.group(1)) != len(moves):
                raise ValueError
            moves.append(json.loads(m.group(2)))
        except (ValueError, RuntimeError):
            raise ReplayError("%s: line %d: expected \"%d: <move>\" as `cheeseboard log` "
                              "prints it, got %r" % (source, n, len(moves), row[:60])) from None
    return from_moves(header, moves, source)


def from_moves(header, moves, source):
    """A game from the moves a board's `log` lists: up to the first hidden one ("?")."""
    hidden_from = moves.index("?") if "?" in moves else None
    if hidden_from is not None:
        moves = moves[:hidden_from]
    over = header.pop("over", None)
    return Game(header, moves, source, over=over, hidden_from=hidden_from)


def from_board(client, source):
    """The game on a board now, asked over the protocol (`state`, then `log` page by page)."""
    from cheeseboard.board.protocol import ProtocolError

    state = client.request("state")["state"]
    if state.get("mode") != "play":
        raise ReplayError("%s: no game in progress on the board (its menu is showing)" % source)
    try:
        page = client.request("log", **{"from": 0})
    except ProtocolError as e:
        raise ReplayError("%s: %s" % (source, e)) from None
    moves = list(page["moves"])
    while page["moves"] and len(moves) < page["total"]:
        page = client.request("log", **{"from": len(moves)})
        moves.extend(page["moves"])
    return from_moves(header_of(state), moves, source)


def header_of(state):
    """The log's header from a board's `state`: its game, options, the seats it plays, and
    whether the game is over."""
    header = {"game": state["game"], "options": state.get("options") or {},
              "over": state.get("wait") == "over"}
    if state.get("seats"):  # [seat, level] for each seat the board plays
        header["seats"] = [list(pair) for pair in state["seats"]]
    elif state.get("board"):  # (a firmware that names the seats alone: its level unknown)
        header["seats"] = [[seat, "strong"] for seat in state["board"]]
    return header
