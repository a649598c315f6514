"""A board carries only what it plays: during a game the menu's code and the other games' maps
are out of the heap (the one in play stays packed, walked as it is by the painter), and the
menu comes back whole, every map read again, when the game ends."""

import shutil
import sys

import pytest
from engine_driver import PROFILE, CpuTable, choose_options
from mpvm import FIRMWARE, ROOT, run_mp

from cheeseboard import paths
from cheesefw.engine.draw import PackedMap
from cheesefw.games import GAMES

SIMVM = ROOT / "host" / "cheeseboard" / "sim" / "vm"  # simboard: the virtual board's side channel


def maps_as_lists(maps):
    unpacked = {g: m.unpack() if isinstance(m, PackedMap) else m for g, m in maps.items()}
    return {g: {s: list(p) for s, p in spaces.items()} for g, spaces in unpacked.items()}


def test_during_a_game_the_menu_and_the_other_maps_are_let_go_and_come_back_after():
    table = CpuTable()
    choose_options(table, "gouda", {"players": 2})
    assert table.state()["mode"] == "play"
    assert "cheesefw.engine.menu" not in sys.modules
    maps = table.board.profile["maps"]
    assert list(maps) == ["gouda"]  # the other games' maps are the menu's: let go
    painter = table.engine.scene.painter
    assert painter.map is maps["gouda"]  # the game in play: its map as the profile has it
    assert {s: list(painter.pixels_of(s)) for s in painter.map.ids()} == PROFILE["maps"]["gouda"]
    # The table is read into the game's Board and let go (the painter has the palette, as
    # bytes): no parsed table hangs on the state.
    assert not [v for v in vars(table.engine.scene.state).values()
                if type(v) is dict and ("spaces" in v or "palette" in v)]
    table.engine.on_button("back", "long", table.board.now)  # abandon the game
    assert table.state()["mode"] == "menu"
    assert maps_as_lists(table.board.profile["maps"]) == PROFILE["maps"]
    assert table.state()["choices"] == [g for g in GAMES if g in PROFILE["maps"]]
    choose_options(table, "kitchen", {})  # the other game plays, painted on its own map
    table.wait(100)
    table.engine.draw(table.frame)
    assert table.state()["game"] == "kitchen" and any(table.frame)
    assert list(table.board.profile["maps"]) == ["kitchen"]
    table.engine.on_button("back", "long", table.board.now)
    assert all(isinstance(m, PackedMap) for m in table.board.profile["maps"].values())
    assert maps_as_lists(table.board.profile["maps"]) == PROFILE["maps"]


@pytest.mark.board
def test_an_ordinary_boot_and_game_import_no_code_of_the_rare_paths(tmp_path):
    # On the MicroPython VM (where modules are let go): what runs once at power-on is gone
    # after it, and the code of paths an ordinary game never takes (no profile anywhere, a
    # first boot's checks, a host's requests, a takeback) was never imported.
    for part in ("rules", "cheesefw"):
        shutil.copytree(FIRMWARE / part, tmp_path / part)
    shutil.copy(paths.PROFILES / "pico.json", tmp_path / "profile.json")
    (tmp_path / "schemas").mkdir()  # (where a flashed slot carries them)
    shutil.copy(ROOT / "host" / "cheeseboard" / "schemas" / "kitchen.schema.json",
                tmp_path / "schemas" / "kitchen.json")
    out = run_mp("""
import sys
import simboard
simboard.out = open("/dev/null", "wb")
simboard.receive = lambda: None
from cheesefw import app
from cheesefw.games import load
board_app = app.start()
print(sorted(m for m in sys.modules if m.startswith("cheesefw")))
options = dict((key, choices[0]) for key, choices in load("kitchen").OPTIONS)
board_app.scene.start_game("kitchen", options)
for _ in range(50):
    board_app.tick()
print(board_app.scene.describe()["mode"])
print(sorted(m for m in sys.modules if m.startswith("cheesefw")))
""", cwd=tmp_path, path=(tmp_path, SIMVM))
    booted, mode, playing = out.strip().splitlines()[-3:]
    assert mode == "play"
    for modules in (booted, playing):
        for rare in ("startup", "profile_file", "first_boot", "fault", "checked", "strict_json",
                     "profile_check", "request_line", "answers", "tables", "engine.takeback"):
            assert "'cheesefw.%s'" % rare not in modules, (rare, modules)
    assert "'cheesefw.engine.play'" in playing  # (the listing is the VM's)


@pytest.mark.parametrize("seats", [[], [[1, "strong"]]])
def test_the_board_players_code_comes_with_a_game_it_plays_in_and_never_with_one_of_persons(
        seats, monkeypatch):
    # Imported at the game's start (a long tick already), not in the tick of their first turn,
    # which it held for 50-70 ms on a Pico; a game of persons only never carries it.
    import cheesefw.games

    monkeypatch.delitem(sys.modules, "cheesefw.games.katz_bot", raising=False)
    monkeypatch.delattr(cheesefw.games, "katz_bot", raising=False)
    table = CpuTable()
    table.engine.start_game("katz", {"players": 2}, seats=seats)
    play = table.engine.scene
    assert play.wait != "bot" and play.thinking is None  # nobody has thought yet
    assert ("cheesefw.games.katz_bot" in sys.modules) == bool(seats)
