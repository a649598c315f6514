"""House rules synced to the virtual board over the protocol, and seen in the next game."""

import hashlib
import json
import random
import threading
from pathlib import Path

import pytest
from engine_driver import VirtualTable, choose_options

from cheeseboard.board.protocol import ProtocolError
from cheeseboard.paths import load_profile
from cheeseboard.rules import sync
from cheesefw.games import GAMES

pytestmark = pytest.mark.board

ROOT = Path(__file__).resolve().parents[2]
KITCHEN = (ROOT / "firmware/rules/kitchen.json").read_bytes()


def house_rule(tmp_path, **win):
    table = json.loads(KITCHEN)
    table["win"].update(win)
    f = tmp_path / "kitchen.json"
    f.write_text(json.dumps(table, indent=1))
    return f


def test_a_synced_house_rule_is_played_in_the_next_game(vboard, tmp_path):
    vboard.wait_protocol()
    f = house_rule(tmp_path, cheese=8)
    assert sync.sync(vboard.client, [f]) == [("kitchen", "sent, applies now")]
    on_board = sync.board_tables(vboard.client)["kitchen"]
    assert on_board["sha256"] == hashlib.sha256(f.read_bytes()).hexdigest()
    assert (vboard.flash_dir / "rules/kitchen.json").read_bytes() == f.read_bytes()
    table = VirtualTable(vboard)
    choose_options(table, "kitchen", {})
    assert table.state()["status"]["goal"] == 8


def test_a_sync_with_nothing_changed_sends_no_table_data(vboard):
    vboard.wait_protocol()
    sent = []
    request = vboard.client.request

    def spy(cmd, **args):
        sent.append(cmd)
        return request(cmd, **args)

    vboard.client.request = spy
    files = sync.default_files()
    assert [what for _, what in sync.sync(vboard.client, files)] == ["same"] * len(GAMES)
    assert sent == ["tables"]  # one round trip, no put, no commit
    assert sync.diff(vboard.client, files) == {game: [] for game in GAMES}


def test_diff_names_each_field_that_differs(vboard, tmp_path):
    vboard.wait_protocol()
    f = house_rule(tmp_path, cheese=8, all_out=False)
    assert sync.diff(vboard.client, [f]) == {"kitchen": ["win.all_out: true -> false",
                                                         "win.cheese: 10 -> 8"]}
    assert sync.pull(vboard.client, "kitchen") == KITCHEN


def test_a_table_in_play_stays_until_the_next_game(vboard, tmp_path):
    vboard.wait_protocol()
    table = VirtualTable(vboard)
    choose_options(table, "kitchen", {})
    reply = sync.push(vboard.client, "kitchen", house_rule(tmp_path, cheese=7).read_bytes())
    assert reply["applies"] == "next game"
    status = load_profile(vboard.profile)["status"]
    vboard.link.wait_for(lambda s: s.pixel(status) == (0, 200, 255), timeout=3,
                         what="the status light saying a new table is in")
    assert table.state()["status"]["goal"] == 10  # this game keeps its table
    vboard.link.press("back", hold_ms=1000)  # a long press abandons the game
    table.wait(1200)
    assert table.state()["mode"] == "menu"
    choose_options(table, "kitchen", {})
    assert table.state()["status"]["goal"] == 7


def test_bad_tables_and_bad_chunks_are_refused_and_the_board_keeps_its_table(vboard):
    vboard.wait_protocol()
    before = sync.board_tables(vboard.client)["kitchen"]["sha256"]
    rng = random.Random(5)
    bad = json.loads(KITCHEN)
    bad["deck"]["dish"] = 9  # 39 tiles for 38 squares
    cases = [json.dumps(bad).encode(), b"{not json", bytes(rng.randbytes(200)), b"[]"]
    for data in cases:
        with pytest.raises(ProtocolError, match="keeps its table|sha256|refused"):
            sync.push(vboard.client, "kitchen", data)
    with pytest.raises(ProtocolError, match="at most 900 bytes"):
        vboard.request("put", name="kitchen", offset=0, text="x" * 901)
    with pytest.raises(ProtocolError, match="ASCII"):
        vboard.request("put", name="kitchen", offset=0, text="caf\u00e9")
    with pytest.raises(ProtocolError, match="offset"):
        vboard.request("put", name="kitchen", offset=999, data="eA==")
    with pytest.raises(ProtocolError, match="name"):
        vboard.request("put", name="../main", offset=0, data="eA==")
    with pytest.raises(ProtocolError, match="sha256"):
        vboard.request("put", name="kitchen", offset=0, data="eA==")
        vboard.request("commit", name="kitchen", sha256="0" * 64)
    assert sync.board_tables(vboard.client)["kitchen"]["sha256"] == before
    assert vboard.request("hello")["ok"]


@pytest.mark.parametrize("seed", list(range(3)) + [
    pytest.param(seed, marks=pytest.mark.slow) for seed in range(3, 40)])
def test_a_power_cut_during_a_sync_leaves_the_old_table_or_the_new(make_vboard, tmp_path, seed):
    flash = tmp_path / "flash"
    board = make_vboard(flash_dir=flash)
    board.wait_protocol()
    old = KITCHEN  # the firmware's default, in its slot
    table = json.loads(KITCHEN)
    table["win"]["cheese"] = 9
    table["palette"]["note"] = [1, 2, 3]
    new = json.dumps(table, indent=2).encode()
    cut_after = random.Random(seed).uniform(0.02, 0.25)
    pushing = threading.Thread(target=lambda: _push_quietly(board, new), daemon=True)
    pushing.start()
    threading.Event().wait(cut_after)
    board.power_cut()
    again = make_vboard(flash_dir=flash)
    again.wait_protocol()
    got = sync.board_tables(again.client)["kitchen"]["sha256"]
    assert got in (hashlib.sha256(old).hexdigest(), hashlib.sha256(new).hexdigest())
    assert sync.push(again.client, "kitchen", new)["committed"] == "kitchen"  # and it goes on


