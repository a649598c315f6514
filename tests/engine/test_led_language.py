"""The LED language (docs/led-language.md): what the board shows can be read, and misread by no one.

- The document's tables are the palettes': every colour of every game's rule table, and the
  engine's own, with its RGB as the source has it.
- Colours that can be lit at once with different meanings are at least THRESHOLD apart
  (CIEDE2000; the document says why 10 and which pairs count).
- In every decision state reached over random games, played with the buttons through the
  engine's real drawing, no two legal actions give the same frame. Each game plays on the
  first reference profile that maps it (Gatenkaas: pico16); a private hand (Gatenkaas's
  "hidden") must show nothing of itself until its player holds PEEK, and is then compared.
Both checks run over every game in GAMES that has a palette, so a new game joins them by
itself.
"""

import json
import random
import re

import pytest
from colour_distance import ciede2000, distance
from engine_driver import ROOT, load_profile

from cheesefw.engine import draw, play
from cheesefw.engine.draw import BLINK_MS, Painter
from cheesefw.games import GAMES, load

THRESHOLD = 10
TIMED = {"refused"}  # its meaning is when it shows, right after the press it refuses
DOC = (ROOT / "docs" / "led-language.md").read_text(encoding="utf-8")
ENGINE = {"offer": draw.WHITE, "tumble": draw.WHITE, **draw._SIGNALS}


def rules(game):
    return json.loads((ROOT / "firmware" / "rules" / (game + ".json")).read_text())


PROFILE = load_profile("pico")
# Each game on the first reference profile that maps it (Gatenkaas: only pico16 does).
PROFILES = [load_profile(p.stem) for p in sorted((ROOT / "hardware" / "profiles").glob("*.json"))]
PROFILE_OF = {g: next(p for p in PROFILES if g in p["maps"])
              for g in GAMES if any(g in p["maps"] for p in PROFILES)}
PAINTED = [g for g in GAMES if rules(g).get("palette") and g in PROFILE_OF]


def doc_table(title):
    """The rows {key: (rgb, parts, meaning)} of the doc's table under the heading `title`."""
    start = DOC.index("\n## " + title + "\n")
    rows = {}
    for line in DOC[start:].split("\n## ")[1].splitlines():
        m = re.match(r"\| `([^`]+)` \| (\d+), (\d+), (\d+) \| ([^|]+) \| ([^|]+) \|$", line)
        if m:
            parts = {p.strip() for p in m.group(5).split(",")}
            rows[m.group(1)] = (tuple(int(m.group(i)) for i in (2, 3, 4)), parts,
                                m.group(6).strip())
    return rows


def game_title(game):
    """The doc's heading for a game: the one whose section names its rule table."""
    for title in re.findall(r"^## (.+)$", DOC, re.M):
        if "`firmware/rules/%s.json`" % game in DOC.split("\n## " + title + "\n")[1][:200]:
            return title
    raise AssertionError("docs/led-language.md has no table for %s (Palette: "
                         "`firmware/rules/%s.json`)" % (game, game))


def test_ciede2000_gives_the_published_test_values():
    # Sharma, Wu and Dalal (2005), pairs 1, 7, 17, 25 and 31 of their test data.
    for lab1, lab2, want in [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ]:
        assert ciede2000(lab1, lab2) == pytest.approx(want, abs=1e-4)
    assert distance((255, 255, 255), (0, 0, 0)) == pytest.approx(100, abs=0.01)


def test_the_engine_table_is_the_engine_s_colours():
    table = doc_table("The engine's colours (every game)")
    assert {k: v[0] for k, v in table.items()} == {k: tuple(v) for k, v in ENGINE.items()}


@pytest.mark.parametrize("game", PAINTED)
def test_the_doc_lists_every_palette_colour_as_the_rule_table_has_it(game):
    table = doc_table(game_title(game))
    palette = rules(game)["palette"]
    assert {k: v[0] for k, v in table.items()} == {k: tuple(v) for k, v in palette.items()}
    parts = {"spaces", "die:dice", "die:count", "die:sign", "die:tumble", "seats", "status",
             "meter"}
    for key, (_, where, _) in table.items():
        assert where <= parts, key


