"""Alles für die Katz against the game contract: names, the table's checks (board and host),
bad moves refused with the state unchanged, view and hint, to_dict, the history's bytes."""

import copy
import json
from pathlib import Path

import pytest

from cheeseboard.rules.check import check_table as host_check
from cheesefw.engine.rng import Rng
from cheesefw.games import CHANCE, GAMES, TERMINAL, as_action, katz

ROOT = Path(__file__).resolve().parents[2]
RULES = json.loads((ROOT / "firmware/rules/katz.json").read_text())


def random_game(seed, players=3, stop=None):
    rng = Rng(seed)
    s = katz.State(RULES, {"players": players})
    while not s.is_terminal() and (stop is None or len(s.history) < stop):
        if s.current_player() == CHANCE:
            s.apply_action(rng.choose(s.chance_outcomes()))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.below(len(legal))])
    return s


def test_the_module_has_the_contract_names():
    assert "katz" in GAMES and katz.NAME == "katz"
    assert [k for k, _ in katz.OPTIONS] == ["players"]
    assert callable(katz.check_table) and callable(katz.bot_move)
    s = katz.State(RULES, {})
    assert s.num_players() == 2 and s.options == {"players": 2}
    assert s.chance_is_roll() and s.current_player() == CHANCE
    assert s.chance_outcomes() == [(f, 1 / 6) for f in (1, 2, 3, 4, 5, "clover")]


def test_the_table_states_the_game():
    t = katz.check_table(RULES)
    assert t.ids[0] == "pantry" and t.ids[-1] == "hole" and t.ids[1] == RULES["first"]
    assert t.mice == 4 and t.clover == (1, 5) and not t.trap[1]
    assert sum(t.trap) == 7


# Each mutation, and the field the board's own check must name (the host adds the schema).
MUTATIONS = [
    (lambda t: t["spaces"].pop(), "spaces"),  # no hole
    (lambda t: t["spaces"].append(["hole2", "hole"]), "spaces"),  # two holes
    (lambda t: t["spaces"].pop(0), "spaces"),  # no pantry
    (lambda t: t["spaces"][1].__setitem__(1, "trap"), "first"),  # a trap on the first field
    (lambda t: t.update(first="f02"), "first"),
    (lambda t: t["spaces"][5].__setitem__(0, "f01"), "spaces[5]"),  # an id twice
    (lambda t: t["spaces"][5].__setitem__(1, "cheese"), "spaces[5]"),
    (lambda t: t["dice"].update(faces=[]), "dice.faces"),  # a die without faces
    (lambda t: t["dice"].update(faces=[1, 2, 7]), "dice.faces"),
    (lambda t: t["dice"].update(clover=[3, 1]), "dice.clover"),
    (lambda t: t["dice"].pop("clover"), "dice.clover"),
    (lambda t: t.update(mice_per_player=0), "mice_per_player"),
    (lambda t: t.update(players=[2, 9]), "players"),
    (lambda t: t["palette"].update(trap=[1, 2]), "palette"),
    (lambda t: t.update(colour="red"), "colour"),  # an unknown key
    (lambda t: t["dice"].update(sides=6), "dice.sides"),
    (lambda t: t.update(spaces=[["pantry", "pantry"], ["hole", "hole"]]), "spaces"),
]


@pytest.mark.parametrize("change,field", MUTATIONS)
def test_a_table_that_cannot_be_played_is_refused_naming_the_field(change, field):
    table = copy.deepcopy(RULES)
    change(table)
    with pytest.raises(ValueError) as e:
        katz.check_table(table)
    assert str(e.value).startswith("katz rules: " + field), e.value
    problems = host_check(table)
    assert problems and any(p.startswith(field.split("[")[0]) for p in problems), problems


def test_a_table_of_the_wrong_shape_is_refused_not_crashed():
    for bad in (None, [], {"spaces": "x"}, dict(RULES, spaces=[None]), dict(RULES, dice=[])):
        with pytest.raises(ValueError, match="katz rules"):
            katz.check_table(bad)


