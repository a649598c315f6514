"""The host tool as a newcomer meets it: the installed command, from a folder outside the repo.

Each test runs `cheeseboard` as a subprocess and checks its exit status, that no traceback
reaches the person, and that what it says tells them what to do.
"""

import io
import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from unittest import mock

import pytest
import serial
from engine_driver import VirtualTable, choose_options
from installed import CHEESEBOARD, assert_clear_refusal, run, start, user_env
from vboard import DEFAULT_CLOCK

from cheeseboard.board.protocol import Client
from cheeseboard.cli import build_parser
from cheeseboard.sim import command as simcommand
from cheeseboard.sim.control import SimLink


def test_profile_check_works_from_any_folder(tmp_path):
    r = run(tmp_path, "profile", "check")
    assert r.returncode == 0, r.stderr
    assert "pico: ok" in r.stdout and "Traceback" not in r.stderr


def test_rules_check_works_from_any_folder(tmp_path):
    table = Path(__file__).resolve().parents[2] / "firmware" / "rules" / "kitchen.json"
    r = run(tmp_path, "rules", "check", str(table))
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("args, words", [
    (["--heap", "1000"], ["--heap", "1000 bytes", "expected"]),
    (["--heap", "-5"], ["--heap", "expected"]),
    (["--heap", "lots"], ["--heap", "whole number"]),
    (["--baud", "0"], ["--baud", "expected a baud rate"]),
    (["--baud", "-9600"], ["--baud"]),
    (["--profile", "nope"], ["no hardware profile 'nope'", "pico"]),
])
def test_sim_refuses_what_cannot_work_in_one_line_before_starting(tmp_path, args, words):
    r = run(tmp_path, "sim", "--headless", "--flash", str(tmp_path / "f"), *args, timeout=30)
    assert_clear_refusal(r, *words)
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stdout == ""  # no console path: no board was started


@pytest.mark.parametrize("command", ["flash", "info"])
@pytest.mark.parametrize("value", ["0", "-3", "nan", "1e9", "ten"])
def test_flash_and_info_refuse_a_silence_they_cannot_use_before_touching_a_port(
        tmp_path, command, value):
    r = run(tmp_path, command, "--port", str(tmp_path / "no-port"), "--silence", value)
    assert_clear_refusal(r, "--silence", "expected seconds from 1 to 600")
    assert len(r.stderr.strip().splitlines()) == 1 and "no-port" not in r.stderr, r.stderr


# The boards these tests start run on the tests' clock (vboard's, virtual unless
# CHEESEBOARD_TEST_CLOCK=real): the console's bytes and the side channel move it, so what they
# check does not wait on the wall (the terminal view's test, below, does: its keys are a person's).
CLOCK = ("--clock", DEFAULT_CLOCK)


def _wait_answer(port, timeout=60.0):
    client = Client(port, timeout=2)
    return client, client.ask_until_answered("hello", timeout)


def _stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    out, err = proc.communicate()
    return out.decode(), err.decode()


@pytest.mark.board
def test_a_second_sim_on_the_same_flash_is_refused_and_leaves_the_first_alone(tmp_path):
    flash = tmp_path / "f"
    first = start(tmp_path, "sim", "--headless", "--flash", str(flash), *CLOCK)
    try:
        pty_path = first.stdout.readline().decode().strip()
        assert pty_path.startswith("/dev/")
        second = run(tmp_path, "sim", "--headless", "--flash", str(flash), timeout=30)
        assert_clear_refusal(second, "in use by another virtual board", "another --flash")
        # the first board's side channel and console are still there
        link = SimLink(str(flash) + ".sock")
        link.close()
        with serial.Serial(pty_path, 115200, timeout=0.1) as port:
            _, hello = _wait_answer(port)
        assert hello["ok"]
    finally:
        _stop(first)


class _Board:
    """What the engine driver's VirtualTable needs of a board: its side channel, its clock
    (the board's own: the side channel moves it) and its protocol."""

    def __init__(self, link, client):
        self.link = link
        self.sleep = link.sleep
        self.request = client.request


