"""The commands that talk to a board's game, as a newcomer runs them against a virtual board.

Each runs the installed `cheeseboard` as a subprocess from a folder outside the repo and checks
its exit status, that no traceback reaches the person, and that it says what to do: a board that
mpremote left at the REPL is restarted (in one line), a board without the firmware is told to be
flashed, a port that does not open gets the same message from every command, Ctrl-C ends in one
line with status 130 and the board's program running.
"""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from installed import CHEESEBOARD, assert_clear_refusal, run, user_env
from vboard import DEFAULT_CLOCK

from cheeseboard.sim.view import board_state, say

pytestmark = pytest.mark.board

ROOT_RULES = __import__("pathlib").Path(__file__).resolve().parents[2] / "firmware" / "rules"

# Every command that talks to the game, with what it needs besides --port.
GAME_COMMANDS = (
    ("hello",),
    ("state",),
    ("log",),
    ("sync",),
    ("rules", "diff"),
    ("rules", "pull", "pulled"),
)


def _leave_at_the_repl(board):
    board.release_console()
    listing = board.mpremote("fs", "ls")
    assert listing.returncode == 0, listing.stderr
    assert "main.py" in listing.stdout


@pytest.mark.parametrize("command", GAME_COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_board_left_at_the_repl_is_restarted_in_one_line(make_vboard, tmp_path, command):
    board = make_vboard()
    board.wait_protocol()
    _leave_at_the_repl(board)
    head, tail = command[:2] if command[0] == "rules" else command[:1], command[2:]
    result = run(tmp_path, *head, "--port", board.pty, *[str(tmp_path / t) for t in tail])
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    said = [line for line in result.stderr.splitlines() if line]
    assert len(said) == 1 and "stopped at the REPL" in said[0] and "restarted" in said[0], said
    # the program runs again: the next command answers at once, with nothing to say about it
    again = run(tmp_path, "hello", "--port", board.pty)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert json.loads(again.stdout)["firmware"]


def test_a_board_at_the_repl_is_known_by_its_echo_without_waiting_out_the_timeout(vboard):
    from cheeseboard.board.protocol import Client, NoAnswer

    vboard.wait_protocol()
    _leave_at_the_repl(vboard)
    vboard.reopen_console()
    client = Client(vboard.port, timeout=60)
    client.echo_means_no_reply = True
    began = time.monotonic()
    with pytest.raises(NoAnswer):
        client.request("hello")
    assert time.monotonic() - began < 30  # the echo told: not the 60 s without an answer
    client.echo_means_no_reply = False  # the echo is no reply: without the flag, no answer
    client.timeout = 1.0
    with pytest.raises(NoAnswer):
        client.request("hello")


def test_state_in_words_says_what_the_view_says(make_vboard, tmp_path):
    """A board whose view has no words line (an emulated Pico's, a real one's) is asked them
    by `state --words`: the lines the terminal view and the web page show, not the JSON."""
    board = make_vboard()
    board.wait_protocol()
    raw = run(tmp_path, "state", "--port", board.pty)
    said = run(tmp_path, "state", "--words", "--port", board.pty)
    assert said.returncode == 0 and said.stderr == "", said.stderr
    assert said.stdout.splitlines() == say(json.loads(raw.stdout)), said.stdout
    assert said.stdout.startswith("menu: game = gouda   (the choices: gouda, "), said.stdout


def test_the_terminal_view_says_when_the_board_is_stopped_at_the_repl(tmp_path):
    import sys

    from cheeseboard import paths
    from cheeseboard.sim import flash
    from cheeseboard.sim.board import VirtualBoard

    profile = paths.load_profile("pico")
    board = VirtualBoard(flash.prepare(profile, tmp_path / "f"), profile["heap"],
                         clock=DEFAULT_CLOCK).start()
    try:
        if board.clock:  # the tests' clock: run it until the firmware draws
            board.run(10000, "frame")
        assert _eventually(lambda: board.frame_seq > 0)  # the firmware draws its menu
        assert board_state(board) == "on"
        mpremote = __import__("pathlib").Path(sys.executable).parent / "mpremote"
        listing = subprocess.run([str(mpremote), "connect", board.pty_path, "fs", "ls"],
                                 capture_output=True, text=True, timeout=60)
        assert listing.returncode == 0, listing.stderr
        assert _eventually(lambda: board.at_repl)
        assert "STOPPED at the REPL" in board_state(board) and board.pty_path in board_state(board)
        woken = run(tmp_path, "hello", "--port", board.pty_path)
        assert woken.returncode == 0, woken.stderr
        assert not board.at_repl and board_state(board) == "on"
    finally:
        board.stop()


def _eventually(check, seconds=15.0):
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_program_that_stops_at_its_start_is_named_by_its_error(make_vboard, tmp_path):
    # mpremote left the board at the REPL, and its main.py now fails at once: the restart
    # brings the prompt back, and the command says the program's own error (not what the
    # REPL made of the hellos asked meanwhile: each a line of Python, after the prompt).
    board = make_vboard()
    board.wait_protocol()
    _leave_at_the_repl(board)
    (board.flash_dir / "main.py").write_text("import cheesefw.no_such_module\n")
    result = run(tmp_path, "hello", "--port", board.pty)
    assert_clear_refusal(result, "the board's program stops with ImportError: no module named "
                                 "'cheesefw.no_such_module'", "cheeseboard flash")
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", GAME_COMMANDS[:4], ids=lambda c: c[0])
def test_a_board_without_the_firmware_is_told_to_be_flashed(make_vboard, tmp_path, command):
    board = make_vboard(blank=True)
    board.release_console()
    result = run(tmp_path, *command, "--port", board.pty)
    assert_clear_refusal(result, "no cheeseboard firmware", "cheeseboard flash")
    assert len(result.stderr.strip().splitlines()) == 1


ALL_PORT_COMMANDS = GAME_COMMANDS + (("flash",), ("info",))


def _with_port(command, port, tmp_path):
    head = list(command[:2] if command[0] == "rules" else command[:1])
    return head + ["--port", port] + [str(tmp_path / t) for t in command[2:]]


@pytest.mark.parametrize("port, words", [
    ("/dev/null", ("cannot open /dev/null: not a serial port", "--port")),
    ("/dev/no-such-board", ("no such port", "plugged in")),
])
def test_a_port_that_does_not_open_gets_one_message_in_every_command(tmp_path, port, words):
    said = set()
    for command in ALL_PORT_COMMANDS:
        result = run(tmp_path, *_with_port(command, port, tmp_path))
        assert_clear_refusal(result, *words)
        said.add(result.stderr)
    assert len(said) == 1, said


def test_every_board_command_finds_the_board_by_its_usb_ids(tmp_path):
    # No board is plugged into this machine: each says so the same way, and how to go on.
    said = set()
    for command in ALL_PORT_COMMANDS:
        args = list(command[:2] if command[0] == "rules" else command[:1])
        args += [str(tmp_path / t) for t in command[2:]]
        result = run(tmp_path, *args)
        assert_clear_refusal(result, "no board found", "--port")
        said.add(result.stderr)
    assert len(said) == 1, said


def _interrupt_after(tmp_path, board, seconds, *args):
    """Start `cheeseboard ARGS`, press Ctrl-C seconds after it has opened the board's port;
    (status, stderr)."""
    proc = subprocess.Popen(
        [CHEESEBOARD, *args], cwd=str(tmp_path), env=user_env(tmp_path), text=True,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # a command started in the background may inherit SIGINT ignored: a person's terminal
        # does not do that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # From the moment the command opens the port, not from its start: a busy machine takes
    # longer to start Python, and the Ctrl-C is meant for the command's work. (Not the board's
    # count of bytes: a copy of the last command's question may still reach it meanwhile.)
    deadline = time.monotonic() + 120
    while not _has_open(proc.pid, board.pty) and proc.poll() is None:
        assert time.monotonic() < deadline, "the command never opened the board's port"
        time.sleep(0.01)
    time.sleep(seconds)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, err


def _has_open(pid, path):
    """Whether process pid holds path open."""
    try:
        fds = list(Path("/proc/%d/fd" % pid).iterdir())
    except OSError:
        return False  # it ended
    for fd in fds:
        try:
            if os.readlink(fd) == path:
                return True
        except OSError:
            continue  # closed meanwhile
    return False


@pytest.mark.wall  # Ctrl-C at wall instants of a command's work
@pytest.mark.parametrize("command, delays", [
    (("info",), (0.0, 0.1, 0.3)),
    (("sync",), (0.0, 0.3, 0.6)),
    (("flash", "--force"), (0.0, 0.8, 2.0)),
])
def test_ctrl_c_is_one_line_status_130_and_the_board_plays_on(make_vboard, tmp_path, command,
                                                                delays):
    # Real time, a slow UART: the work takes wall time, so that Ctrl-C falls in its middle.
    board = make_vboard(baud=19200, clock="real")
    board.wait_protocol()
    board.release_console()
    table = json.loads((ROOT_RULES / "kitchen.json").read_text())
    interrupted = 0
    for i, seconds in enumerate(delays):
        table["win"]["cheese"] = 3 + i  # a table that differs each time
        house = tmp_path / "kitchen-house.json"
        house.write_text(json.dumps(table, indent=1))
        args = [command[0], "--port", board.pty, *command[1:]]
        if command[0] == "sync":
            args.append(str(house))
        status, err = _interrupt_after(tmp_path, board, seconds, *args)
        assert "Traceback" not in err, err
        if status == 130:
            lines = [line for line in err.splitlines() if line.strip()]
            assert len(lines) == 1 and lines[0].startswith("cheeseboard: interrupted"), err
            interrupted += lines[0].startswith("cheeseboard: interrupted; ")  # in its work
        else:
            assert status == 0, err  # it finished before the Ctrl-C
        # The board's program runs again by itself: hello answers, at once after info or sync; a
        # flash cut short may first finish a reboot (the new firmware's trial, or a rollback),
        # which a loaded machine makes slow, so ask again for up to a minute.
        deadline = time.monotonic() + 60
        while True:
            hello = run(tmp_path, "hello", "--port", board.pty, timeout=90)
            if hello.returncode == 0 or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert hello.returncode == 0, hello.stderr
        assert "Traceback" not in hello.stderr
    assert interrupted, "no Ctrl-C fell inside the command: make the delays shorter"


def test_a_misspelt_house_rule_is_refused_with_the_closest_key(tmp_path):
    table = json.loads((ROOT_RULES / "kitchen.json").read_text())
    table["win"]["chese"] = 8
    path = tmp_path / "kitchen.json"
    path.write_text(json.dumps(table))
    result = run(tmp_path, "rules", "check", str(path))
    assert_clear_refusal(result, "win.chese: unknown key", "did you mean 'cheese'?")


def test_a_table_whose_name_says_another_game_is_refused(tmp_path):
    path = tmp_path / "kitchen.json"
    path.write_bytes((ROOT_RULES / "gouda.json").read_bytes())
    result = run(tmp_path, "rules", "check", str(path))
    assert_clear_refusal(result, "the file's name says 'kitchen'", "'gouda'")


def test_a_house_table_of_any_name_syncs_as_its_game(make_vboard, tmp_path):
    board = make_vboard()
    board.wait_protocol()
    board.release_console()
    table = json.loads((ROOT_RULES / "kitchen.json").read_text())
    table["win"]["cheese"] = 8
    house = tmp_path / "kitchen-8cheese.json"
    house.write_text(json.dumps(table, indent=1))
    sent = run(tmp_path, "sync", "--port", board.pty, str(house))
    assert sent.returncode == 0, sent.stderr
    assert sent.stdout.startswith("kitchen: sent"), sent.stdout
    same = run(tmp_path, "rules", "diff", "--port", board.pty, str(house))
    assert same.returncode == 0 and same.stdout.startswith("kitchen: same"), same.stdout
    # a table with no `game` field and a name that says nothing: --game says it
    del table["game"]
    plain = tmp_path / "mine.json"
    plain.write_text(json.dumps(table))
    refused = run(tmp_path, "rules", "check", str(plain))
    assert_clear_refusal(refused, "game")
    given = run(tmp_path, "rules", "check", "--game", "kitchen", str(plain))
    assert "game" in given.stderr  # the schema wants the field itself: named, not a traceback
    assert "Traceback" not in given.stderr


def test_rules_pull_into_a_file_says_to_give_a_folder(make_vboard, tmp_path):
    board = make_vboard()
    board.wait_protocol()
    board.release_console()
    existing = tmp_path / "saved"
    existing.write_text("not a folder")
    result = run(tmp_path, "rules", "pull", "--port", board.pty, str(existing))
    assert_clear_refusal(result, "is a file", "give a folder")


def test_a_board_table_the_host_cannot_read_is_one_line_in_diff_and_not_pulled(make_vboard,
                                                                               tmp_path):
    """A table with a trailing comma on the board's flash (as a firmware whose JSON parser
    was lenient took it in): `rules diff` says so in one line, `rules pull` saves the other
    tables, not that one, says why and exits 1."""
    board = make_vboard()
    board.wait_protocol()
    board.release_console()
    (board.flash_dir / "rules").mkdir(exist_ok=True)
    good = (ROOT_RULES / "gouda.json").read_text()
    (board.flash_dir / "rules/gouda.json").write_text(good.rstrip()[:-1].rstrip() + ",\n}\n")
    diff = run(tmp_path, "rules", "diff", "--port", board.pty, str(ROOT_RULES / "gouda.json"))
    assert diff.returncode == 1 and "Traceback" not in diff.stderr, diff.stderr
    assert diff.stdout.splitlines()[0] == "gouda: differs"
    assert diff.stdout.splitlines()[1].startswith("  (the board's table): not valid JSON:")
    saved = tmp_path / "saved"
    pull = run(tmp_path, "rules", "pull", "--port", board.pty, str(saved))
    assert pull.returncode == 1 and "Traceback" not in pull.stderr, pull.stderr
    assert "gouda: not pulled, `cheeseboard rules check` refuses" in pull.stderr
    assert not (saved / "gouda.json").exists()
    assert (saved / "kitchen.json").read_text() == (ROOT_RULES / "kitchen.json").read_text()
