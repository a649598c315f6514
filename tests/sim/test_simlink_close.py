"""The side channel's client (SimLink) closed while the board still talks: its reader thread
ends quietly, never with a traceback (pytest's unhandled-thread warning is an error here)."""

import json
import socket
import threading

import pytest

from cheeseboard.sim.control import SimLink


@pytest.fixture
def thread_failures():
    """What the threads raised while the test ran (checked at its end)."""
    failures = []
    old_hook = threading.excepthook
    threading.excepthook = lambda args: failures.append(args.exc_value)
    yield failures
    threading.excepthook = old_hook
    assert not failures, failures


@pytest.fixture
def side_channel(tmp_path):
    """(its path, the listening socket): a board's side channel, without the board."""
    path = tmp_path / "side.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    yield path, server
    server.close()


def test_closing_a_link_the_board_still_talks_on_ends_its_reader_quietly(side_channel,
                                                                         thread_failures):
    path, server = side_channel
    failures = thread_failures
    stop = threading.Event()

    def board():  # events as fast as the socket takes them, until the test is done
        try:
            conn, _ = server.accept()
        except OSError:  # the test ended first, its server closed
            return
        line = (json.dumps({"ev": "event", "n": 1}) + "\n").encode() * 64
        try:
            while not stop.is_set():
                conn.sendall(line)
        except OSError:
            pass
        conn.close()

    talker = threading.Thread(target=board, daemon=True)
    talker.start()
    try:
        for _ in range(20):  # the race is at the reader's next read: tried a few times
            link = SimLink(path)
            link.wait_for(lambda s: len(s.events) > 100, 30, "events")
            readers = [t for t in threading.enumerate() if t.name == "simlink"]
            link.close()
            for t in readers:
                t.join(30)
            assert not any(t.is_alive() for t in readers)
            if failures:
                break
            stop.set()
            talker.join(30)
            stop.clear()
            talker = threading.Thread(target=board, daemon=True)
            talker.start()
    finally:
        stop.set()
        server.shutdown(socket.SHUT_RDWR)  # (wakes the last board thread's accept)
        talker.join(30)


def test_a_board_gone_with_our_lines_unread_ends_the_reader_quietly(side_channel,
                                                                    thread_failures):
    # A simulator stopped (or crashed) before it read what the client sent resets the link:
    # the board's end, as the end of its stream is, not a traceback on the client's thread.
    path, server = side_channel
    link = SimLink(path)
    conn, _ = server.accept()
    readers = [t for t in threading.enumerate() if t.name == "simlink"]
    link.send(op="status")  # never read by the board
    conn.close()  # with a line unread: the client's read is reset
    for t in readers:
        t.join(30)
    assert not any(t.is_alive() for t in readers)
    link.close()