def collisions(table):
    """The pairs of entries that could be mistaken for each other, with their distance."""
    found = []
    keys = sorted(table)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            rgb_a, where_a, meaning_a = table[a]
            rgb_b, where_b, meaning_b = table[b]
            if meaning_a == meaning_b:
                continue  # one meaning, two names (the kitchen's "cat" and seat "1")
            # The same part of the board, or the status light against another part (it shows
            # one colour at a time, so two status colours are never lit together).
            shared = (where_a & where_b) - {"status"}
            status = ("status" in where_a and a not in TIMED and where_b - {"status"}) or (
                "status" in where_b and b not in TIMED and where_a - {"status"})
            if not shared and not status:
                continue  # never read against each other
            d = distance(rgb_a, rgb_b)
            if d < THRESHOLD:
                found.append((round(d, 1), a, b))
    return found


def usual_colours(game):
    """The colours lit at once in a game with its usual palette: its own and the engine's (the
    colour-vision palette's "cb:" keys are test_colour_vision.py's)."""
    table = {k: v for k, v in doc_table(game_title(game)).items() if not k.startswith("cb:")}
    table.update(doc_table("The engine's colours (every game)"))
    return table


@pytest.mark.parametrize("game", PAINTED)
def test_colours_that_can_be_lit_at_once_with_different_meanings_are_far_apart(game):
    assert collisions(usual_colours(game)) == []


def test_the_distance_check_catches_the_collisions_it_is_for():
    # The Gouda palette as it was: Re-roll's blue against player 1, Upgrade against the
    # green die (on the status light, while the dice show), Cancel against the white blink.
    table = usual_colours("gouda")
    old = dict(table)
    old["reroll"] = ((0, 80, 255),) + table["reroll"][1:]
    old["upgrade"] = ((0, 255, 0),) + table["upgrade"][1:]
    old["cancel"] = ((255, 255, 255),) + table["cancel"][1:]
    pairs = {(a, b) for _, a, b in collisions(old)}
    assert {("1", "reroll"), ("green", "upgrade"), ("cancel", "offer")} <= pairs


# -- no two choices look the same -----------------------------------------------------------


class Journal:
    def append(self, *action):
        pass

    def replay(self, apply):
        pass


def make_play(module, table, options, seed, vision=False):
    """The engine's Play, with the real painter, on the game's reference profile (vision: with
    the colour-vision palette)."""
    painter = Painter(PROFILE_OF[module.NAME], module.NAME, table["palette"], table.get("signs"),
                      vision)
    return play.Play(module, table, options, seed, Journal(), painter)


def frames_of_the_choices(p, now):
    """The frame of each choice on offer, drawn at a moment the offer blinks on."""
    frames = []
    keep = p.cursor
    for i in range(len(p.choices)):
        p.cursor = i
        p.now = now
        frame = bytearray(3 * PROFILE_OF[p.module.NAME]["led"]["count"])
        p.draw(frame)
        frames.append(bytes(frame))
    p.cursor = keep
    return frames


def random_options(module, rng):
    return {key: rng.choice(values) for key, values in module.OPTIONS}


def play_and_check(game, seed, max_steps=3000, alike=None, vision=False):
    """Play a random game with the buttons; at every decision, every choice's frame differs.
    Returns how many decision states were checked. alike(frames) -> the pairs of indices of
    frames that look the same to someone (tests/engine/test_colour_vision.py), each with what
    else it says (to whom): given, look-alike choices are gathered, not refused, and the return
    is (checked, [(choice, choice, ...), ...])."""
    found = []
    rng = random.Random(seed)
    module = load(game)
    p = make_play(module, rules(game), random_options(module, rng), seed, vision)
    now = 0
    checked = 0
    for _ in range(max_steps):
        now += 2 * BLINK_MS
        wait = p.wait
        if wait == "over":
            break
        if wait in ("decide", "react"):
            blink_on = now - now % (2 * BLINK_MS)
            if p._secret():  # a private hand (Gatenkaas): hidden, no choice shows at all...
                hidden = set(frames_of_the_choices(p, blink_on))
                assert len(hidden) == 1, "%s: a hidden hand shows on the LEDs" % game
                p.on_button("roll", "press", now)  # ...until its player holds PEEK
                assert p._secret() is False
            frames = frames_of_the_choices(p, blink_on)
            if alike is not None:
                found.extend((p.choices[i], p.choices[j], *rest) for i, j, *rest in alike(frames))
            else:
                first = {}
                same = []
                for i, frame in enumerate(frames):
                    if frame in first:
                        same.append((p.choices[first[frame]], p.choices[i]))
                    first.setdefault(frame, i)
                assert not same, "%s: choices that look the same: %r" % (game, same[:3])
            checked += 1
            for _ in range(rng.randrange(len(p.choices))):
                p.on_button("next", "press", now)
            p.on_button("ok", "press", now)
        elif wait == "roll":
            p.on_button("roll", "press", now)
        elif wait == "window" and rng.random() < 0.5:
            p.on_button("ok", "press", now)  # someone reacts: find a seat that may
            for _ in range(p.players):
                p.on_button("ok", "press", now)
                if p.wait == "react":
                    break
                p.on_button("next", "press", now)
            if p.wait != "react":
                p.on_button("back", "press", now)
        else:
            now = max(now, p.until)  # the roll, the board's move or the window runs out
        p.update(now)
    return (checked, found) if alike is not None else checked


