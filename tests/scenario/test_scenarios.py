"""Scenario files: every shipped one passes on the virtual board (one test each, the boards run
in parallel), bad files are refused before a board starts, failures name their step."""

import os
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cheeseboard import cli
from cheeseboard.scenario import runner
from cheeseboard.sim import flash as simflash

pytestmark = pytest.mark.board

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def shipped_results(tmp_path_factory):
    """All shipped scenarios, played once, in parallel; {file name: Result}."""
    out = tmp_path_factory.mktemp("scenario-out")
    results = runner.run_all(SHIPPED, os.cpu_count(), runner.Options(out=out))
    return {r.path.name: r for r in results}


@pytest.mark.parametrize("name", [p.name for p in SHIPPED])
def test_a_shipped_scenario_passes(shipped_results, name):
    result = shipped_results[name]
    assert result.passed, result.line()
    assert result.steps >= 9


def test_each_game_has_its_menu_first_turn_refusal_power_cut_and_house_rule():
    names = {p.stem for p in SHIPPED}
    for game in ("gouda", "kitchen"):
        for what in ("menu", "first-turn", "refused", "power-cut", "house-rule"):
            assert "%s-%s" % (game, what) in names


def test_every_game_of_the_firmware_has_its_menu_a_first_turn_and_an_end_shipped():
    from cheeseboard import paths

    names = {p.stem for p in SHIPPED}
    snapshots = ROOT / "tests" / "scenarios" / "snapshots"
    for game in paths.import_firmware("cheesefw.games").GAMES:
        for what in ("menu", "first-turn", "end"):
            assert "%s-%s" % (game, what) in names
        for what in ("first-turn", "end"):  # their reference pictures, kept in git
            assert (snapshots / ("%s-%s.svg" % (game, what))).exists()


def write(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


KITCHEN = "name: t\ngame: kitchen\nsteps:\n  - press: ok\n"


@pytest.mark.parametrize("text, message", [
    (KITCHEN + "  - press: okk\n",
     "step 2 (press): button: 'okk' is not a button of the pico board: expected one of back, "
     "next, ok, prev, roll"),
    (KITCHEN + "  - expect-light: {space: z9, colour: cat}\n",
     "step 2 (expect-light): space: 'z9' is not a space of kitchen: expected one of a1, a2,"),
    (KITCHEN + "  - expect-dark: {light: seat 9}\n",
     "step 2 (expect-dark): light: 'seat 9' is not a light of the pico board: expected one of "
     "die, die 1,"),
    (KITCHEN + "  - expect-light: {space: a1, colour: redd}\n",
     "step 2 (expect-light): colour: 'redd' is not a colour of kitchen's palette: expected "
     "#rrggbb, [r, g, b] or one of player 1, player 2, arrow, cat,"),
    (KITCHEN + "  - expect-light: {colour: cat}\n",
     "step 2 (expect-light): expected one of space or light, got neither"),
    (KITCHEN + "  - expect-light: {space: a1, colour: [1, 2]}\n",
     "step 2 (expect-light): colour: [1, 2] is too short"),
    (KITCHEN + "  - jump: 3\n", "step 2: 'jump' is not a step: expected one of expect-blink,"),
    (KITCHEN + "  - powercut\n", "step 2: 'powercut' is not a step"),
    (KITCHEN + "  - wait: 3 min\n",
     "step 2 (wait): expected a time such as 200ms or 1.5s, got '3 min'"),
    (KITCHEN + "  - hold: {button: back}\n", "step 2 (hold): 'ms' is a required property"),
    (KITCHEN + "  - expect-state: {mood: 1}\n",
     "step 2 (expect-state): mood is not a field of the board's state"),
    (KITCHEN + "  - sync: nothere.json\n", "step 2 (sync): "),
    (KITCHEN + "  - snapshot: board.jpg\n",
     "step 2 (snapshot): expected a file name ending .svg or .png, got 'board.jpg'"),
    ("name: t\ngame: chess\nsteps: [reset]\n",
     "game: 'chess' is not a game of this firmware: expected one of gouda, kitchen"),
    ("name: t\ngame: gouda\nboard: {seed: -1}\nsteps: [reset]\n",
     "board.seed: -1 is less than the minimum of 0"),
    ("name: t\ngame: gouda\nboard: {profile: nope}\nsteps: [reset]\n",
     "board.profile: no hardware profile 'nope'"),
    ("name: t\ngame: gouda\nboard: {flash: nowhere}\nsteps: [reset]\n",
     "board.flash: "),
    ("name: t\ngame: gouda\n", "(the scenario): 'steps' is a required property"),
    ("- press: ok\n", "expected a scenario (a mapping with name, game, board and steps), got "
     "a list"),
    ("name: [\n", "not YAML at line 2, column 1"),
    ("", "got an empty file"),
    (KITCHEN + "  - wait: 999999999\n", "step 2 (wait): expected a time up to 600s, got 999999999"),
    (KITCHEN + "  - wait: 700s\n", "step 2 (wait): expected a time up to 600s, got '700s'"),
    (KITCHEN + "  - expect-dark: {light: status, within: 999999999}\n",
     "step 2 (expect-dark): within: expected a time up to 600s, got 999999999"),
    (KITCHEN + "  - expect-state: {wait: roll, within: 11min}\n",
     "step 2 (expect-state): within: expected a time such as 200ms or 1.5s, got '11min'"),
    ("name: t\ngame: gouda\nboard: {timeout: 9999s}\nsteps: [reset]\n",
     "board.timeout: expected a time up to 600s, got '9999s'"),
    (KITCHEN + "  - snapshot: /elsewhere/x.svg\n",
     "step 2 (snapshot): expected a path under the scenario's folder (no leading / and no ..), "
     "got '/elsewhere/x.svg'"),
    (KITCHEN + "  - snapshot: ../../x.svg\n", "step 2 (snapshot): expected a path under the"),
    (KITCHEN + "  - expect-console: '(unclosed'\n",
     "step 2 (expect-console): line: '(unclosed' is not a regular expression: missing )"),
])
def test_a_bad_file_is_refused_before_a_board_starts(tmp_path, monkeypatch, text, message):
    def no_board(*args):
        raise AssertionError("a board was started for a bad file")

    monkeypatch.setattr(runner, "ScenarioBoard", no_board)
    result = runner.run_file(write(tmp_path, text))
    assert not result.passed
    assert message in result.failure
    assert "\n" not in result.failure


def test_a_file_that_is_not_utf8_or_nested_too_deep_is_one_line_and_the_others_run(tmp_path):
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"name: fromage \xe0 la carte\ngame: gouda\nsteps: [reset]\n")
    deep = tmp_path / "deep.yaml"
    deep.write_text("name: t\ngame: gouda\nsteps: " + "[" * 5000 + "]" * 5000 + "\n")
    good = write(tmp_path, "name: ok\ngame: gouda\nsteps:\n  - expect-state: {mode: menu}\n",
                 "good.yaml")
    results = runner.run_all([latin, deep, good], jobs=1)
    assert results[0].failure == "not UTF-8 text: byte 0xe0 at offset 14"
    assert results[1].failure == "nested too deep to be a scenario"
    assert results[2].passed, results[2].line()