@pytest.mark.board
def test_the_default_board_is_kept_and_its_game_resumes(tmp_path):
    board_dir = tmp_path / "data" / "cheeseboard" / "boards" / "pico"
    proc = start(tmp_path, "sim", "--headless", *CLOCK)
    try:
        pty_path = proc.stdout.readline().decode().strip()
        link = SimLink(str(board_dir) + ".sock", virtual=DEFAULT_CLOCK == "virtual")
        with serial.Serial(pty_path, 115200, timeout=0.1) as port:
            client, _ = _wait_answer(port)
            table = VirtualTable(_Board(link, client))
            choose_options(table, "kitchen", {"short_game": True})
            while table.state()["moves"] < 3:
                table.press({"roll": "roll"}.get(table.state()["wait"], "ok"))
            playing = table.state()
            moves = playing["moves"]
        link.close()
    finally:
        _, err = _stop(proc)
    assert "flash: %s (a new board)" % board_dir in err
    assert playing["mode"] != "menu"

    proc = start(tmp_path, "sim", "--headless", *CLOCK)
    try:
        pty_path = proc.stdout.readline().decode().strip()
        with serial.Serial(pty_path, 115200, timeout=0.1) as port:
            client, _ = _wait_answer(port)
            resumed = client.request("state")["state"]
        log = run(tmp_path, "log", "--port", pty_path)
    finally:
        _, err = _stop(proc)
    assert "kept between runs" in err and "--fresh" in err
    assert resumed["mode"] == playing["mode"] and resumed.get("game") == playing.get("game")
    assert resumed.get("moves") == moves
    assert log.returncode == 0, log.stderr
    assert log.stdout.splitlines()[0].startswith('# {"game": ')  # (what replay reads)
    assert log.stdout.splitlines()[1].startswith("0: ")
    assert len(log.stdout.splitlines()) == moves + 1
    # Replayed: the board's journal in full, the saved log only before its first hidden move.
    saved = tmp_path / "game.log"
    saved.write_text(log.stdout)
    replayed, from_log = run(tmp_path, "replay"), run(tmp_path, "replay", str(saved))
    assert replayed.returncode == 0, replayed.stderr
    assert "step 0 of " in replayed.stdout and "?" in replayed.stdout
    assert from_log.returncode == 1 and from_log.stderr.count("\n") == 1
    assert "nothing to replay" in from_log.stderr, from_log.stderr

    proc = start(tmp_path, "sim", "--headless", "--fresh", *CLOCK)
    try:
        pty_path = proc.stdout.readline().decode().strip()
        with serial.Serial(pty_path, 115200, timeout=0.1) as port:
            client, _ = _wait_answer(port)
            assert client.request("state")["state"]["mode"] == "menu"
    finally:
        _stop(proc)


def test_test_says_when_nothing_matched(tmp_path):
    r = run(tmp_path, "test", "-k", "no_test_is_called_this", timeout=300)
    assert r.returncode == 5
    assert "no test matched" in r.stderr and "passes" not in r.stdout + r.stderr