@pytest.mark.parametrize("game", PAINTED)
def test_no_two_legal_actions_give_the_same_frame(game):
    checked = sum(play_and_check(game, seed) for seed in range(6))
    assert checked > 50  # real games were played, with many decisions


@pytest.mark.slow
@pytest.mark.parametrize("first", [100, 120, 140])  # sixty seeds, in parts that run side by side
@pytest.mark.parametrize("game", PAINTED)
def test_no_two_legal_actions_give_the_same_frame_over_many_games(game, first):
    for seed in range(first, first + 20):
        play_and_check(game, seed)


def test_the_frame_check_catches_choices_that_look_alike():
    # Without the owner's colour, moving your mouse and an opponent's from one space to the
    # same space light the same pixels: the check must see that.
    gouda = load("gouda")
    original = gouda.State.hint

    def white_only(self, a):
        h = original(self, a)
        h.pop("paint", None)
        return h

    gouda.State.hint = white_only
    try:
        with pytest.raises(AssertionError, match="look the same"):
            for seed in range(20):
                play_and_check("gouda", seed)
    finally:
        gouda.State.hint = original


# -- the looks, the signs, the Extra Turn, the menu -------------------------------------------


def px(frame, i):
    return tuple(frame[3 * i:3 * i + 3])


GOUDA = rules("gouda")
COLOUR = {k: tuple(v) for k, v in GOUDA["palette"].items()}
DIE = PROFILE["die"]


def paint(view, offer, now=0):
    frame = bytearray(3 * PROFILE["led"]["count"])
    Painter(PROFILE, "gouda", GOUDA["palette"], GOUDA["signs"]).paint(frame, view, now, 3, offer)
    return frame


def gouda_view(pieces, dice=()):
    return {"turn": 0, "pieces": pieces, "marks": [], "dice": list(dice), "status": {}}


def test_a_space_s_mice_are_counted_by_colour_on_the_die_pixels():
    v = gouda_view([["jug", 0], ["jug", 0], ["jug", 1], ["jug", 1], ["jug", 1]])
    frame = paint(v, {"spaces": ["jug"], "count": "jug"})
    assert [px(frame, p) for p in DIE] == [COLOUR["0"]] * 2 + [COLOUR["1"]] * 3
    # six mice on five pixels: one colour at a time, every mouse of it
    v = gouda_view([["m1", 0]] * 5 + [["m1", 2]])
    first = paint(v, {"spaces": ["m1"], "count": "m1"}, now=0)
    second = paint(v, {"spaces": ["m1"], "count": "m1"}, now=draw.CYCLE_MS)
    assert [px(first, p) for p in DIE] == [COLOUR["0"]] * 5
    assert [px(second, p) for p in DIE] == [COLOUR["2"]] + [(0, 0, 0)] * 4


def test_a_power_shows_its_own_sign_in_its_colour():
    seen = set()
    for power in load("gouda").POWERS:
        frame = paint(gouda_view([], dice=["green"]), {"spaces": [], "sign": power})
        lit = tuple(px(frame, p) != (0, 0, 0) for p in DIE)
        assert lit == tuple(c == "1" for c in GOUDA["signs"][power])
        assert {px(frame, p) for p, on in zip(DIE, lit, strict=True) if on} == {COLOUR[power]}
        seen.add(lit)
    assert len(seen) == 6  # six powers, six patterns: readable without the colours


def cpu_gouda(**options):
    from engine_driver import CpuTable, MemoryBoard, choose_options

    table = CpuTable(MemoryBoard(seed=4))
    choose_options(table, "gouda", options)
    return table


def test_roll_at_a_decision_counts_any_space_and_changes_nothing():
    table = cpu_gouda(players=2)
    table.press("ok")  # seat 0 puts their mice on the first start space offered
    table.press("next")
    table.press("ok")  # seat 1 on the next
    before = table.state()
    assert before["wait"] == "decide" and before["offer"][0] == "go"
    table.press("roll")
    looks = [table.state()["look"]]
    table.wait(1)
    frame = table.frame
    space = looks[0]
    owners = [who for s, who in table.engine.scene.state.view()["pieces"] if s == space]
    assert [px(frame, p) for p in DIE] == [COLOUR[str(owners[0])]] * len(owners)
    table.press("next")
    looks.append(table.state()["look"])
    assert looks[0] != looks[1] and table.state()["wait"] == "look"
    table.press("back")
    after = table.state()
    assert after == before  # the look changed nothing


