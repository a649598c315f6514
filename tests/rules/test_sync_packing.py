"""Rule-table sync on the host: compressed chunks where the board has deflate, text elsewhere."""

import base64
import hashlib
import json
import random
import zlib
from pathlib import Path

from cheeseboard.board import protocol
from cheeseboard.rules import sync

ROOT = Path(__file__).resolve().parents[2]


def unpack(z):
    return zlib.decompressobj(-sync.WBITS).decompress(base64.b64decode(z))


def test_compressed_chunks_rebuild_the_table_and_each_fits_in_a_line():
    rng = random.Random(3)
    tables = [(ROOT / "firmware/rules" / name).read_bytes() for name in ("gouda.json",
                                                                         "kitchen.json")]
    tables.append(bytes(rng.randrange(256) for _ in range(5000)))  # incompressible
    for data in tables:
        puts = sync._packed_puts("gouda", data)
        assert b"".join(unpack(args["z"]) for _, args in puts) == data
        offsets = [args["offset"] for _, args in puts]
        assert offsets == [sum(len(unpack(a["z"])) for _, a in puts[:i]) for i in range(len(puts))]
        for cmd, args in puts:
            line = protocol.encode(dict(args, id=2**30 - 1, cmd=cmd))
            assert len(line) <= 1024 and len(unpack(args["z"])) <= sync.Z_MOST


class FakeClient:
    """Answers `tables` as a board without deflate would, and records the rest."""

    def __init__(self, deflate):
        self.deflate = deflate
        self.sent = []

    def request(self, cmd, **args):
        assert cmd == "tables"
        return {"tables": [], "deflate": self.deflate}

    def pipeline(self, requests, window=4):
        self.sent += requests
        return [{"ok": True, "applies": "now"} for _ in requests]


def test_a_board_without_deflate_gets_the_table_as_text(tmp_path):
    f = tmp_path / "kitchen.json"
    f.write_bytes((ROOT / "firmware/rules/kitchen.json").read_bytes())
    for deflate, field in ((False, "text"), (True, "z")):
        client = FakeClient(deflate)
        assert sync.sync(client, [f]) == [("kitchen", "sent, applies now")]
        puts = [args for cmd, args in client.sent if cmd == "put"]
        assert puts and all(set(p) == {"name", "offset", field} for p in puts)
        commit = client.sent[-1]
        assert commit == ("commit", {"name": "kitchen",
                                     "sha256": hashlib.sha256(f.read_bytes()).hexdigest()})
    assert json.loads(f.read_bytes())["game"] == "kitchen"