def test_a_snapshot_under_out_stays_under_out(tmp_path):
    path = write(tmp_path, "name: t\ngame: gouda\nsteps:\n  - snapshot: pics/menu.svg\n")
    out = tmp_path / "out"
    assert runner.run_file(path, runner.Options(out=out)).passed
    assert (out / "s" / "pics" / "menu.svg").exists()
    assert not (tmp_path / "pics").exists()


def test_a_table_the_board_would_refuse_is_refused_before_it_starts(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "ScenarioBoard", None)
    (tmp_path / "bad.json").write_text('{"game": "kitchen", "win": {"cheese": "six"}}')
    result = runner.run_file(write(tmp_path, KITCHEN + "  - sync: bad.json\n"))
    assert "step 2 (sync): %s: " % (tmp_path / "bad.json") in result.failure


def test_a_wrong_expectation_fails_naming_its_step_and_writes_the_snapshot(tmp_path, monkeypatch):
    path = write(tmp_path, """\
        name: the menu, expected wrong
        game: kitchen
        steps:
          - press: next
          - expect-state: {value: kitchen}
          - expect-light: {space: a1, colour: cat, within: 500ms}
          - press: ok
        """)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(runner.tempfile, "tempdir", str(scratch))
    result = runner.run_file(path)
    assert not result.passed and result.step == 3 and result.steps == 2
    assert result.failure.startswith(
        "step 3 (expect-light): expected a1 cat (0, 40, 255) \u00b116 within 0.5s; "
        "the board showed (0, 20, 42)")  # the kitchen's menu glow
    # The picture goes to a scratch folder, never beside the scenario (a checkout's files)
    picture = scratch / "cheeseboard-scenarios" / "s.step3.failed.svg"
    assert result.picture == picture and str(picture) in result.failure
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.yaml", "scratch"]
    svg = picture.read_text()
    assert svg.startswith("<svg") and 'id="px-0" class="px" cx=' in svg
    assert "rgb(0,20,42)" in svg  # the moment of the failure, drawn
    assert result.line().startswith("FAIL %s (the menu, expected wrong): step 3" % path)


