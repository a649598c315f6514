"""A scenario file: read, checked against its JSON Schema, then every name checked against the
board it names, all before a board starts.

    name: kitchen, a first turn
    game: kitchen
    board: {profile: pico, seed: 7, sync: [house/kitchen-8.json]}
    steps:
      - press-many: [next, ok, ok, ok, ok]
      - expect-light: {space: a1, colour: mouse}

The schema (cheeseboard/schemas/scenario.schema.json) says what each step looks like; this module
adds what a schema cannot know: the profile's buttons, the game's spaces and the fixed lights,
the rule table's palette (after any table the scenario syncs), the files it names. Every
problem is one line naming the step's number and the field, with the known names.
"""

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from cheeseboard import paths
from cheeseboard.rules.check import check_file
from cheeseboard.scenario import files

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "scenario.schema.json"
DEFAULT_SEED = 1
DEFAULT_TIMEOUT_MS = 10_000
DEFAULT_WITHIN_MS = 2000  # how long an expect- step waits for what it expects (board time)
MAX_MS = 600_000  # the longest wait, within or timeout: ten minutes of the board's time
PRESS_MS = 150  # a press: held long enough for the 20 ms debounce even when the VM runs late
STATE_FIELDS = ("mode", "step", "value", "choices", "game", "options", "wait", "turn", "moves",
                "refused", "winners", "status", "offer", "seat")
BASIC_COLOURS = {"white": (255, 255, 255), "black": (0, 0, 0)}


class ScenarioError(Exception):
    """The file is not a scenario this board can play: one line naming the step and field."""


@dataclass
class Step:
    number: int  # from 1, as a person counts the file's steps
    kind: str  # press, hold, ..., snapshot
    args: dict  # checked and resolved: buttons, pixels, (r, g, b), ms, paths

    def title(self):
        return "step %d (%s)" % (self.number, self.kind)


@dataclass
class Scenario:
    path: Path
    name: str
    game: str
    profile: dict
    seed: int
    timeout_ms: int
    flash: Path | None
    sync: list = field(default_factory=list)  # rule table files, synced before the first step
    steps: list = field(default_factory=list)
    table: dict | None = None  # the game's rule table in force at the end (for pictures)


def load(path):
    """The Scenario in a file, or ScenarioError naming the file, the step and the field."""
    path = Path(path)
    try:
        doc = _read_yaml(path)
        _check_schema(doc)
        return _resolve(path, doc)
    except ScenarioError as e:
        raise ScenarioError("%s: %s" % (path, e)) from None
    except RecursionError:  # (the checks walk the document: a deep one outruns the stack)
        raise ScenarioError("%s: nested too deep to be a scenario" % path) from None


def _read_yaml(path):
    import yaml

    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise ScenarioError("cannot read it: %s" % (e.strerror or e)) from None
    except UnicodeDecodeError as e:
        raise ScenarioError("not UTF-8 text: byte 0x%02x at offset %d" % (
            e.object[e.start], e.start)) from None
    try:
        return yaml.safe_load(text)
    except RecursionError:
        raise ScenarioError("nested too deep to be a scenario") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = " at line %d, column %d" % (mark.line + 1, mark.column + 1) if mark else ""
        raise ScenarioError("not YAML%s: %s" % (where, getattr(e, "problem", None) or e)) from None


def schema():
    return json.loads(SCHEMA.read_text())


def _check_schema(doc):
    import jsonschema

    if not isinstance(doc, dict):
        raise ScenarioError("expected a scenario (a mapping with name, game, board and steps), "
                            "got %s" % _kind(doc))
    validator = jsonschema.Draft202012Validator(schema())
    errors = sorted(validator.iter_errors(doc), key=lambda e: (list(map(str, e.absolute_path)),
                                                                 e.validator))
    if errors:
        raise ScenarioError(_describe(_deepest(errors)))


