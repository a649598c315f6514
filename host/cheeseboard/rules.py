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
GAMES = ("gouda", "kitchen", "gatenkaas")


def schema(game):
    return json.loads((SCHEMAS / (game + ".schema.json")).read_text())


def _field_path(error):
    parts = [str(p) for p in error.absolute_path]
    return ".".join(parts) if parts else "(the table)"


def check_table(table, game=None):
    """The problems of a parsed rule table, as "field.path: what was expected" strings."""
    import jsonschema

    if not isinstance(table, dict):
        return ["(the table): expected a JSON object, got %s" % type(table).__name__]
    game = game or table.get("game")
    if game not in GAMES:
        return ["game: expected one of %s, got %r" % (", ".join(GAMES), game)]
    validator = jsonschema.Draft202012Validator(schema(game))
    errors = sorted(validator.iter_errors(table), key=lambda e: list(e.absolute_path))
    problems = ["%s: %s" % (_field_path(e), e.message) for e in errors]
    if not problems:  # the firmware's loader, for what a schema cannot check
        try:
            _game_module(game).State(table, {})
        except ValueError as e:
            problems.append(_as_field_message(str(e)))
    return problems


def _as_field_message(message):
    """The loader's message in the host's form, "field.path: expected ..."."""
    for prefix in ("rules.", "kitchen rules: ", "kitchen: ", "gatenkaas rules: ", "gatenkaas: "):
        message = message.removeprefix(prefix)
    field, sep, rest = message.partition(" expected")
    if sep and ":" not in field:
        return "%s: expected%s" % (field, rest)
    return message if ":" in message else "(the table): " + message


def check_file(path):
    """The problems of a rule table file (bad JSON included); [] when it is good."""
    path = Path(path)
    try:
        table = json.loads(path.read_bytes())
    except OSError as e:
        return ["(the file): cannot read it: %s" % e.strerror]
    except ValueError as e:
        return ["(the file): not valid JSON: %s" % e]
    game = table.get("game") if isinstance(table, dict) else None
    return check_table(table, game or (path.stem if path.stem in GAMES else None))


def _game_module(game):
    return paths.import_firmware("cheesefw.games").load(game)