def test_the_command_line_prints_a_line_each_exits_non_zero_and_writes_junit(tmp_path, capsys):
    good = write(tmp_path, """\
        name: the menu is there
        game: gouda
        steps:
          - expect-state: {mode: menu, value: gouda}
        """, "good.yaml")
    bad = write(tmp_path, KITCHEN + "  - press: okk\n", "bad.yaml")
    report = tmp_path / "ci" / "junit.xml"
    code = cli.main(["scenario", "run", str(good), str(bad), "--junit", str(report)])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[0].startswith("PASS %s (the menu is there): 1 steps in " % good)
    assert lines[1].startswith("FAIL %s: step 2 (press): button: 'okk'" % bad)
    assert lines[2] == "2 scenarios: 1 passed, 1 failed"
    suite = ET.parse(report).getroot().find("testsuite")
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["the menu is there", "bad.yaml"]
    assert cases[0].find("failure") is None
    assert "step 2 (press)" in cases[1].find("failure").get("message")
    assert cli.main(["scenario", "run", str(good)]) == 0


def test_a_board_that_never_answers_times_out_naming_the_step_and_the_others_run(tmp_path):
    flash = tmp_path / "hung"
    simflash.install_firmware(flash, simflash_profile())
    (flash / "main.py").write_text("import time\nwhile True:\n    time.sleep(1)\n")
    hung = write(tmp_path, """\
        name: a board that hangs
        game: gouda
        board: {flash: hung, timeout: 2s}
        steps:
          - wait: 100ms
          - press: ok
        """, "hung.yaml")
    good = write(tmp_path, "name: ok\ngame: gouda\nsteps:\n  - expect-state: {mode: menu}\n",
                 "good.yaml")
    results = runner.run_all([hung, good], jobs=2)
    assert results[0].failure.startswith(
        "step 2 (press): timed out: the board did not answer within 2s")
    assert results[1].passed


def simflash_profile():
    from cheeseboard import paths

    return paths.load_profile("pico")


def test_a_flash_folder_is_resumed_from_a_copy_left_as_it_was(tmp_path, make_vboard):
    from engine_driver import VirtualTable, choose_options

    flash = tmp_path / "kept"
    board = make_vboard(flash_dir=flash, seed=3)  # a game in progress, saved on its flash
    board.wait_protocol()
    choose_options(VirtualTable(board), "kitchen", {})
    board.power_cut()
    journal = (flash / "journal.txt").read_bytes()
    path = write(tmp_path, """\
        name: from a kept flash
        game: kitchen
        board: {flash: kept}
        steps:
          - expect-state: {mode: play, game: kitchen, wait: decide, moves: 38, offer: c3}
          - press: ok
          - expect-state: {wait: roll, moves: 39}
        """)
    result = runner.run_file(path)
    assert result.passed, result.line()
    assert (flash / "journal.txt").read_bytes() == journal  # the move went to the copy


def test_a_snapshot_is_written_then_compared_and_rewritten_on_request(tmp_path):
    path = write(tmp_path, """\
        name: the menu as a picture
        game: gouda
        steps:
          - expect-state: {mode: menu}
          - snapshot: pictures/menu.svg
          - snapshot: pictures/menu.png
        """)
    assert runner.run_file(path).passed
    svg = tmp_path / "pictures" / "menu.svg"
    assert "rgb(255,140,0)" in svg.read_text()  # the first game's seat light
    assert (tmp_path / "pictures" / "menu.png").read_bytes()[:4] == b"\x89PNG"
    assert runner.run_file(path).passed  # the same board: the same pictures
    svg.write_text(svg.read_text().replace("rgb(255,140,0)", "rgb(249,140,8)"))
    assert runner.run_file(path).passed  # within the tolerance: each colour within 8
    svg.write_text(svg.read_text().replace("rgb(249,140,8)", "rgb(1,2,3)"))
    result = runner.run_file(path)
    assert result.failure.startswith("step 2 (snapshot): expected the picture in %s (each "
                                     "colour \u00b18)" % svg)
    assert "--update-snapshots rewrites the file" in result.failure
    assert runner.run_file(path, runner.Options(update_snapshots=True)).passed
    assert "rgb(255,140,0)" in svg.read_text()


