"""Rule tables on the host: check them against their JSON Schema and the firmware's own loader.

A table is refused when either says no: the schema (host/cheeseboard/schemas/<game>.schema.json)
names the field and what was expected; the firmware's loader (the game module, run here on
CPython exactly as the board runs it) adds what a schema cannot say, such as a space that no
start can reach. Every message starts with the path of the field.
"""

import difflib
import json
from pathlib import Path

from cheeseboard import CheeseboardError, paths
from cheeseboard.rules import naming

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


class RulesError(CheeseboardError):
    """A rule-table command cannot do what was asked; the message says what to do."""


def games():
    """The games the firmware plays (cheesefw.games.GAMES): one schema and one table each."""
    return tuple(paths.import_firmware("cheesefw.games").GAMES)


def schema(game):
    return json.loads((SCHEMAS / (game + ".schema.json")).read_text())


def _field_path(error):
    parts = [str(p) for p in error.absolute_path]
    # A key that is missing: name the key itself, not the object holding it (an unknown key:
    # see _schema_message).
    if error.validator == "required":
        parts += [k for k in error.validator_value if k not in error.instance][:1]
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
    refused = naming.table_problems(table, game, games())
    if refused:
        return refused
    game = game or table.get("game")
    try:
        errors = sorted(_validator(game).iter_errors(table), key=lambda e: list(e.absolute_path))
    except RecursionError:
        return ["(the table): expected at most %d levels of nesting" % _checks().MAX_DEPTH]
    problems = [_schema_message(e) for e in errors]
    if not problems:  # the firmware's loader, for what a schema cannot check
        try:
            _checks().game_check(game, table)
        except ValueError as e:
            problems.append(_as_field_message(str(e)))
    return problems


def _schema_message(error):
    """A schema error as "field.path: what was expected"; an unknown key (a misspelt house rule,
    which would otherwise do nothing) is named, with the closest known key."""
    if error.validator == "additionalProperties" and error.validator_value is False:
        known = sorted(error.schema.get("properties", {}))
        lines = []
        for key in sorted(set(error.instance) - set(known), key=str):
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = "did you mean %r? " % close[0] if close else ""
            where = ".".join([str(p) for p in error.absolute_path] + [str(key)])
            lines.append("%s: unknown key (%sknown keys: %s)" % (where, hint, ", ".join(known)))
        return "\n".join(lines)
    return "%s: %s" % (_field_path(error), error.message)


def game_of(path, table, given=None):
    """The game a table file is for: `given` (--game), else the table's own `game` field, else
    the file's name (kitchen.json, kitchen-8cheese.json); None when none says (naming.game_of)."""
    return naming.game_of(str(path), table, games(), given)


def named_game(path):
    """The game a file's name says (kitchen.json, kitchen-8cheese.json), or None."""
    return naming.named_game(str(path), games())


def _as_field_message(message):
    """The loader's message in the host's form, "field.path: expected ..."."""
    for prefix in ("rules.", "kitchen rules: ", "kitchen: ", "kalle rules: ", "kalle: ",
                   "katz rules: ", "katz: ", "gatenkaas rules: ", "gatenkaas: "):
        message = message.removeprefix(prefix)
    field, sep, rest = message.partition(" expected")
    if sep and ":" not in field:
        return "%s: expected%s" % (field, rest)
    return message if ":" in message else "(the table): " + message


def check_file(path, given=None):
    """The problems of a rule table file (bad JSON included); [] when it is good. `given` is
    the game it is meant for (--game), when neither the table nor its name says."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        return ["(the file): cannot read it: %s" % e.strerror]
    return check_bytes(data, path, given)


def check_bytes(data, path=None, given=None):
    """The problems of a table's text, checked as the board checks what it takes in: its
    bounds first (nesting, size, string length: table_check.bounds), then JSON, then the
    table. path: the file it came from (its name may say the game); given: --game."""
    try:
        _checks().bounds(data)
    except ValueError as e:
        return [str(e)]
    try:
        table = json.loads(data, parse_constant=_no_constant)
    except ValueError as e:
        return ["(the file): not valid JSON: %s" % e]
    refused = naming.problems(None if path is None else str(path), table, games(), given)
    if refused:  # (the same words as the web board's upload, which runs naming.py too)
        return refused
    return check_table(table, game_of(path or "", table, given))


def _no_constant(name):
    raise ValueError("%s is not a JSON number" % name)


def _checks():
    return paths.import_firmware("cheesefw.table_check")