def test_a_player_sees_their_markers_only_when_they_ask():
    table = cpu_gouda(players=2, powers=True)
    for _ in range(200):
        s = table.state()
        if s["wait"] == "window":
            break
        if s["wait"] == "roll":
            table.press("roll")
            table.wait(play.ROLL_MS + 10)
        else:
            table.press("ok")
    assert table.state()["wait"] == "window"
    game = table.engine.scene.state
    hand = game.hand_of(1)
    table.wait(1)
    assert COLOUR[hand[0]] not in [px(table.frame, p) for p in DIE]  # not shown unasked
    table.press("ok")
    table.press("next")  # seat 1
    table.press("roll")
    s = table.state()
    assert s["wait"] == "hand" and s["seat"] == 1
    assert not [v for v in s.values() if v == hand or v == hand[0]]  # never on the console
    table.wait(1)
    frame = table.frame
    assert [px(frame, p) != (0, 0, 0) for p in DIE] == [c == "1" for c in GOUDA["signs"][hand[0]]]
    for space, pixels in PROFILE["maps"]["gouda"].items():  # the rest of the board is dark
        assert {px(frame, p) for p in pixels} <= {COLOUR["empty"]}, space
    if len(hand) > 1:
        table.press("next")
        table.wait(1)
        lit = [px(table.frame, p) != (0, 0, 0) for p in DIE]
        assert lit == [c == "1" for c in GOUDA["signs"][hand[1]]]
    table.press("back")
    assert table.state()["wait"] == "seat"


def test_an_extra_turn_shows_on_the_status_light_until_the_second_turn_ends():
    from test_gouda_rules import position, roll

    st = position({"m2": [0]}, turn=0, powers=True, hands={0: ["extra"], 1: ["cancel"]})
    assert "mark" not in st.view()
    roll(st, "m2", "yellow")
    st.apply_action("pass")  # the roll's window; the end of the turn's window opens
    st.apply_action(("play", 0, "extra"))
    assert st.view()["mark"] == "extra"
    st.apply_action("pass")
    assert st.current_player() == 0 and st.view()["mark"] == "extra"  # the second turn: why
    roll(st, "m2", "yellow")
    st.apply_action("pass")
    st.apply_action("pass")
    assert st.current_player() == 1 and "mark" not in st.view()
    frame = paint(dict(gouda_view([]), mark="extra"), None)
    assert px(frame, PROFILE["status"]) == COLOUR["extra"]


def test_re_rolled_dice_wait_for_the_roller_to_press_roll():
    # docs/rules.md: the dice a Re-roll sends back are rolled next, by the roller (roll).
    table = cpu_gouda(players=2, powers=True, markers="series")
    for _ in range(200):
        if table.state()["wait"] == "window":
            break
        if table.state()["wait"] == "roll":
            table.press("roll")
            table.wait(play.ROLL_MS + 10)
        else:
            table.press("ok")
    game = table.engine.scene.state
    table.press("ok")
    table.press("next")  # seat 1 obliges seat 0 to re-roll
    table.press("ok")
    for _ in range(len(game.legal_actions())):
        if tuple(table.state()["offer"]) == ("play", 1, "reroll"):
            break
        table.press("next")
    table.press("ok")
    assert table.state()["offer"][0] == "dice"
    table.press("ok")  # the first choice of dice: they go back to be rolled
    s = table.state()
    assert s["wait"] == "roll" and game.roller() == 0
    table.wait(1)
    assert px(table.frame, PROFILE["seats"][0]) in (COLOUR["0"], (0, 0, 0))  # seat 0 blinks
    table.press("roll")
    assert table.state()["wait"] == "rolling"


def test_every_menu_step_has_its_own_pips():
    from engine_driver import CpuTable, MemoryBoard

    table = CpuTable(MemoryBoard())
    while table.state()["value"] != "gouda":
        table.press("next")
    shown = []
    while table.state()["mode"] == "menu":
        table.wait(1)
        shown.append(tuple(px(table.frame, p) for p in DIE))
        table.press("ok")
    # the game, each option, then who plays each seat (two seats by default)
    assert len(shown) == 1 + len(load("gouda").OPTIONS) + 2
    assert len(set(shown)) == len(shown)  # festival and extra_cheese no longer look alike
