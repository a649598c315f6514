"""A board carries only what it plays: during a game the menu's code and the other games' maps
are out of the heap (the one in play stays packed, walked as it is by the painter), and the
menu comes back whole, every map read again, when the game ends."""

import sys

from engine_driver import PROFILE, CpuTable, choose_options

from cheesefw.engine.draw import PackedMap
from cheesefw.games import GAMES


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
