"""Rule tables on the host: check them against their JSON Schema and the firmware's own loader.

A table is refused when either says no: the schema (host/cheeseboard/schemas/<game>.schema.json)
names the field and what was expected; the firmware's loader (the game module, run here on
CPython exactly as the board runs it) adds what a schema cannot say, such as a space that no
start can reach. Every message starts with the path of the field.
"""

import json
from pathlib import Path

from cheeseboard import paths

SCHEMAS = Path(__file__).resolve().parent / "schemas"
GAMES = ("gouda", "kitchen")


def schema(game):
    return json.loads((SCHEMAS / (game + ".schema.json")).read_text())


def _field_path(error):
    parts = [str(p) for p in error.absolute_path]
    return ".".join(parts) if parts else "(the table)"


def _validator(game):
    """The schema's validator, "integer" meaning an int (JSON Schema takes 1.0 for one; the
    games count with them, and the board's check refuses a float there too)."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    ints = base.TYPE_CHECKER.redefine(
        "integer", lambda checker, x: isinstance(x, int) and not isinstance(x, bool))
    return jsonschema.validators.extend(base, type_checker=ints)(schema(game))


def check_table(table, game=None):
    """The problems of a parsed rule table, as "field.path: what was expected" strings."""
    if not isinstance(table, dict):
        return ["(the table): expected a JSON object, got %s" % type(table).__name__]
    game = game or table.get("game")
    if game not in GAMES:
        return ["game: expected one of %s, got %r" % (", ".join(GAMES), game)]
    if table.get("game") != game:
        return ["game: expected %r, got %r" % (game, table.get("game"))]
    try:
        errors = sorted(_validator(game).iter_errors(table), key=lambda e: list(e.absolute_path))
    except RecursionError:
        return ["(the table): expected at most %d levels of nesting" % _checks().MAX_DEPTH]
    problems = ["%s: %s" % (_field_path(e), e.message) for e in errors]
    if not problems:  # the firmware's loader, for what a schema cannot check
        try:
            _checks().game_check(game, table)
        except ValueError as e:
            problems.append(_as_field_message(str(e)))
    return problems


def _as_field_message(message):
    """The loader's message in the host's form, "field.path: expected ..."."""
    for prefix in ("rules.", "kitchen rules: ", "kitchen: "):
        message = message.removeprefix(prefix)
    field, sep, rest = message.partition(" expected")
    if sep and ":" not in field:
        return "%s: expected%s" % (field, rest)
    return message if ":" in message else "(the table): " + message


def check_file(path):
    """The problems of a rule table file (bad JSON included); [] when it is good."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        return ["(the file): cannot read it: %s" % e.strerror]
    return check_bytes(data, path.stem if path.stem in GAMES else None)


def check_bytes(data, name=None):
    """The problems of a table's text, checked as the board checks what it takes in: its
    bounds first (nesting, size, string length: table_check.bounds), then JSON, then the
    table. name: the game it is for, when known (a file's name)."""
    try:
        _checks().bounds(data)
    except ValueError as e:
        return [str(e)]
    try:
        table = json.loads(data, parse_constant=_no_constant)
    except ValueError as e:
        return ["(the file): not valid JSON: %s" % e]
    game = table.get("game") if isinstance(table, dict) else None
    return check_table(table, game or name)


def _no_constant(name):
    raise ValueError("%s is not a JSON number" % name)


def _checks():
    return paths.import_firmware("cheesefw.table_check")


def _game_module(game):
    return paths.import_firmware("cheesefw.games").load(game)
