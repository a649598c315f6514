"""`cheeseboard lab GAME`: play many games on CPython and say what the rule table does.

Everything the user gave is checked before the first game (a bad game, option, kind, table,
count or Dask address: one line, non-zero, nothing written); the folder --out is written only
once every game has been played.
"""

import hashlib
import json
import os
import sys
from pathlib import Path

from cheeseboard import CheeseboardError, paths
from cheeseboard.lab import report as reports
from cheeseboard.lab import runner, sweep


class LabError(CheeseboardError):
    """What the user asked cannot be done: main prints it on one line."""


def add_parser(sub):
    p = sub.add_parser(
        "lab", help="play many games on this computer and report who wins, how long games last",
        description="Play many games of GAME on CPython with the board's players (or random "
                    "ones) and report win rates per seat and per kind of player with 95 % "
                    "intervals, the first player's advantage, the length of games, powers; "
                    "compare two rule sets on the same seeds. Writes report.json, games.csv "
                    "and plots (PNG, SVG) to --out.")
    p.add_argument("game", metavar="GAME", help="the game (e.g. gouda, kitchen)")
    p.add_argument("--games", type=int, default=1000, metavar="N",
                   help="how many games (default 1000)")
    p.add_argument("--seed", type=int, default=1, metavar="S",
                   help="the sweep's seed: the same seed gives the same report (default 1)")
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="local processes (default: one per core)")
    p.add_argument("--out", metavar="DIR", help="where to write the report (default lab-GAME)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option, e.g. players=6 or powers=true (repeatable)")
    p.add_argument("--rules", metavar="FILE", help="a rule table to try (default: the shipped)")
    p.add_argument("--against", metavar="FILE",
                   help="a second rule table, played on the same seeds and compared")
    p.add_argument("--against-option", action="append", default=[], metavar="KEY=VALUE",
                   help="the second rule set's options instead of (or besides) --against: "
                        "these replace the first set's")
    p.add_argument("--players", default="random", metavar="KINDS",
                   help="who plays, seat by seat, comma-separated: random, beginner, strong "
                        "(repeated to fill the seats; default random)")
    p.add_argument("--no-rotate", action="store_true",
                   help="keep each kind at its seat (by default kinds move one seat a game, "
                        "so that seats and kinds come apart)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on a Dask cluster (e.g. tcp://host:8786) instead of local "
                        "processes (needs the lab-dask extra)")
    p.set_defaults(run=do_lab, interrupted="nothing was written to its folder (a report is "
                                           "written only once every game is played)")
    return p


def do_lab(args):
    games_pkg = runner.games_package()
    if args.game not in games_pkg.GAMES:
        raise LabError("unknown game %r: expected one of %s"
                       % (args.game, ", ".join(games_pkg.GAMES)))
    module = games_pkg.load(args.game)
    if args.games < 1:
        raise LabError("--games %d: expected at least 1 game" % args.games)
    jobs = args.jobs if args.jobs is not None else len(os.sched_getaffinity(0))
    if jobs < 1:
        raise LabError("--jobs %d: expected at least 1 process" % jobs)
    kinds = [k.strip() for k in args.players.split(",")]
    offered = runner.kinds_for(module)
    for k in kinds:
        if k not in offered:
            raise LabError("--players: %r is no kind of player of %s: expected %s"
                           % (k, args.game, ", ".join(offered)))
    rules, digest, label = _table(args.rules, args.game)
    options = parse_options(module, args.option)
    n = _check_game(module, rules, options, "--option")
    spec = {"game": args.game, "rules": rules, "options": options, "kinds": kinds,
            "rotate": not args.no_rotate and len(set(kinds)) > 1, "seed": args.seed}
    other = None
    if args.against or args.against_option:
        rules_b, digest_b, label_b = _table(args.against, args.game) if args.against else (
            rules, digest, label)
        options_b = dict(options)
        options_b.update(parse_options(module, args.against_option, False))
        if _check_game(module, rules_b, options_b, "--against-option") != n:
            raise LabError("--against: the second rule set has another number of seats; "
                           "compare sets with the same players")
        other = (dict(spec, rules=rules_b, options=options_b), digest_b,
                 _label(label_b, options_b, options))
    out = Path(args.out or "lab-%s" % args.game)
    if out.exists() and not out.is_dir():
        raise LabError("--out %s: expected a folder, got a file" % out)
    try:
        import matplotlib  # noqa: F401 -- the plots, drawn once every game is played
    except ImportError:
        raise LabError("the lab's plots need matplotlib: %s (make play and make test install "
                       "it)" % _install_command("lab")) from None

    total = args.games * (2 if other else 1)
    with _progress(total) as advance:
        try:
            records = sweep.run(spec, args.games, jobs, args.dask, advance)
            records_b = sweep.run(other[0], args.games, jobs, args.dask, advance) if other else None
        except sweep.SweepError as e:
            raise LabError(str(e)) from None
    meta = _meta(spec, n, digest, label)
    summary = reports.summarise(records, meta)
    summary_b = None
    if other:
        summary_b = reports.summarise(records_b, _meta(other[0], n, other[1], other[2]))
        summary["compare"] = reports.compare(summary, summary_b, records, records_b)
        summary["compare"]["label"] = other[2]
        summary["against"] = summary_b
    out.mkdir(parents=True, exist_ok=True)
    reports.write_json(out / "report.json", summary)
    reports.write_csv(out / "games.csv", records)
    if records_b is not None:
        reports.write_csv(out / "games-against.csv", records_b)
    from cheeseboard.lab import plots

    written = plots.write_all(summary, out, records, summary_b, records_b)
    for line in reports.lines(summary):
        print(line)
    print("wrote %s: report.json, games.csv, %d plots" % (out, len(written)))
    return 0