@pytest.mark.wall  # the Ctrl-C falls at a wall instant: once the workers are coming up
def test_ctrl_c_in_test_is_one_line_status_130_and_leaves_no_worker_talking(tmp_path):
    proc = start(tmp_path, "test", "-k", "kitchen", text=True,
                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout.readline().startswith("testing firmware/")
        time.sleep(3)  # pytest is collecting or bringing up its workers
        os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole foreground group
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["cheeseboard test: interrupted; nothing is left running"]


# pytest as `cheeseboard test` meets it when a Ctrl-C falls in a callback of the import machinery:
# the interrupt is reported at length on stderr and otherwise lost; the next one stops it.
DEAF_TO_ONE_CTRL_C = """
import signal, sys
heard = []
def interrupt(number, frame):
    heard.append(number)
    if len(heard) > 1:
        sys.exit(130)
    print("Exception ignored in: <function _get_module_lock.<locals>.cb>", file=sys.stderr)
    print("KeyboardInterrupt", file=sys.stderr, flush=True)
signal.signal(signal.SIGINT, interrupt)
print("ready", flush=True)
while True:
    signal.pause()
"""


def test_an_interrupt_the_tests_lost_is_given_again_and_their_talk_after_it_is_not_shown():
    tests = subprocess.Popen([sys.executable, "-c", DEAF_TO_ONE_CTRL_C], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert tests.stdout.readline() == b"ready\n"
        shown = io.BytesIO()
        interrupted = threading.Event()
        interrupted.set()
        with mock.patch.object(sys, "stderr", io.TextIOWrapper(shown)):
            passing_on = threading.Thread(target=simcommand._pass_on_until,
                                          args=(tests.stderr, interrupted))
            passing_on.start()
            simcommand._interrupt(tests)
            passing_on.join(60)
        assert tests.returncode == 130  # ended by the second Ctrl-C, not killed
        assert shown.getvalue() == b""
    finally:
        tests.kill()
        tests.wait()


def test_test_collect_only_gives_no_verdict(tmp_path):
    r = run(tmp_path, "test", "--collect-only", "-q", timeout=300)
    assert r.returncode == 0
    assert "none was run" in r.stdout and "passes" not in r.stdout
    assert "test_vboard_buttons.py" in r.stdout  # the quick set holds the board's tests
    assert "test_flash" not in r.stdout  # flashing's tests come with --all
    assert "power_cut_during_a_sync_leaves_the_old_table_or_the_new[39]" not in r.stdout


def _all_actions(parser):
    """(command path, action) for every option and positional of every subcommand."""
    for action in parser._actions:
        if hasattr(action, "choices") and isinstance(action.choices, dict):  # subparsers
            for name, sub in action.choices.items():
                for path, a in _all_actions(sub):
                    yield (name,) + path, a
        else:
            yield (), action


def test_every_subcommand_and_option_has_a_help_line():
    parser = build_parser()
    missing = [" ".join(path) + " " + "/".join(a.option_strings or [a.dest])
               for path, a in _all_actions(parser)
               if not a.help and a.dest not in ("help", "version", "command")]
    assert missing == []
    # Each reads as the rest of a sentence, as argparse's own "show this help message" does.
    capitalised = [" ".join(path) + " " + "/".join(a.option_strings or [a.dest])
                   for path, a in _all_actions(parser) if a.help and not a.help[0].islower()]
    assert capitalised == []
    subparsers = [a for a in parser._actions if isinstance(a.choices, dict)][0]
    helps = {c.dest: c.help for c in subparsers._choices_actions}
    assert set(helps) == set(subparsers.choices) and all(helps.values())


def test_the_readme_names_every_subcommand():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    parser = build_parser()
    subparsers = [a for a in parser._actions if isinstance(a.choices, dict)][0]
    for name in subparsers.choices:
        assert "cheeseboard %s" % name in readme, name


def _read_until(fd, marker, timeout=60.0):
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                data += os.read(fd, 65536)
            except OSError:
                break
    return data


def _state_when(client, controller, predicate, timeout=60.0):
    """Poll the board's state (reading the view's output meanwhile) until predicate holds."""
    deadline = time.monotonic() + timeout
    while True:
        _read_until(controller, b"\x00", timeout=0.1)  # the view must never block on its output
        state = client.request("state")["state"]
        if predicate(state) or time.monotonic() > deadline:
            return state


@pytest.mark.board
@pytest.mark.wall  # a person's terminal
def test_a_burst_of_keys_in_the_terminal_view_is_that_many_presses(tmp_path):
    """Keys typed faster than a press lasts each count: Enter, then three '.' (next) in one
    burst move the first option (players, five values) exactly three steps.

    On the wall's clock, as a person uses it: the terminal view spaces the presses of typed keys
    by the wall's time, and nothing here would move a virtual board's clock."""
    flash = tmp_path / "f"
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([CHEESEBOARD, "sim", "--flash", str(flash)], cwd=str(tmp_path),
                            env=user_env(tmp_path), stdin=terminal, stdout=terminal,
                            stderr=subprocess.PIPE, start_new_session=True)
    os.close(terminal)
    try:
        first = _read_until(controller, b"\n").split(b"\n")[0].strip()
        pty_path = first.decode().split("\x1b")[0]
        assert pty_path.startswith("/dev/"), first
        with serial.Serial(pty_path, 115200, timeout=0.1) as port:
            client, _ = _wait_answer(port)
            os.write(controller, b"\r")  # take the game on offer: its first option comes
            option = _state_when(client, controller, lambda s: s.get("step") != "game")
            choices = option["choices"]
            assert len(choices) > 3, option  # three steps must land on a value of their own
            want = choices[(choices.index(option["value"]) + 3) % len(choices)]
            os.write(controller, b"...")  # one chunk, as a burst of keys arrives
            _state_when(client, controller, lambda s: s["value"] == want)
            time.sleep(0.5)
            assert _state_when(client, controller, lambda s: True)["value"] == want
        os.write(controller, b"q")
        proc.wait(15)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(controller)


# Subcommands the fuzz may run to the end: none starts a VM, runs the tests or writes the
# project's files (sim, test and `profile docs` do; sim's options are fuzzed by parsing only).
FUZZ_RUN = ("hello", "state", "log", "rules", "sync", "flash", "info", "profile")
FUZZ_VALUES = ("0", "-1", "1e30", "", " ", "x" * 300, "/dev/null", "/nonexistent/port",
               "/tmp", "kitchen", "gouda", "--", "-", "\u00e9\u00e8", "115200", "999999999999")


def _fuzz_argv(rng, parser):
    """A random command line: a subcommand (and action), some of its options, random values."""
    argv = []
    while True:
        subs = [a for a in parser._actions if isinstance(a.choices, dict)]
        if not subs:
            break
        name = rng.choice(sorted(subs[0].choices))
        argv.append(name)
        parser = subs[0].choices[name]
    for action in parser._actions:
        if action.dest == "help" or rng.random() < 0.5:
            continue
        if action.option_strings:
            argv.append(rng.choice(action.option_strings))
            if action.nargs != 0:
                argv.append(rng.choice(FUZZ_VALUES))
        else:
            argv.extend(rng.choice(FUZZ_VALUES) for _ in range(rng.randint(0, 2)))
    return argv


def test_random_command_lines_never_give_a_traceback(tmp_path, monkeypatch, capsys):
    import random

    from cheeseboard import cli

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    rng = random.Random(7)
    parser = build_parser()
    ran = 0
    for _ in range(300):
        argv = _fuzz_argv(rng, parser)
        if argv[0] not in FUZZ_RUN or argv[:2] == ["profile", "docs"]:
            try:  # parse only: a usage error is a SystemExit, anything else a bug
                parser.parse_args(argv)
            except SystemExit as e:
                assert e.code in (0, 2), argv
            assert "Traceback" not in capsys.readouterr().err
            continue
        try:
            code = cli.main(argv)
        except SystemExit as e:  # argparse's usage error or --help
            code = e.code
        ran += 1
        assert code in (0, 1, 2, 130), argv
        err = capsys.readouterr().err
        assert "Traceback" not in err, (argv, err)
    assert ran > 100


def test_output_into_a_pipe_its_reader_closed_ends_quietly(tmp_path):
    """`cheeseboard ... | head`: head has what it wanted; no traceback follows."""
    table = Path(__file__).resolve().parents[2] / "firmware" / "rules" / "kitchen.json"
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = subprocess.run([CHEESEBOARD, "rules", "check", str(table)], cwd=str(tmp_path),
                           env=user_env(tmp_path), stdout=write_end, stderr=subprocess.PIPE,
                           text=True, timeout=60)
    finally:
        os.close(write_end)
    assert r.stderr == "" and r.returncode == 0, r.stderr


def test_help_texts_read_as_written(tmp_path):
    lab = run(tmp_path, "lab", "--help").stdout
    assert "95 % intervals" in " ".join(lab.split()) and "%%" not in lab
    info = run(tmp_path, "info", "--help").stdout
    described = info.split("\n\n")[1]  # after the usage: what the command does
    assert "firmware" in described and not described.startswith("options:"), info


def test_ctrl_c_while_the_parser_is_built_is_one_line_status_130(monkeypatch, capsys):
    # On a busy machine a person's Ctrl-C can come while the command still builds its parser
    # (the rules room reads the firmware's games for it): the same one line as Ctrl-C before
    # Python had loaded the command.
    from cheeseboard import cli
    from cheeseboard.rules import command as rules_command

    def interrupted(sub):
        raise KeyboardInterrupt

    monkeypatch.setattr(rules_command, "add_parser", interrupted)
    assert cli.main(["hello", "--port", "/dev/null"]) == 130
    said = capsys.readouterr()
    assert said.out == "" and said.err == "cheeseboard: interrupted before it started; " \
                                          "nothing was done\n"


def test_a_port_the_help_calls_optional_is_optional_everywhere():
    import argparse

    from cheeseboard.board.connect import PORT_HELP

    def parsers(parser, name="cheeseboard"):
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    yield from parsers(sub, "%s %s" % (name, sub_name))

    said_optional = []
    for name, parser in parsers(build_parser()):
        for action in parser._actions:
            if "--port" in action.option_strings and action.help == PORT_HELP:
                said_optional.append(name)
                assert not action.required, "%s: --port says it has a default" % name
    assert "cheeseboard rules reset" in said_optional