def _deepest(errors):
    """The error that says most: the deepest in the document (an if/then's own reason)."""
    return max(errors, key=lambda e: (len(e.absolute_path), e.validator not in ("if", "oneOf")))


def _describe(error):
    where = list(error.absolute_path)
    message = error.message
    if error.validator == "oneOf":
        message = "expected one of space or light, got %s" % (
            "both" if isinstance(error.instance, dict) and {"space", "light"} <= set(
                error.instance) else "neither")
    elif error.validator == "pattern" and "ms|s" in error.validator_value:
        message = "expected a time such as 200ms or 1.5s, got %r" % (error.instance,)
    elif error.validator == "pattern":
        message = "expected a file name ending .svg or .png, got %r" % (error.instance,)
    elif error.validator == "maximum" and error.validator_value == MAX_MS:
        message = "expected a time up to %ds, got %r" % (MAX_MS // 1000, error.instance)
    elif error.validator == "maxProperties" and where[:1] == ["steps"]:
        message = "expected one step (a '-' before each), got %s" % ", ".join(error.instance)
    elif where[-1:] == ["colour"] and error.validator == "type":
        message = "expected a palette name, #rrggbb or [r, g, b], got %r (quote a name " \
                  "that YAML reads as a number)" % (error.instance,)
    elif error.validator == "enum" and "propertyNames" in error.schema_path:
        message = "%r is not a step: expected one of %s" % (
            error.instance, ", ".join(error.validator_value))
    elif error.validator == "enum" and where[:1] == ["steps"] and len(where) == 2:
        message = "%r is not a step: expected one of %s or a mapping such as press: ok" % (
            error.instance, ", ".join(error.validator_value))
    if where[:1] == ["steps"] and len(where) >= 2:
        number = where[1] + 1
        rest = [str(p) for p in where[2:]]
        kind = rest.pop(0) if rest else None
        head = "step %d (%s)" % (number, kind) if kind else "step %d" % number
        return "%s: %s%s" % (head, ".".join(rest) + ": " if rest else "", message)
    return "%s: %s" % (".".join(str(p) for p in where) or "(the scenario)", message)


def _kind(value):
    return {list: "a list", str: "a string", type(None): "an empty file"}.get(
        type(value), type(value).__name__)


# -- names: what the board has ---------------------------------------------------------------


class _Names:
    """What the steps may name on this board: its buttons, the game's spaces, the fixed lights,
    the colours of the rule table in force."""

    def __init__(self, profile, game):
        self.profile = profile
        self.game = game
        games = paths.import_firmware("cheesefw.games").GAMES
        if game not in games:
            raise ScenarioError("game: %r is not a game of this firmware: expected one of %s"
                                % (game, ", ".join(games)))
        self.buttons = sorted(profile["buttons"])
        self.spaces = profile["maps"].get(game)
        if self.spaces is None:
            raise ScenarioError("game: the profile %s has no map for %s: expected one of %s"
                                % (profile["name"], game, ", ".join(sorted(profile["maps"]))))
        self.lights = {}
        for i, p in enumerate(profile["die"]):
            self.lights["die %d" % (i + 1)] = [p]
        self.lights["die"] = list(profile["die"])
        for i, p in enumerate(profile["seats"]):
            self.lights["seat %d" % (i + 1)] = [p]
        self.lights["status"] = [profile["status"]]
        meter = profile.get("meter", [])
        if meter:
            self.lights["meter"] = list(meter)
            for i, p in enumerate(meter):
                self.lights["meter %d" % (i + 1)] = [p]
        self.palette = _default_table(game).get("palette", {})
        self.signals = signal_colours()

    def button(self, name, where):
        if name not in self.buttons:
            raise ScenarioError("%s: %r is not a button of the %s board: expected one of %s"
                                % (where, name, self.profile["name"], ", ".join(self.buttons)))
        return name

    def pixels(self, args, where):
        """(label, pixel list) of a step's space or light."""
        if "space" in args:
            space = args["space"]
            if space not in self.spaces:
                raise ScenarioError("%s: space: %r is not a space of %s: expected one of %s"
                                    % (where, space, self.game, ", ".join(sorted(self.spaces))))
            return space, list(self.spaces[space])
        light = args["light"]
        if light not in self.lights:
            raise ScenarioError("%s: light: %r is not a light of the %s board: expected one of %s"
                                % (where, light, self.profile["name"],
                                   ", ".join(_light_order(self.lights))))
        return light, self.lights[light]

    def colour(self, value, where):
        """(label, (r, g, b)) of a palette name, #rrggbb or [r, g, b]."""
        if isinstance(value, list):
            return "rgb%s" % (tuple(value),), tuple(value)
        text = str(value)
        if re.fullmatch(r"#[0-9a-fA-F]{6}", text):
            return text, tuple(bytes.fromhex(text[1:]))
        if text in self.palette:
            return text, tuple(self.palette[text])
        player = re.fullmatch(r"player ([1-9])", text)  # a player's colour: key "0" is player 1
        if player and str(int(player.group(1)) - 1) in self.palette:
            return text, tuple(self.palette[str(int(player.group(1)) - 1)])
        if text in BASIC_COLOURS:
            return text, BASIC_COLOURS[text]
        if text in self.signals:
            return text, self.signals[text]
        players = ["player %d" % (int(k) + 1) for k in sorted(self.palette) if k.isdigit()]
        known = players + sorted(k for k in self.palette if not k.isdigit()) + sorted(
            BASIC_COLOURS) + sorted(self.signals)
        raise ScenarioError("%s: colour: %r is not a colour of %s's palette: expected #rrggbb, "
                            "[r, g, b] or one of %s" % (where, text, self.game, ", ".join(known)))


def signal_colours():
    """The engine's own status colours (refused, window, new-rules), from the firmware."""
    signals = paths.import_firmware("cheesefw.engine.draw")._SIGNALS
    return {k: tuple(v) for k, v in signals.items() if k != "rolling"}


def _light_order(lights):
    return sorted(lights, key=lambda k: (k.split(" ")[0], len(k), k))


def _default_table(game):
    return json.loads((paths.FIRMWARE / "rules" / (game + ".json")).read_text())


# -- resolving the steps ---------------------------------------------------------------------


def _resolve(path, doc):
    board = doc.get("board", {})
    try:
        profile = paths.load_profile(board.get("profile", "pico"))
    except paths.ProfileError as e:
        raise ScenarioError("board.profile: %s" % e) from None
    names = _Names(profile, doc["game"])
    here = path.parent
    table = None
    synced = []
    for i, f in enumerate(board.get("sync", [])):
        f_path, table = _table_file(here, f, doc["game"], "board.sync.%d" % i, table)
        synced.append(f_path)
        names.palette = (table or {}).get("palette", names.palette)
    flash = None
    if "flash" in board:
        flash = _confined("board.flash", files.flash_folder, here, board["flash"],
                          _filesystem_bytes(profile))
    scenario = Scenario(path=path, name=doc["name"], game=doc["game"], profile=profile,
                        seed=board.get("seed", DEFAULT_SEED), flash=flash, sync=synced,
                        timeout_ms=_ms(board.get("timeout"), DEFAULT_TIMEOUT_MS, "board.timeout"))
    for n, raw in enumerate(doc["steps"], 1):
        kind, value = (raw, None) if isinstance(raw, str) else next(iter(raw.items()))
        step = Step(n, kind, {})
        where = step.title()
        if kind == "sync":
            f_path, new = _table_file(here, value, doc["game"], where, table)
            if new is not None and new.get("game", doc["game"]) == doc["game"]:
                table = new
                names.palette = new.get("palette", names.palette)
            step.args = {"file": f_path}
        else:
            step.args = _step_args(kind, value, names, where, here)
        scenario.steps.append(step)
    scenario.table = table
    return scenario


def _step_args(kind, value, names, where, here):
    if kind == "press":
        if isinstance(value, str):
            value = {"button": value}
        return {"buttons": [names.button(value["button"], where + ": button")],
                "ms": value.get("ms", PRESS_MS)}
    if kind == "hold":
        return {"buttons": [names.button(value["button"], where + ": button")], "ms": value["ms"]}
    if kind == "press-many":
        return {"buttons": [names.button(b, "%s: %d" % (where, i + 1))
                            for i, b in enumerate(value)], "ms": PRESS_MS}
    if kind == "wait":
        return {"ms": _ms(value, 0, where)}
    if kind in ("expect-light", "expect-dark", "expect-blink"):
        label, pixels = names.pixels(value, where)
        args = {"label": label, "pixels": pixels, "within_ms": _within(value, where),
                "tolerance": value.get("tolerance", 0 if kind == "expect-dark" else 16),
                "which": value.get("which", "all")}
        if "colour" in value:
            args["colour_name"], args["colour"] = names.colour(value["colour"], where)
        return args
    if kind == "expect-state":
        subset = {k: v for k, v in value.items() if k != "within"}
        unknown = sorted(set(subset) - set(STATE_FIELDS))
        if unknown:
            raise ScenarioError("%s: %s is not a field of the board's state: expected some of %s"
                                % (where, unknown[0], ", ".join(STATE_FIELDS + ("within",))))
        return {"subset": subset, "within_ms": _within(value, where)}
    if kind == "expect-refused":
        return {"within_ms": _within(value or {}, where)}
    if kind == "expect-console":
        if isinstance(value, str):
            value = {"line": value}
        try:
            pattern = re.compile(value["line"])
        except re.error as e:
            raise ScenarioError("%s: line: %r is not a regular expression: %s"
                                % (where, value["line"], e)) from None
        return {"pattern": pattern, "within_ms": _within(value, where)}
    if kind == "snapshot":
        return {"file": _confined(where, files.inside, here, value), "name": value}
    return {}  # power-cut, power-on, reset


def _confined(where, find, here, value, *bound):
    """find(here, value, *bound): a path under the scenario's folder, or one line naming the
    key (where) and the path."""
    try:
        return find(here, value, *bound)
    except files.Refused as e:
        raise ScenarioError("%s: %s" % (where, e)) from None


def _filesystem_bytes(profile):
    from cheeseboard.sim import flash as simflash

    return simflash.FILESYSTEM.get(profile["platform"]) or files.MAX_FLASH_BYTES


def _table_file(here, value, game, where, table):
    """A rule table file to sync, a path under here or {shipped: game}: (path, its table when
    it is this scenario's game's)."""
    max_bytes = paths.import_firmware("cheesefw.table_check").MAX_BYTES
    path = _confined(where, files.table_file, here, value, max_bytes)
    problems = check_file(path)
    if problems:
        raise ScenarioError("%s: %s: %s" % (where, path, problems[0]))
    data = json.loads(path.read_bytes())
    return path, data if data.get("game", path.stem) == game else table


def _within(value, where):
    return _ms(value.get("within"), DEFAULT_WITHIN_MS, where + ": within")


def _ms(value, default, where):
    """Milliseconds from 200ms, 1.5s or a plain number of ms, at most MAX_MS."""
    if value is None:
        return default
    time = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*(ms|s)", value) if isinstance(value, str) \
        else None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        ms = value
    elif time:
        ms = int(round(float(time.group(1)) * (1000 if time.group(2) == "s" else 1)))
    else:  # (where the schema has not already said so: expect-state's within)
        raise ScenarioError("%s: expected a time such as 200ms or 1.5s, got %r" % (where, value))
    if ms > MAX_MS:
        raise ScenarioError("%s: expected a time up to %ds, got %r" % (where, MAX_MS // 1000,
                                                                       value))
    return ms
