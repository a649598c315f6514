"""The Gouda module against docs/game-contract.md: names, options, the rule table's checks, the
view, hints, the dict round trip, action_player. (The rules themselves: test_gouda_rules.py.)"""

import json
import random

import pytest
from test_gouda_props import choose
from test_gouda_rules import ROOT, RULES, position, roll

from cheesefw import games
from cheesefw.games import CHANCE, PASS, REACTION, TERMINAL, as_action, gouda


def test_module_names_and_loading():
    assert games.load("gouda") is gouda and gouda.NAME == "gouda"
    keys = [k for k, _ in gouda.OPTIONS]
    assert keys == ["players", "placement", "powers", "markers", "festival", "extra_cheese"]
    st = gouda.State(RULES)
    assert st.options == {k: v[0] for k, v in gouda.OPTIONS}
    assert st.history == [] and st.current_player() == 0


@pytest.mark.parametrize(
    "options",
    [
        {"colour": "red"},
        {"players": 7},
        {"players": 1},
        {"players": "2"},
        {"powers": 1},  # True is the value, not 1
        {"festival": "yes"},
        {"markers": 6},
        [("players", 2)],
    ],
)
def test_bad_options_raise(options):
    with pytest.raises(ValueError, match="option"):
        gouda.State(RULES, options)


def mutated(path, value):
    bad = json.loads(json.dumps(RULES))
    target = bad
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return bad


@pytest.mark.parametrize(
    "path,value,field",
    [
        (("spaces",), {}, "rules.spaces"),
        (("spaces", 0), ["crl", "left crate", "m1"], "rules.spaces"),
        (("spaces", 1, 0), "crl", "rules.spaces"),  # a duplicate id
        (("spaces", 3, 2), "m2 nowhere", "rules.spaces.m1.up"),
        (("spaces", 3, 3), "crl m1", "rules.spaces.m1.down"),  # itself
        (("spaces", 4, 2), "", "rules.spaces.tin.up"),  # no way up
        (("top",), "m9", "rules.top"),
        (("start",), ["jug", "table"], "rules.start"),
        (("start",), [], "rules.start"),
        (("lat",), ["tin", "hat"], "rules.lat"),
        (("dice", "n"), 6, "rules.dice.n"),
        (("dice", "faces"), ["green", "blue"], "rules.dice.faces"),
        (("players",), [2, 7], "rules.players"),
        (("mice_per_player",), KeyError, "rules.mice_per_player"),
        (("powers", "types"), ["reroll"], "rules.powers.types"),
        (("powers", "each"), -1, "rules.powers.each"),
        (("variants", "festival", "cheese"), 0, "rules.variants.festival.cheese"),
        (("variants", "extra_cheese", "hat"), 2, "rules.variants.extra_cheese"),
        (("variants",), {"festival": {"cheese": 9}, "extra_cheese": {"table": 50}}, "variants"),
        (("palette",), None, "rules.palette"),
        (("signs", "cancel"), "01x10", "rules.signs.cancel"),
        (("signs", "extra"), 11111, "rules.signs.extra"),
        (("signs", "reroll"), "101010101", "rules.signs.reroll"),
        (("signs",), [], "rules.signs"),
    ],
)
def test_a_malformed_table_is_refused_naming_the_field(path, value, field):
    with pytest.raises(ValueError) as e:
        gouda.State(mutated(path, value))
    assert field in str(e.value) and "expected" in str(e.value)
    assert gouda.State(RULES).legal_actions()  # the good table still works


def test_view_follows_the_contract_and_hides_the_hands():
    st = position({"m2": [1, 0, 0]}, turn=0, powers=True, hands={0: ["upgrade"], 1: ["cancel"]})
    roll(st, "m2", "red", "green")
    v = st.view()
    assert set(v) == {"turn", "pieces", "marks", "dice", "status"}
    assert v["turn"] == CHANCE == -1  # the third die is still to roll
    assert v["pieces"] == sorted(v["pieces"]) and ["m2", 1] in v["pieces"]
    assert v["marks"] == [["m2", "target"], ["table", "cheese"]]
    assert v["dice"] == ["green", "red"]  # the roll on show (one die still to roll)
    assert v["status"] == {"cheese": 1, "markers": [1, 1]}
    text = json.dumps(v)
    assert all(p not in text for p in gouda.POWERS)  # never what a marker is
    st.apply_action("yellow")
    assert st.view()["dice"] == ["green", "yellow", "red"]
    assert st.view()["turn"] == REACTION == -3
    for kind in ("cheese", "target", "green", "yellow", "red"):
        assert len(RULES["palette"][kind]) == 3


def test_every_legal_action_has_a_hint():
    rng = random.Random(5)
    st = gouda.State(RULES, {"players": 4, "powers": True, "extra_cheese": True})
    ids = set(st.board.ids)
    while not st.is_terminal():
        for a in st.legal_actions() or [o for o, _ in st.chance_outcomes()]:
            h = st.hint(a)
            assert {"spaces", "text"} <= set(h)
            assert set(h) <= {"spaces", "text", "dice", "mark", "count", "paint", "sign"}
            assert h["text"] and set(h["spaces"]) <= ids and h["spaces"] == sorted(h["spaces"])
            for key in h.get("dice", []) + [h.get("mark", "pass")]:
                assert key in RULES["palette"]  # the engine colours them through the palette
            assert h.get("count", "m1") in ids
            assert "sign" not in h or h["sign"] in RULES["signs"]
            for space, owner in h.get("paint", []):  # a space of the hint, in a player's colour
                assert space in h["spaces"] and str(owner) in RULES["palette"]
        st.apply_action(choose(st, rng))
    with pytest.raises(ValueError):
        st.hint(("fly", "m1"))


