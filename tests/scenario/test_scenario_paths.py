"""Every path a scenario names stays in the scenario's folder, bounded in size: a path that
leaves it (absolute, .., a link out) is one line naming the key and the path, before any board
starts; a shipped table is named by its game."""

import os
import textwrap

import pytest

from cheeseboard import cli
from cheeseboard.scenario import format as fmt
from cheeseboard.scenario import runner

pytestmark = pytest.mark.board

HEAD = "name: t\ngame: gouda\n"


@pytest.fixture
def no_board(monkeypatch):
    def refuse(*args):
        raise AssertionError("a board was started for a scenario that names a path outside")

    monkeypatch.setattr(runner, "ScenarioBoard", refuse)


def write(folder, text, name="s.yaml"):
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture
def scenario_dir(tmp_path):
    """A scenario's folder beside a folder it must not reach: a table and a flash outside."""
    (tmp_path / "outside").mkdir()
    table = (tmp_path / "outside" / "gouda.json")
    table.write_bytes(fmt.paths.FIRMWARE.joinpath("rules", "gouda.json").read_bytes())
    here = tmp_path / "scenario"
    here.mkdir()
    (here / "link-out.json").symlink_to(table)
    (here / "flash-out").symlink_to(tmp_path / "outside")
    (here / "pictures").symlink_to(tmp_path / "outside")
    return here


@pytest.mark.parametrize("board, step, message", [
    ("{flash: /usr/share/doc}", "reset",
     "board.flash: expected a path under the scenario's folder (no leading / and no ..), "
     "got '/usr/share/doc'"),
    ("{flash: ../outside}", "reset", "board.flash: expected a path under the scenario's folder "
     "(no leading / and no ..), got '../outside'"),
    ("{flash: flash-out}", "reset",
     "board.flash: expected a path under the scenario's folder, got 'flash-out': a link out to "),
    ("{sync: [/etc/passwd]}", "reset", "board.sync.0: expected a path under the scenario's "
     "folder (no leading / and no ..), got '/etc/passwd'"),
    ("{sync: [../outside/gouda.json]}", "reset", "board.sync.0: expected a path under the "
     "scenario's folder (no leading / and no ..), got '../outside/gouda.json'"),
    ("{sync: [link-out.json]}", "reset", "board.sync.0: expected a path under the scenario's "
     "folder, got 'link-out.json': a link out to "),
    ("{seed: 1}", "sync: ../outside/gouda.json", "step 1 (sync): expected a path under the "
     "scenario's folder (no leading / and no ..), got '../outside/gouda.json'"),
    ("{seed: 1}", "sync: link-out.json", "step 1 (sync): expected a path under the scenario's "
     "folder, got 'link-out.json': a link out to "),
    ("{seed: 1}", "snapshot: pictures/x.svg", "step 1 (snapshot): expected a path under the "
     "scenario's folder, got 'pictures/x.svg': a link out to "),
    ("{seed: 1}", "sync: {shipped: chess}",
     "step 1 (sync): shipped: 'chess' is not a game with a shipped table: expected one of gouda"),
    ("{seed: 1}", "sync: {shipped: gouda, extra: 1}", "step 1 (sync): "),
])
def test_a_path_out_of_the_folder_is_one_line_before_a_board_starts(scenario_dir, no_board,
                                                                     board, step, message):
    path = write(scenario_dir, HEAD + "board: %s\nsteps:\n  - %s\n" % (board, step))
    result = runner.run_file(path)
    assert not result.passed
    assert result.failure.startswith(message), result.failure
    assert "\n" not in result.failure


def test_the_command_line_names_the_key_and_the_path_and_exits_1(scenario_dir, no_board, capsys):
    path = write(scenario_dir, HEAD + "board: {flash: /usr/share/doc}\nsteps: [reset]\n")
    assert cli.main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == ["FAIL %s: board.flash: expected a path under the scenario's folder (no "
                   "leading / and no ..), got '/usr/share/doc'" % path]


def test_a_flash_folder_with_a_link_out_inside_is_refused_by_its_name(scenario_dir, no_board):
    flash = scenario_dir / "saved"
    (flash / "rules").mkdir(parents=True)
    (flash / "rules" / "passwd.json").symlink_to("/etc/passwd")
    (flash / "main.py").write_text("")
    result = runner.run_file(write(scenario_dir, HEAD + "board: {flash: saved}\nsteps: [reset]\n"))
    assert result.failure == ("board.flash: 'saved': rules/passwd.json is a link out of the "
                              "folder, to /etc/passwd")


def test_a_flash_folder_larger_than_the_boards_filesystem_is_refused(scenario_dir, no_board):
    flash = scenario_dir / "big"
    flash.mkdir()
    with open(flash / "blob.bin", "wb") as f:  # sparse: the size is what counts
        f.truncate(1408 * 1024 + 1)
    result = runner.run_file(write(scenario_dir, HEAD + "board: {flash: big}\nsteps: [reset]\n"))
    assert result.failure == ("board.flash: 'big': expected a board's flash, at most 1441792 "
                              "bytes (the board's filesystem), got more")


def test_a_flash_folder_with_a_fifo_or_too_many_files_is_refused(scenario_dir, no_board):
    fifo = scenario_dir / "piped"
    fifo.mkdir()
    os.mkfifo(fifo / "journal.txt")
    result = runner.run_file(write(scenario_dir, HEAD + "board: {flash: piped}\nsteps: [reset]\n"))
    assert result.failure == "board.flash: 'piped': journal.txt is neither a file nor a folder"
    many = scenario_dir / "many"
    many.mkdir()
    for i in range(4097):
        (many / str(i)).touch()
    result = runner.run_file(write(scenario_dir, HEAD + "board: {flash: many}\nsteps: [reset]\n"))
    assert result.failure == ("board.flash: 'many': expected a board's flash, at most 4096 "
                              "files and folders")


def test_a_table_larger_than_the_boards_bound_is_refused_before_it_is_read(scenario_dir,
                                                                           no_board):
    with open(scenario_dir / "huge.json", "wb") as f:
        f.truncate(1 << 30)
    result = runner.run_file(write(scenario_dir, HEAD + "board: {sync: [huge.json]}\n"
                                   "steps: [reset]\n"))
    assert result.failure == ("board.sync.0: 'huge.json': expected a rule table of at most "
                              "16384 bytes, got 1073741824")


def test_a_shipped_table_is_named_by_its_game_and_a_link_inside_is_fine(scenario_dir):
    (scenario_dir / "house").mkdir()
    (scenario_dir / "house" / "mine.json").write_bytes(
        fmt.paths.FIRMWARE.joinpath("rules", "gouda.json").read_bytes())
    (scenario_dir / "alias.json").symlink_to("house/mine.json")
    scenario = fmt.load(write(scenario_dir, HEAD + "board: {sync: [{shipped: gouda}, alias.json]}"
                              "\nsteps:\n  - sync: {shipped: kitchen}\n"))
    assert scenario.sync == [fmt.paths.FIRMWARE / "rules" / "gouda.json",
                             scenario_dir / "alias.json"]
    assert scenario.steps[0].args["file"] == fmt.paths.FIRMWARE / "rules" / "kitchen.json"


def test_no_shipped_scenario_names_a_path_out_of_its_folder():
    folder = fmt.paths.ROOT / "tests" / "scenarios"
    for path in sorted(folder.glob("*.yaml")):
        assert "../" not in path.read_text(), path.name
        fmt.load(path)  # every path in it confined