def parse_options(module, pairs, defaults=True):
    """KEY=VALUE texts as the game's option values (True for "true", 6 for "6"); with
    defaults=True every option, the defaults filled in (what the report names)."""
    options = {key: values[0] for key, values in module.OPTIONS} if defaults else {}
    for text in pairs:
        key, sep, value = text.partition("=")
        if not sep:
            raise LabError("--option %r: expected KEY=VALUE, e.g. players=4" % text)
        allowed = dict(module.OPTIONS).get(key.strip())
        if allowed is None:
            raise LabError("option %r: %s has %s" % (key, module.NAME,
                                                    ", ".join(k for k, _ in module.OPTIONS)))
        match = [v for v in allowed if str(v).lower() == value.strip().lower()]
        if not match:
            raise LabError("option %s: expected one of %s, got %r"
                           % (key, ", ".join(str(v).lower() for v in allowed), value))
        options[key.strip()] = match[0]
    return options


def _check_game(module, rules, options, what):
    """The number of seats of a game with these rules and options; LabError when refused."""
    try:
        return module.State(rules, options).num_players()
    except ValueError as e:
        raise LabError("%s: %s" % (what, e)) from None


def _table(path, game):
    """A rule table (checked as `cheeseboard rules check` does), its SHA-256, its name."""
    from cheeseboard.rules import check as tables

    if path is None:
        path = paths.firmware_dir() / "rules" / (game + ".json")
        shown = "the shipped rules/%s.json" % game
    else:
        shown = str(path)
        problems = tables.check_file(path)
        if problems:
            raise LabError("%s: %s" % (path, problems[0]))
    data = Path(path).read_bytes()
    table = json.loads(data)
    if table.get("game", game) != game:
        raise LabError("%s: a table of %r, not of %s" % (path, table.get("game"), game))
    return table, hashlib.sha256(data).hexdigest(), shown


def _label(table_label, options_b, options_a):
    changed = {k: v for k, v in options_b.items() if options_a.get(k) != v}
    if not changed:
        return table_label
    return table_label + " with " + " ".join("%s=%s" % kv for kv in sorted(changed.items()))


def _meta(spec, n, digest, label):
    return {"game": spec["game"], "seed": spec["seed"], "options": spec["options"],
            "kinds": spec["kinds"], "rotate": spec["rotate"], "players": n,
            "rules": label, "rules_sha256": digest}


class _progress:
    """A progress bar on a terminal (tqdm), nothing when the output goes to a file or a pipe."""

    def __init__(self, total):
        self.total = total
        self.bar = None

    def __enter__(self):
        if sys.stderr.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=self.total, unit="game", file=sys.stderr)
            return self.bar.update
        return None

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.close()
        return False


def _install_command(extra):
    """The command that installs an extra's packages into the Python running this, from any
    folder (the requirements as the package's own metadata lists them)."""
    import shlex
    from importlib import metadata

    marker = 'extra == "%s"' % extra
    wanted = [r.split(";")[0].strip() for r in metadata.requires("cheeseboard") or ()
              if marker in r]
    return " ".join(shlex.quote(w) for w in [sys.executable, "-m", "pip", "install", *wanted])
