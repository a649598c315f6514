"""A board carries only what it plays: during a game the menu's code and the other games'
maps are out of the heap, and they come back whole when the game ends."""

import sys

from engine_driver import PROFILE, CpuTable, choose_options


def maps_as_lists(maps):
    return {g: {s: list(p) for s, p in spaces.items()} for g, spaces in maps.items()}


def test_during_a_game_the_menu_and_the_other_maps_are_let_go_and_come_back_after():
    table = CpuTable()
    choose_options(table, "gouda", {"players": 2})
    assert table.state()["mode"] == "play"
    assert "cheesefw.engine.menu" not in sys.modules
    assert sorted(table.board.profile["maps"]) == ["gouda"]
    assert "palette" not in table.engine.scene.state.rules  # the painter has it, as bytes
    table.engine.on_button("back", "long", table.board.now)  # abandon the game
    assert table.state()["mode"] == "menu"
    assert maps_as_lists(table.board.profile["maps"]) == PROFILE["maps"]
    assert table.state()["choices"] == ["gouda", "kitchen"]
    choose_options(table, "kitchen", {})  # the other game plays, painted on its own map
    table.wait(100)
    table.engine.draw(table.frame)
    assert table.state()["game"] == "kitchen" and any(table.frame)
    assert sorted(table.board.profile["maps"]) == ["kitchen"]
