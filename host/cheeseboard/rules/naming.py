"""Which game a rule table is for, and the refusals about it: one rule for `cheeseboard rules
check`, `sync` and the web board's upload.

The table's own `game` says it, else the file's name (kitchen.json, kitchen-8cheese.json); a
file whose name says one game and whose table says another is refused, as is a game the
firmware does not play. (This module runs on MicroPython too: the web board checks an upload
with it in a VM of its own, beside the firmware's bounds and strict JSON, before it sends the
table to the board. It imports nothing, and the games are the caller's: cheesefw.games.GAMES.)
"""


def stem(file_name):
    """A file's name without its folder and its last suffix (pathlib's stem)."""
    name = file_name.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[:dot] if dot > 0 else name


def named_game(file_name, games):
    """The game a file's name says (kitchen.json, kitchen-8cheese.json), or None."""
    name = stem(file_name)
    for game in games:
        if name == game or name.startswith(game + "-") or name.startswith(game + "_") \
                or name.startswith(game + "."):
            return game
    return None


def game_of(file_name, table, games, given=None):
    """The game a table file is for: `given` (--game), else the table's own `game` field, else
    the game its name says, else None."""
    if given:
        return given
    if isinstance(table, dict) and isinstance(table.get("game"), str):
        return table["game"]
    return named_game(file_name, games)


def problems(file_name, table, games, given=None):
    """The refusals of a parsed table about its game ([] when it is one the firmware plays and
    its file's name, --game and its `game` field agree), each "game: ...". file_name: None
    when the table comes from no file."""
    if isinstance(table, dict):
        named = named_game(file_name, games) if file_name else None
        if named and table.get("game") not in (None, named):
            return ["game: the file's name says %s, the table is %s's (rename the file, or fix "
                    "its `game` field)" % (said(named), said(table.get("game")))]
        if given and table.get("game") not in (None, given):
            return ["game: --game says %s, the table is %s's" % (said(given),
                                                                 said(table.get("game")))]
    return table_problems(table, game_of(file_name or "", table, games, given), games)


def table_problems(table, game, games):
    """A parsed table's refusals about its game, for the game it is meant for (None: its
    own `game` field)."""
    if not isinstance(table, dict):
        return ["(the table): expected a JSON object, got %s" % type(table).__name__]
    game = game or table.get("game")
    if game not in games:
        return ["game: expected one of %s, got %s" % (", ".join(games), said(game))]
    if table.get("game") != game:
        return ["game: expected %s, got %s" % (said(game), said(table.get("game")))]
    return []


def said(value):
    """A value in the words, the same on both VMs (MicroPython's repr of "kitchén" escapes
    the accent, CPython's does not): a string between quotes, as it is but for a quote, a
    backslash or a control character (\\uXXXX); a number, a truth value or None as Python
    writes it; anything else by its kind."""
    if isinstance(value, str):
        return "'%s'" % "".join(c if c >= " " and c not in "'\\\x7f" else "\\u%04x" % ord(c)
                                for c in value)
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    return "a JSON %s" % ("object" if isinstance(value, dict) else "array")
