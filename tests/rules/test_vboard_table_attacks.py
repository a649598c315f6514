"""Rule tables sent straight over the protocol, as any client could (skipping the host's
check): the board refuses what would crash it, takes in nothing it cannot parse safely,
leaves no partial upload behind, and never starts a game on a table it would trip over."""

import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from engine_driver import VirtualTable, choose_options

from cheeseboard.board.protocol import ProtocolError
from cheeseboard.rules import sync

pytestmark = pytest.mark.board

ROOT = Path(__file__).resolve().parents[2]


def table(game, change):
    t = json.loads((ROOT / "firmware/rules" / (game + ".json")).read_text())
    change(t)
    return json.dumps(t).encode()


# the three tables that crashed the firmware to the REPL as soon as their game started
CRASHED = {
    "gouda palette.empty = 0": ("gouda", lambda t: t["palette"].update(empty=0)),
    "gouda palette.green = [1e30, 5, 5]": ("gouda", lambda t: t["palette"].update(
        green=[1e30, 5, 5])),
    "kitchen palette.cat = [-1, -5, -9]": ("kitchen", lambda t: t["palette"].update(
        cat=[-1, -5, -9])),
    "gouda without its game": ("gouda", lambda t: t.pop("game")),
    "kitchen named gouda": ("kitchen", lambda t: t.update(game="gouda")),
    "gouda space with a seventh field": ("gouda", lambda t: t["spaces"][2].append(1)),
}


def test_tables_the_host_refuses_the_board_refuses_too_and_plays_on(vboard):
    vboard.wait_protocol()
    before = sync.board_tables(vboard.client)
    for what, (game, change) in sorted(CRASHED.items()):
        with pytest.raises(ProtocolError, match="refused, the board keeps its table"):
            sync.push(vboard.client, game, table(game, change))
        assert not (vboard.flash_dir / "rules" / (game + ".json.new")).exists(), what
    deep = b'{"game": "kitchen", "x": ' + b"[" * 2000 + b"]" * 2000 + b"}"
    with pytest.raises(ProtocolError, match="levels of nesting"):
        sync.push(vboard.client, "kitchen", deep)
    assert sync.board_tables(vboard.client) == before
    table_ = VirtualTable(vboard)
    choose_options(table_, "gouda", {"players": 2})
    assert table_.state()["mode"] == "play"


def test_a_table_with_a_trailing_comma_is_refused_and_the_synced_table_kept(vboard):
    """MicroPython's json.loads reads `[1, 2,]` as [1, 2]: the board checks the text is
    strict JSON first, as the host reads it, so that it never holds a table the host cannot
    read back."""
    vboard.wait_protocol()
    synced = table("kitchen", lambda t: t["win"].update(cheese=8))
    sync.push(vboard.client, "kitchen", synced)
    trailing = synced.replace(b"]}", b"],}", 1)
    assert trailing != synced
    with pytest.raises(ProtocolError, match="refused, the board keeps its table.*a comma "
                                            "before } at byte"):
        sync.push(vboard.client, "kitchen", trailing)
    assert sync.pull(vboard.client, "kitchen") == synced
    assert not (vboard.flash_dir / "rules/kitchen.json.new").exists()


def test_a_megabyte_upload_is_cut_off_at_a_tables_size_and_dropped(vboard):
    vboard.wait_protocol()
    chunk = base64.b64encode(b"y" * 600).decode()  # (a line is at most 1024 bytes)
    offset = 0
    with pytest.raises(ProtocolError, match="at most 16384 bytes"):
        while offset < 1 << 20:
            offset = vboard.request("put", name="kitchen", offset=offset, data=chunk)["received"]
    assert offset <= 16384
    assert not (vboard.flash_dir / "rules/kitchen.json.new").exists()
    assert vboard.request("hello")["ok"]


def test_put_takes_only_base64_and_commit_says_which_hash_was_expected(vboard):
    vboard.wait_protocol()
    with pytest.raises(ProtocolError, match="expected base64"):
        vboard.request("put", name="kitchen", offset=0, data="!!!")
    vboard.request("put", name="kitchen", offset=0, data="eA==")
    board_hash = hashlib.sha256(b"x").hexdigest()
    with pytest.raises(ProtocolError) as refused:
        vboard.request("commit", name="kitchen", sha256="0" * 64)
    assert "expected %s, got %s" % ("0" * 64, board_hash) in str(refused.value)


def test_a_partial_upload_is_gone_after_a_reset(vboard):
    vboard.wait_protocol()
    vboard.request("put", name="gouda", offset=0, text='{"game": "gouda", "spa')
    assert (vboard.flash_dir / "rules/gouda.json.new").exists()
    before = vboard.link.event_count()
    vboard.link.send(op="reset")  # as a power cut mid-upload would leave it
    vboard.link.wait_event("boot", since=before)
    vboard.wait_protocol()
    assert not (vboard.flash_dir / "rules/gouda.json.new").exists()


def test_a_bad_table_left_on_the_flash_is_passed_over_and_the_game_starts(vboard):
    """A table an older firmware took in (it checked less) survives reflashing: the game
    starts on the firmware's default instead of crashing on it."""
    vboard.wait_protocol()
    rules = vboard.flash_dir / "rules"
    rules.mkdir(exist_ok=True)
    (rules / "gouda.json").write_bytes(table("gouda", lambda t: t["palette"].update(empty=0)))
    t = VirtualTable(vboard)
    choose_options(t, "gouda", {"players": 2})
    assert t.state()["mode"] == "play" and t.state()["game"] == "gouda"
    assert vboard.request("hello")["ok"]


def test_rules_check_refuses_a_deep_table_without_a_traceback(tmp_path):
    deep = tmp_path / "kitchen.json"
    deep.write_bytes(b'{"game": "kitchen", "x": ' + b"[" * 2000 + b"]" * 2000 + b"}")
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "rules", "check", str(deep)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "levels of nesting" in r.stderr


def test_text_in_characters_never_seen_before_is_refused_and_costs_the_board_no_heap(vboard):
    """A `put` of "text" beyond ASCII is refused; its check reads the bytes, never the
    characters one by one, which MicroPython would intern for good: each new character would
    stay in the board's heap, and a client sending thousands would fill it."""
    vboard.wait_protocol()
    vboard.request("tables")  # the table commands' code: imported at their first use
    before = vboard.request("hello")["heap_free"]
    for n in range(400):  # 400 characters the board has never seen
        with pytest.raises(ProtocolError, match="expected ASCII"):
            vboard.request("put", name="kitchen", offset=0, text=chr(0x4E00 + n))
    after = vboard.request("hello")["heap_free"]
    assert before - after < 2048, (before, after)
