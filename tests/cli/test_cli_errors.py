"""One family of errors: each room raises its own kind, the CLI prints any of them in one line."""

import ast
from pathlib import Path

import pytest

from cheeseboard import CheeseboardError, cli, paths
from cheeseboard.board import command as board_command
from cheeseboard.board.connect import BoardUnreachable
from cheeseboard.board.ports import PortError
from cheeseboard.board.protocol import NoAnswer, ProtocolError
from cheeseboard.flash.build import BuildError
from cheeseboard.flash.deploy import FlashError
from cheeseboard.flash.link import LinkError, Silent
from cheeseboard.lab.command import LabError
from cheeseboard.rules.check import RulesError
from cheeseboard.sim.command import SimError
from cheeseboard.sim.flash import FlashInUse
from cheeseboard.sim.snapshot import SnapshotError
from cheeseboard.uf2.source import UF2Error
from cheeseboard.uf2.uf2file import UF2FileError
from cheeseboard.web.server import WebError

CLI = Path(cli.__file__)


def test_every_room_s_error_is_of_the_one_family():
    rooms = (paths.ProfileError, ProtocolError, NoAnswer, PortError, BoardUnreachable,
             BuildError, FlashError, LinkError, Silent, RulesError, SimError, FlashInUse,
             SnapshotError, WebError, LabError, UF2Error, UF2FileError)
    assert [e.__name__ for e in rooms if not issubclass(e, CheeseboardError)] == []


def test_the_cli_imports_no_room_s_error():
    imported = [alias.name for node in ast.walk(ast.parse(CLI.read_text()))
                if isinstance(node, ast.ImportFrom) for alias in node.names]
    assert [n for n in imported if n.endswith("Error") and n != "CheeseboardError"] == []


def test_a_new_kind_of_error_is_one_line_and_status_1(monkeypatch, capsys):
    class NewRoomError(CheeseboardError):
        pass

    def hello(args):
        raise NewRoomError("the new room cannot: do this instead")

    monkeypatch.setattr(board_command, "do_hello", hello)
    assert cli.main(["hello"]) == 1
    assert capsys.readouterr().err == "cheeseboard: the new room cannot: do this instead\n"


def test_a_room_s_refusal_is_one_line(tmp_path, capsys):
    assert cli.main(["snapshot", str(tmp_path / "board.gif")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cheeseboard: ") and ".svg or .png" in err


def test_without_the_firmware_the_help_shows_and_a_command_needing_it_says_so(
        tmp_path, monkeypatch, capsys):
    """As `pip install .` leaves it: the package without a checkout's firmware/ beside it."""
    monkeypatch.setattr(paths, "FIRMWARE", tmp_path / "firmware")
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0 and "rules" in capsys.readouterr().out
    table = paths.ROOT / "firmware" / "rules" / "kitchen.json"
    assert cli.main(["rules", "check", str(table)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "firmware not found" in err and "checkout" in err
