"""A board short of heap mid-game: a request it cannot afford is refused, never fatal, and a
table kept for a game in progress is copied in pieces (on the MicroPython VM)."""

import json

import pytest
from mpvm import run_mp

pytestmark = pytest.mark.board


def test_a_request_that_runs_out_of_heap_is_answered_and_the_next_one_served():
    out = run_mp("""
from cheesefw import protocol
sent = []
def greedy(request):
    return {"data": bytearray(1 << 20)}   # more than the whole heap
server = protocol.Server(sent.append, {"greedy": greedy, "hello": lambda r: {"hi": 1}})
def line(obj):
    text = json.dumps(obj).encode()
    return b"@" + protocol.checksum(text).encode() + b" " + text + b"\\n"
import json
server.feed(line({"id": 1, "cmd": "greedy"}) + line({"id": 2, "cmd": "hello"}))
for s in sent:
    print(s.strip().split(" ", 1)[1])
""", heap=64 * 1024)
    first, second = [json.loads(x) for x in out.splitlines()]
    assert first["id"] == 1 and first["ok"] is False
    assert first["error"].startswith("greedy: out of memory on the board, nothing changed")
    assert second == {"id": 2, "ok": True, "hi": 1}


def test_a_file_larger_than_any_free_block_is_copied_whole_and_atomically(tmp_path):
    # 96 KB of file under a 48 KB heap: reading it whole could never fit.
    data = bytes(range(256)) * 384
    (tmp_path / "big.json").write_bytes(data)
    (tmp_path / "kept.json").write_bytes(b"old")
    out = run_mp("""
from cheesefw.hal import base
class Flash(base.Board):  # only its files: no pins, no LEDs
    def __init__(self):
        pass
board = Flash()
board.copy_file("big.json", "kept.json")
import os
print(sorted(os.listdir(".")))
""", heap=48 * 1024, cwd=tmp_path, path=[__import__("mpvm").FIRMWARE])
    assert (tmp_path / "kept.json").read_bytes() == data
    assert "kept.json.tmp" not in out  # the temporary file was renamed over, not left
