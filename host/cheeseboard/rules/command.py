"""The rule-table commands of `cheeseboard`: rules check|diff|pull|reset, and sync."""

import sys
from pathlib import Path

from cheeseboard.board.connect import PORT_HELP, open_client
from cheeseboard.rules import check as rules
from cheeseboard.rules import sync

GAME_HELP = ("the game the files are for, where neither the table's `game` field nor its file "
             "name (kitchen-8cheese.json) says")


def add_parser(sub):
    p = sub.add_parser("rules", help="check rule tables, or compare them with a board's",
                       description="Check rule tables (JSON Schema and the firmware's own "
                                   "checks), diff them against a board's, or pull a board's.")
    acts = p.add_subparsers(dest="action", required=True)
    check = acts.add_parser("check", help="check rule table files")
    check.add_argument("files", nargs="+", metavar="FILE", help="rule tables (JSON) to check")
    check.add_argument("--game", help=GAME_HELP)
    diff = acts.add_parser("diff", help="what differs between the files and the board")
    diff.add_argument("--port", help=PORT_HELP)
    diff.add_argument("--game", help=GAME_HELP)
    diff.add_argument("files", nargs="*", metavar="FILE",
                      help="default: firmware/rules/*.json")
    pull = acts.add_parser("pull", help="copy the board's tables into a folder")
    pull.add_argument("--port", help=PORT_HELP)
    pull.add_argument("dir", metavar="DIR", help="folder to write the tables into")
    reset = acts.add_parser("reset", help="drop a synced table: the firmware's default applies",
                            description="Drop the table synced to the board for GAME (every "
                                        "synced table without GAME), so that the default that "
                                        "came with the firmware applies again. A game in "
                                        "progress keeps its table; the default applies from "
                                        "the next game.")
    reset.add_argument("--port", help=PORT_HELP)
    games = _games()
    reset.add_argument("game", nargs="?", metavar="GAME", choices=games,
                       help="the game (%s); default: all" % ", ".join(games or ["any"]))
    p.set_defaults(run=do_rules, interrupted="nothing changed on the board (a pulled table is "
                                             "written only when whole)")
    p = sub.add_parser("sync", help="send the rule tables that differ to a board",
                       description="Send each rule table whose contents differ from the "
                                   "board's; nothing is sent when nothing differs.")
    p.add_argument("--port", help=PORT_HELP)
    p.add_argument("--game", help=GAME_HELP)
    p.add_argument("files", nargs="*", metavar="FILE", help="default: firmware/rules/*.json")
    p.set_defaults(run=do_sync, interrupted=(
        "a table is applied only once it is whole and checked: the board keeps each table as it "
        "was or as sent (`cheeseboard rules diff` shows which); its program runs on"))


def _games():
    """The firmware's games, or None where the tool is installed without a checkout: its help
    still shows, and a command that needs the firmware says so in one line when it runs."""
    try:
        return rules.games()
    except FileNotFoundError:
        return None


def do_rules(args):
    if args.action == "check":
        bad = 0
        for f in args.files:
            problems = rules.check_file(f, args.game)
            for problem in problems:
                print("%s: %s" % (f, problem), file=sys.stderr)
            if not problems:
                print("%s: ok" % f)
            bad += bool(problems)
        return 1 if bad else 0
    with open_client(args.port) as client:
        if args.action == "diff":
            differs = 0
            found = sync.diff(client, args.files or sync.default_files(), args.game)
            for name, lines in found.items():
                print("%s: %s" % (name, "same" if not lines else "differs"))
                for line in lines:
                    print("  " + line)
                differs += bool(lines)
            return 1 if differs else 0
        if args.action == "reset":
            done = sync.reset(client, args.game)
            for name, what in done:
                print("%s: %s" % (name, what))
            if not done:
                print("no synced tables: the firmware's defaults apply")
            return 0
        folder = Path(args.dir)
        if folder.exists() and not folder.is_dir():
            raise rules.RulesError("%s is a file: give a folder to pull the tables into" % folder)
        folder.mkdir(parents=True, exist_ok=True)
        refused = 0
        for name in sorted(sync.board_tables(client)):
            target = folder / (name + ".json")
            data = sync.pull(client, name)
            problems = rules.check_bytes(data, given=name)
            if problems:  # (a table an older firmware took in: it checked less)
                print("%s: not pulled, `cheeseboard rules check` refuses the board's table: %s"
                      % (name, problems[0]), file=sys.stderr)
                refused += 1
                continue
            target.write_bytes(data)
            print("pulled %s" % target)
        return 1 if refused else 0
    return 0


def do_sync(args):
    with open_client(args.port) as client:
        for name, what in sync.sync(client, args.files or sync.default_files(), args.game):
            print("%s: %s" % (name, what))
    return 0
