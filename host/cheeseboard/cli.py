"""The `cheeseboard` command: each room of the host adds its subcommands to one parser, and each
subcommand names its handler (`run`) and what Ctrl-C leaves behind (`interrupted`)."""

import argparse
import os
import sys

from cheeseboard import NOT_STARTED, CheeseboardError, __version__
from cheeseboard.board import command as board_command
from cheeseboard.flash import command as flash_command
from cheeseboard.kit import command as kit_command
from cheeseboard.lab import command as lab_command
from cheeseboard.profiles import command as profiles_command
from cheeseboard.replay import command as replay_command
from cheeseboard.rules import command as rules_command
from cheeseboard.scenario import command as scenario_command
from cheeseboard.sim import command as sim_command
from cheeseboard.uf2 import command as uf2_command
from cheeseboard.web import command as web_command

# The rooms, in the order their subcommands are listed in --help.
ROOMS = (sim_command, board_command, profiles_command, rules_command, web_command,
         flash_command, scenario_command, lab_command, uf2_command, replay_command, kit_command)

# What Ctrl-C leaves behind where a subcommand says nothing of its own: it only asked.
NOTHING_CHANGED = "the board was only asked, nothing changed on it"


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line that says where the help is."""

    def error(self, message):
        self.exit(2, "%s: %s (see %s --help)\n" % (self.prog, message, self.prog))


def build_parser():
    parser = Parser(
        prog="cheeseboard",
        description="The cheeseboard's host tool: run the firmware on a virtual board, talk to "
                    "a board over USB serial, check and sync its rule tables, check profiles.")
    parser.add_argument("--version", action="version", version=__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    for room in ROOMS:
        room.add_parser(sub)
    return parser


def main(argv=None):
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader of the output went away (`cheeseboard state | head`): it has all it
        # wanted. Python would report the pipe once more as it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = _arguments(argv)
    except KeyboardInterrupt:  # while the parser is built: the rooms read the firmware's games
        print(NOT_STARTED, file=sys.stderr)
        return 130
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("cheeseboard: interrupted; %s" % getattr(args, "interrupted", NOTHING_CHANGED),
              file=sys.stderr)
        return 130
    except (CheeseboardError, FileNotFoundError, NotADirectoryError, FileExistsError) as e:
        print("cheeseboard: %s" % e, file=sys.stderr)
        return 1


def _arguments(argv):
    if argv[:1] == ["test"] and not {"-h", "--help"} & set(argv):
        # Everything after `test` is pytest's (e.g. -k gouda).
        return argparse.Namespace(command="test", pytest_args=argv[1:], run=sim_command.do_test)
    return build_parser().parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
