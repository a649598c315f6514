"""Opening a board for the game's protocol (hello, state, log, sync, rules diff/pull).

One place decides what a person is told when the board cannot be talked to, so every command
says the same thing in the same situation:

- no --port: the board is found by its USB ids, as `flash` and `info` find it;
- the port cannot be opened: missing, busy, or not a serial device;
- the board sits at the REPL (mpremote leaves it there after `fs ls`, and a program that ended
  leaves it there too): its program is restarted with a soft reset, as mpremote soft-resets for
  its own work, and the command says so in one line;
- MicroPython answers but no firmware runs: the board needs `cheeseboard flash`.
"""

import contextlib
import sys
import time

from cheeseboard import CheeseboardError
from cheeseboard.board import ports
from cheeseboard.board.protocol import Client, ProtocolError, asking_again, decode, encode

# --port, for every command that asks a running board: the port open_client opens.
PORT_HELP = ("serial port (e.g. /dev/ttyACM0; a virtual board's /dev/pts/N; default: the one "
             "board plugged in, found by its USB ids)")
PROBE_S = 1.5  # a running firmware answers `hello` within a few ticks; this is generous
HELLO_AGAIN_S = 0.25  # while a restarted board comes up: asked again after this, then 2x
BOOT_S = 10.0  # from a soft reset to the firmware's first answer (a Pico takes about 2 s)


class BoardUnreachable(CheeseboardError):
    """The board cannot be talked to; the message says why and what to do."""


@contextlib.contextmanager
def open_client(port_name, say=None):
    """The protocol to a running cheeseboard firmware, closed whatever happens.

    `say(line)` is told when the board had to be restarted (default: a line on stderr).
    """
    import serial

    say = say or _to_stderr
    ask = input if sys.stdin.isatty() else None
    port_name = ports.find_port(port_name, ask=ask)
    try:
        port = serial.Serial(port_name, 115200, timeout=0.1, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        raise BoardUnreachable(ports.port_problem(port_name, e)) from None
    try:
        client = Client(port)
        _make_it_answer(client, port_name, say)
        yield client
    finally:
        port.close()


def _make_it_answer(client, port_name, say):
    """Return once the firmware answers `hello`; restart it if the board is at the REPL."""
    if _answers(client, PROBE_S):
        return
    seen = _console(client.serial, b"\r\x02\r", 0.5)  # Ctrl-B: out of a raw REPL, if in one
    if not seen.rstrip(b" ").endswith(b">>>"):
        client.discard()
        if _answers(client, BOOT_S, again=True):  # no prompt: a board still starting, say
            return
        raise BoardUnreachable(
            "no answer from %s: it runs something other than the cheeseboard firmware, or is "
            "busy (`cheeseboard info --port %s` says what is on it)" % (port_name, port_name))
    # Ctrl-D at the friendly REPL: a soft reset, after which main.py runs. A program that ends
    # at once (none, or one that fails) shows the prompt again.
    client.discard()  # the REPL echoed our `hello`: no reply is in there
    boot, answered = _restart(client.serial, BOOT_S)
    if _back_at_the_prompt(boot):
        raise BoardUnreachable(_why_it_stopped(boot, port_name))
    if not answered:
        raise BoardUnreachable(
            "%s was stopped at the REPL and did not answer after a restart: `cheeseboard info "
            "--port %s` says what is on it" % (port_name, port_name))
    say("cheeseboard: %s was stopped at the REPL (as mpremote leaves a board): restarted its "
        "program" % port_name)


def _answers(client, seconds, again=False):
    """Whether the firmware answers `hello` within seconds; again: asking again while it
    does not (a board that is starting loses what it is sent before its program listens)."""
    before = client.timeout
    client.timeout = seconds
    try:
        if again:
            client.ask_until_answered("hello", seconds)
        else:  # once: a board at the REPL would take each copy as a line of Python...
            client.echo_means_no_reply = True  # ...and echoes it at once: no need to wait
            client.request("hello")
        return True
    except ProtocolError:
        return False
    finally:
        client.timeout = before
        client.echo_means_no_reply = False


def _console(serial, send, seconds):
    """What the board prints within seconds after send (bytes), up to the friendly REPL's
    prompt if it shows."""
    serial.write(send)
    out = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not out.endswith(b">>> "):
        out += serial.read(serial.in_waiting or 1)
    return out


def _restart(serial, seconds):
    """Ctrl-D at the friendly REPL, then the console watched until the program answers `hello`
    or the prompt is back (a program that ended), for seconds at most: (what the board printed,
    whether the program answered). `hello` is asked from the reboot's first line on, again
    after HELLO_AGAIN_S, then twice as long each time (a slow board answers each copy): a
    board still starting keeps it until its program reads it, and one whose program ended
    shows the prompt first, then takes it as a line of Python (after the prompt, where
    _why_it_stopped does not look)."""
    serial.write(b"\x04")
    out = b""
    ask_at, waits = None, asking_again(HELLO_AGAIN_S)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = serial.read(serial.in_waiting or 1)
        out += got
        at = out.rfind(b"soft reboot")
        if at < 0:
            continue
        if _back_at_the_prompt(out):
            return out, False
        if b"\n" in got and _has_a_hello_reply(out[at:]):  # (a reply is a whole line)
            return out, True
        if ask_at is None or time.monotonic() >= ask_at:
            serial.write(encode({"id": 0, "cmd": "hello"}))
            ask_at = time.monotonic() + next(waits)
    return out, False


def _has_a_hello_reply(text):
    for line in text.split(b"\n"):
        try:
            reply = decode(line)
        except (ProtocolError, ValueError):  # a line cut short by the reset, say
            continue
        if reply is not None and reply.get("ok") and "firmware" in reply:
            return True
    return False


def _back_at_the_prompt(text):
    """Whether the board printed its prompt again after a soft reboot."""
    at = text.rfind(b"soft reboot")
    return at >= 0 and b">>> " in text[at:]


def _why_it_stopped(boot, port_name):
    """The message for a board whose program did not come up after a soft reset."""
    text = boot.decode(errors="replace").replace("\r", "")
    at = text.rfind("soft reboot")
    text = text[at:text.find(">>> ", at)]  # what the program said, up to the prompt
    errors = [line.strip() for line in text.split("\n") if "Error" in line]
    if errors:
        return ("the board's program stops with %s: reinstall the firmware with "
                "`cheeseboard flash --port %s`" % (errors[-1], port_name))
    return ("no cheeseboard firmware on %s (MicroPython answers, but nothing starts): install "
            "it with `cheeseboard flash --port %s`" % (port_name, port_name))


def _to_stderr(line):
    print(line, file=sys.stderr, flush=True)