def test_expect_console_finds_a_line_of_the_serial_output_within_the_board_time(tmp_path):
    path = write(tmp_path, """\
        name: the console
        game: gouda
        steps:
          - expect-state: {mode: menu}
          - expect-console: '"step": "game"'
          - power-cut
          - power-on
          - expect-state: {mode: menu, within: 5s}
          - expect-console: {line: '"step": "game"', within: 1s}
          - expect-console: {line: 'Traceback', within: 1500ms}
        """)
    result = runner.run_file(path)
    assert result.step == 7 and result.steps == 6, result.line()
    assert result.failure.startswith("step 7 (expect-console): expected a console line "
                                     "matching 'Traceback' within 1.5s; the board showed "
                                     "nothing more on its console"), result


def test_a_press_on_a_board_without_power_fails_saying_so(tmp_path):
    path = write(tmp_path, """\
        name: pressed while off
        game: gouda
        steps:
          - power-cut
          - expect-dark: {space: table}
          - press: ok
        """)
    result = runner.run_file(path)
    assert result.step == 3 and result.steps == 2
    assert result.failure.startswith("step 3 (press): expected a board with power; it is off: "
                                     "its power was cut (power-on switches it on)")


def test_the_schema_is_valid_and_every_step_it_allows_is_played():
    import jsonschema

    from cheeseboard.scenario import format as fmt

    schema = fmt.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    steps = schema["properties"]["steps"]["items"]
    kinds = set(steps["else"]["propertyNames"]["enum"])
    assert set(steps["then"]["enum"]) <= kinds
    assert kinds == set(steps["else"]["properties"])
    for kind in kinds:
        assert callable(getattr(runner._Player, "do_" + kind.replace("-", "_"))), kind
    docs = (ROOT / "docs" / "scenarios.md").read_text()
    for kind in kinds:
        assert "`%s" % kind in docs, kind  # each step documented


@pytest.mark.parametrize("text, message", [
    (KITCHEN + "  - {press: ok, hold: {button: ok, ms: 900}}\n",
     "step 2: expected one step (a '-' before each), got press, hold"),
    (KITCHEN + "  - expect-light: {space: a1, colour: 0}\n",
     "step 2 (expect-light): colour: expected a palette name, #rrggbb or [r, g, b], got 0"),
])
def test_yaml_slips_get_a_word_of_their_own(tmp_path, text, message):
    assert message in runner.run_file(write(tmp_path, text)).failure


def test_a_steady_light_is_not_blinking(tmp_path):
    path = write(tmp_path, """\
        name: the menu does not blink
        game: gouda
        steps:
          - expect-light: {light: seat 1, colour: [255, 140, 0]}
          - expect-blink: {light: seat 1, within: 1s}
        """)
    result = runner.run_file(path)
    assert result.step == 2
    assert result.failure.startswith("step 2 (expect-blink): expected seat 1 blinking within 1s; "
                                     "the board showed (255, 140, 0);")


def first_step_failure(tmp_path, main_py):
    """The failure of a scenario's first step (expect the menu) on a board whose main.py is
    main_py, given 2 s to answer."""
    flash = tmp_path / "broken"
    simflash.install_firmware(flash, simflash_profile())
    (flash / "main.py").write_text(main_py)
    path = write(tmp_path, """\
        name: a firmware that stops
        game: gouda
        board: {flash: broken, timeout: 2s}
        steps:
          - expect-state: {mode: menu}
        """)
    return runner.run_file(path).failure


def test_a_firmware_that_stops_with_an_error_times_out_with_that_error(tmp_path):
    failure = first_step_failure(tmp_path, "raise ValueError('broken on purpose')\n")
    assert failure.startswith(
        "step 1 (expect-state): timed out: the board did not answer within 2s; its console "
        "said: ValueError: broken on purpose"), failure


def test_a_firmware_slow_to_say_its_error_is_waited_for_from_its_first_byte(tmp_path):
    # A busy machine can hold a VM's start past a short timeout: the wall's wait counts from
    # the VM's first byte, so the error it says at last is still the failure's. Here its main.py
    # holds it 3 s of the wall's time before it says anything (no sleep: the virtual clock's
    # sleeps are instants).
    failure = first_step_failure(
        tmp_path, "import time\nt = time.time()\nwhile time.time() - t < 3:\n    pass\n"
                  "raise ValueError('slow and broken')\n")
    assert failure.startswith(
        "step 1 (expect-state): timed out: the board did not answer within 2s; its console "
        "said: ValueError: slow and broken"), failure


def test_the_shipped_scenarios_use_every_step():
    import yaml

    from cheeseboard.scenario import format as fmt

    used = set()
    for path in SHIPPED:
        for step in yaml.safe_load(path.read_text())["steps"]:
            used.add(step if isinstance(step, str) else next(iter(step)))
    assert used == set(fmt.schema()["properties"]["steps"]["items"]["else"]["propertyNames"]
                       ["enum"])
