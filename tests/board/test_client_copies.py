"""The client's question asked again while a board boots: the late replies to its copies."""

from itertools import islice

from cheeseboard.board.protocol import Client, asking_again, encode


class SlowBoard:
    """A serial port to a board that answers a question only once it has been asked twice,
    and then answers both copies (a board busy booting, on a busy machine); any other line
    gets the error of a line it cannot read."""

    def __init__(self):
        self.timeout = 0.1
        self.asked = []
        self._out = b""

    @property
    def in_waiting(self):
        return len(self._out)

    def write(self, line):
        if b'"cmd": "hello"' in line or b'"cmd":"hello"' in line:
            self.asked.append(line)
            if len(self.asked) == 2:
                for rid in (1, 2):
                    self._out += encode({"id": rid, "ok": True, "profile": "pico"})
        else:
            self._out += encode({"ok": False, "error": "bad frame"})

    def read(self, n=1):
        data, self._out = self._out[:n], self._out[n:]
        return data


def test_a_late_reply_to_an_answered_copy_is_not_taken_for_the_next_reply():
    board = SlowBoard()
    client = Client(board, timeout=1)
    assert client.ask_until_answered("hello", 5, again_after=0.01)["id"] == 1
    assert len(board.asked) == 2  # the copy's reply (id 2) still waits on the line
    board.write(b"hello there\n")
    assert client.read_reply(timeout=1) == {"ok": False, "error": "bad frame"}


def test_a_question_is_asked_again_twice_as_late_each_time_up_to_a_ceiling():
    assert list(islice(asking_again(0.25), 6)) == [0.25, 0.5, 1.0, 2.0, 2.0, 2.0]
    assert list(islice(asking_again(0.01, most=0.03), 4)) == [0.01, 0.02, 0.03, 0.03]