def test_bad_moves_are_refused_with_the_state_unchanged():
    s = random_game(3, stop=40)
    while s.current_player() == CHANCE:
        s.apply_action(1)
    before = s.to_dict()
    legal = s.legal_actions()
    blocked = [("f%02d" % p, s.roll if s.roll != "clover" else 1) for p in range(1, 30)]
    wrong = [a for a in blocked if a not in legal] + [
        1, "clover", None, "pass", ("hole", 1), ("pantry",), ["pantry", 1], ("pantry", 1.0),
        ("f01", 0), ("nowhere", 1)]
    for a in wrong:
        if a in legal:
            continue
        with pytest.raises(ValueError, match="expected"):
            s.apply_action(a)
        assert s.to_dict() == before
    roller = katz.State(RULES, {})
    for a in (0, 6, 7, "joker", ("pantry", 1), None):
        with pytest.raises(ValueError):
            roller.apply_action(a)
    assert roller.history == []


def test_hint_lights_the_tower_and_where_the_mouse_ends_and_the_clover_count():
    s = katz.State(RULES, {})
    s.apply_action("clover")
    h = s.hint(("pantry", 4))
    assert h["spaces"] == ["f04", "pantry"] and h["dice"] == ["clover"] * 4
    s = katz.State(RULES, {})
    s.apply_action(3)
    h = s.hint(("pantry", 3))
    assert h["spaces"] == ["f03", "pantry"] and "dice" not in h
    with pytest.raises(ValueError):
        s.hint(("pantry", 2))


def test_view_shows_every_mouse_towers_top_first_the_die_and_the_hole_per_seat():
    s = katz.State(RULES, {"players": 3})
    s.place[0], s.level[0] = 7, 0
    s.place[4], s.level[4] = 7, 1
    s.place[8], s.level[8] = 7, 2
    s.place[1] = s.place[2] = s.place[5] = 30
    v = s.view()
    assert len(v["pieces"]) == 12 and v["pieces"] == sorted(v["pieces"])
    assert v["stacks"] == [["f07", [2, 1, 0]]]
    assert v["lights"] == [["hole", ["0", None, "half1", None, None, None]]]
    assert v["status"]["home"] == [2, 1, 0] and v["status"]["meter"] == [0, 7]
    assert v["dice"] == []
    s.apply_action("clover")
    assert s.view()["dice"] == ["clover"] * 5
    assert json.loads(json.dumps(v)) == v


def test_the_palette_colours_every_kind_the_view_shows():
    palette = RULES["palette"]
    for key in ["trap", "trap-full", "trapped", "empty", "die", "clover", "meter"]:
        assert key in palette
    for seat in range(6):
        assert str(seat) in palette and "half%d" % seat in palette


def test_to_dict_is_plain_data_and_from_dict_rebuilds_it_at_every_step():
    rng = Rng(9)
    s = katz.State(RULES, {"players": 4})
    while not s.is_terminal():
        d = s.to_dict()
        again = katz.State.from_dict(RULES, json.loads(json.dumps(d)))
        assert again == s and again.to_dict() == d
        if s.current_player() == CHANCE:
            s.apply_action(rng.choose(s.chance_outcomes()))
        else:
            legal = s.legal_actions()
            s.apply_action(legal[rng.below(len(legal))])
    d = s.to_dict()
    d["place"][0] = (d["place"][0] + 1) % 31
    with pytest.raises(ValueError, match="place"):
        katz.State.from_dict(RULES, d)
    with pytest.raises(ValueError, match="to_dict"):
        katz.State.from_dict(RULES, {"options": {}})


def test_the_history_is_one_byte_an_action_and_replays():
    s = random_game(11, players=5)
    assert s.current_player() == TERMINAL
    assert len(s._log) == len(s.history) and max(s._log) < 256
    replay = katz.State(RULES, {"players": 5})
    for a in json.loads(json.dumps(list(s.history))):
        replay.apply_action(as_action(a))
    assert replay == s and replay.winners() == s.winners()