def test_seats_and_kinds_of_chance():
    st = gouda.State(RULES, {"players": 5, "powers": True})
    assert st.num_players() == 5
    assert st.current_player() == CHANCE and not st.chance_is_roll()  # the deal: drawn unseen
    st = position({"m2": [0]}, turn=0)
    assert not st.chance_is_roll()
    st.apply_action(("go", "m2"))
    assert st.current_player() == CHANCE and st.chance_is_roll()  # a die: the players roll it


def test_power_hints_carry_the_status_colour_and_the_dice_after_them():
    st = position({"m2": [0, 0, 1]}, turn=0, powers=True, hands={0: ["upgrade"], 1: ["cancel"]})
    roll(st, "m2", "green", "yellow", "red")
    assert st.hint(PASS)["mark"] == "pass"
    assert st.hint(("play", 0, "upgrade")) == {
        "spaces": [], "text": "upgrade", "mark": "upgrade", "sign": "upgrade",
    }
    st.apply_action(("play", 0, "upgrade"))
    h = st.hint(("dice", 0, 1, 1))
    assert h["mark"] == "upgrade" and h["dice"] == ["green", "green", "yellow"]
    st.apply_action(("dice", 0, 1, 0))
    st.apply_action(("play", 1, "cancel"))
    assert st.hint(("dice", 2, 0, 0))["dice"] == ["red"]  # kept; the two greens roll again
    assert st.hint(("undo",))["mark"] == "cancel" and st.hint(("undo",))["sign"] == "cancel"
    for key in ("pass",) + gouda.POWERS:
        assert len(RULES["palette"][key]) == 3  # every mark has its colour
    signs = [RULES["signs"][key] for key in gouda.POWERS]
    assert len(set(signs)) == len(signs)  # every power its own sign


def test_history_reads_like_a_list_without_decoding_it_all():
    rng = random.Random(3)
    st = gouda.State(RULES, {"players": 3, "powers": True})
    played = []
    while not st.is_terminal():
        a = choose(st, rng)
        st.apply_action(a)
        played.append(a)
    h = st.history
    assert len(h) == len(played) and h == played and list(h) == played
    assert h[0] == played[0] and h[-1] == played[-1] and h[5:15] == played[5:15]
    assert h[-3:] == played[-3:] and h[:] == played and h[::2] == played[::2]
    assert h != played[:-1] and repr(h) == repr(played)
    with pytest.raises(IndexError):
        h[len(played)]
    back = gouda.State.from_dict(RULES, st.to_dict())
    assert len(back.history) == len(played) and back.history == h


def test_a_resumed_game_counts_its_history_whether_it_played_on_first_or_not():
    rng = random.Random(4)
    st = gouda.State(RULES, {"players": 2})
    for _ in range(40):
        st.apply_action(choose(st, rng))
    saved = st.to_dict()
    more = []
    for _ in range(5):
        more.append(choose(st, rng))
        st.apply_action(more[-1])
    asked_first = gouda.State.from_dict(RULES, saved)
    assert len(asked_first.history) == 40
    played_first = gouda.State.from_dict(RULES, saved)
    for a in more:
        asked_first.apply_action(a)
        played_first.apply_action(a)
    for resumed in (asked_first, played_first):
        assert len(resumed.history) == 45 and resumed.history == st.history
        assert resumed.history[-1] == st.history[-1]


def test_hints_light_the_spaces_of_a_move():
    st = position({"m2": [0, 1]}, turn=0)
    assert st.hint(("go", "m2")) == {"spaces": ["m2"], "text": "roll", "count": "m2"}
    roll(st, "m2", "green", "red")
    # the space the mouse leaves blinks in its owner's colour: whose mouse is offered
    assert st.hint(("move", 1, "byl")) == {"spaces": ["byl", "m2"], "text": "up",
                                           "paint": [["m2", 1]]}
    assert st.hint(("move", 0, "byl"))["paint"] == [["m2", 0]]


def test_action_player_in_a_window_and_elsewhere():
    st = position({"m2": [0, 1]}, turn=0, powers=True, hands={1: ["reroll"]})
    assert st.action_player(("go", "m2")) == 0
    roll(st, "m2", "green")
    assert st.current_player() == CHANCE and st.action_player("red") == CHANCE
    st.apply_action("red")
    assert st.action_player(("play", 1, "reroll")) == 1
    assert st.action_player(PASS) == REACTION
    with pytest.raises(ValueError):
        st.action_player(("play", 9, "reroll"))


def test_from_dict_refuses_a_malformed_dict():
    d = gouda.State(RULES).to_dict()
    for bad in (
        None,
        [],
        {},
        dict(d, phase=99),
        dict(d, mice=[0]),
        dict(d, h="xyz"),
        dict(d, h="zz"),
        dict(d, turn=-1),
        dict(d, o={"players": 9}),
    ):
        with pytest.raises(ValueError):
            gouda.State.from_dict(RULES, bad)


def test_actions_survive_the_journal_as_json():
    rng = random.Random(11)
    st = gouda.State(RULES, {"players": 3, "powers": True, "festival": True})
    while not st.is_terminal():
        st.apply_action(choose(st, rng))
    journal = json.loads(json.dumps(list(st.history)))
    replay = gouda.State(RULES, st.options)
    for a in journal:
        replay.apply_action(as_action(a))
    assert replay == st and replay.history == st.history
    assert st.current_player() == TERMINAL


def test_rules_doc_names_every_rule_test_and_only_real_ones():
    import re

    import test_gouda_rules

    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"test_gouda_rules\.py::(test_\w+)", doc))
    tests = {name for name in dir(test_gouda_rules) if name.startswith("test_")}
    assert named == tests