def _push_quietly(board, data):
    try:
        sync.push(board.client, "kitchen", data)
    except Exception:  # the power went: the push is cut off mid-way
        pass


def test_the_command_line_syncs_diffs_and_pulls(vboard, tmp_path):
    import subprocess
    import sys

    vboard.wait_protocol()
    vboard.release_console()

    def cheeseboard(*args):
        return subprocess.run([sys.executable, "-m", "cheeseboard", *args], capture_output=True,
                              text=True, timeout=60)

    r = cheeseboard("sync", "--port", vboard.pty)
    assert r.returncode == 0 and r.stdout.split("\n")[:-1] == [
        "%s: same" % game for game in sorted(GAMES)]
    f = house_rule(tmp_path, cheese=6)
    r = cheeseboard("rules", "diff", "--port", vboard.pty, str(f))
    assert r.returncode == 1 and "  win.cheese: 10 -> 6" in r.stdout
    r = cheeseboard("sync", "--port", vboard.pty, str(f))
    assert r.returncode == 0 and "kitchen: sent, applies now" in r.stdout
    r = cheeseboard("rules", "pull", "--port", vboard.pty, str(tmp_path / "pulled"))
    assert r.returncode == 0
    assert (tmp_path / "pulled/kitchen.json").read_bytes() == f.read_bytes()
    bad = tmp_path / "bad" / "kitchen.json"
    bad.parent.mkdir()
    bad.write_text(f.read_text().replace('"cheese": 6', '"cheese": "six"'))
    r = cheeseboard("sync", "--port", vboard.pty, str(bad))
    assert r.returncode == 1 and "win.cheese: 'six' is not of type 'integer'" in r.stderr


def test_rules_reset_drops_a_synced_table_and_the_firmware_default_applies(vboard, tmp_path):
    vboard.wait_protocol()
    default = hashlib.sha256(KITCHEN).hexdigest()
    assert sync.reset(vboard.client, "kitchen") == [
        ("kitchen", "no synced table, the firmware's default applies")]
    sync.sync(vboard.client, [house_rule(tmp_path, cheese=8)])
    tables = sync.board_tables(vboard.client)
    assert tables["kitchen"]["synced"] and not tables["gouda"]["synced"]
    assert sync.reset(vboard.client) == [  # every synced table: here only the kitchen's
        ("kitchen", "synced table dropped, the firmware's default applies now")]
    assert not (vboard.flash_dir / "rules/kitchen.json").exists()
    on_board = sync.board_tables(vboard.client)["kitchen"]
    assert on_board["sha256"] == default and not on_board["synced"]
    table = VirtualTable(vboard)
    choose_options(table, "kitchen", {})
    assert table.state()["status"]["goal"] == 10  # the default's goal, not the synced 8
    with pytest.raises(ProtocolError, match="name"):
        vboard.request("reset", name="../main")


def test_rules_reset_during_a_game_applies_from_the_next_one(vboard, tmp_path):
    vboard.wait_protocol()
    sync.sync(vboard.client, [house_rule(tmp_path, cheese=7)])
    table = VirtualTable(vboard)
    choose_options(table, "kitchen", {})
    assert sync.reset(vboard.client, "kitchen") == [
        ("kitchen", "synced table dropped, the firmware's default applies next game")]
    assert table.state()["status"]["goal"] == 7  # this game keeps the table it started with
    vboard.link.press("back", hold_ms=1000)
    table.wait(1200)
    choose_options(table, "kitchen", {})
    assert table.state()["status"]["goal"] == 10


def test_the_command_line_resets_a_table(vboard, tmp_path):
    import subprocess
    import sys

    vboard.wait_protocol()
    sync.sync(vboard.client, [house_rule(tmp_path, cheese=6)])
    vboard.release_console()
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "rules", "reset", "--port",
                        vboard.pty, "kitchen"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "kitchen: synced table dropped, the firmware's default applies now\n"
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "rules", "reset", "--port",
                        vboard.pty], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout == "no synced tables: the firmware's defaults apply\n"


def test_a_sync_travels_compressed_on_a_board_with_deflate(vboard, tmp_path):
    vboard.wait_protocol()
    sent = []
    pipeline = vboard.client.pipeline

    def spy(requests, window=4):
        sent.extend(requests)
        return pipeline(requests, window)

    vboard.client.pipeline = spy
    table = json.loads((ROOT / "firmware/rules/gouda.json").read_bytes())
    table["version"] += 1
    f = tmp_path / "gouda.json"
    f.write_text(json.dumps(table, indent=1))
    assert sync.sync(vboard.client, [f]) == [("gouda", "sent, applies now")]
    puts = [args for cmd, args in sent if cmd == "put"]
    assert puts and all("z" in p and "text" not in p for p in puts)
    assert sum(len(p["z"]) for p in puts) < 0.6 * f.stat().st_size  # smaller than the text
    assert (vboard.flash_dir / "rules/gouda.json").read_bytes() == f.read_bytes()  # exact bytes
    with pytest.raises(ProtocolError, match="z: expected base64 of raw deflate data"):
        vboard.request("put", name="gouda", offset=0, z="bm90IGRlZmxhdGU=")
    too_big = sync._pack(b" " * 3000)
    with pytest.raises(ProtocolError, match="at most 2048 bytes"):
        vboard.request("put", name="gouda", offset=0, z=too_big)
    assert sync.board_tables(vboard.client)["gouda"]["sha256"] == \
        hashlib.sha256(f.read_bytes()).hexdigest()
