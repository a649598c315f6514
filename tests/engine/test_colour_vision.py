"""The LED language as players with a colour-vision deficiency see it
(tests/engine/colour_vision.py: the LEDs' light, Machado et al. 2009 through daltonlens, CIEDE2000).

- Every pair of colours that can be lit at once with different meanings (the pairs
  test_led_language.py compares), as each vision sees them on the board: the pairs closer than
  THRESHOLD are exactly those docs/led-language.md lists under "Colour vision". With the default
  palettes the list is not empty: this reports what fails, it does not pass it.
- In states sampled from random games, choices on offer whose frames look the same to a vision
  (no pixel THRESHOLD apart): each game's look-alikes per vision are the known ones below.
"""

import re

import numpy as np
import pytest
import test_led_language as led
from colour_distance import distance
from colour_vision import VISIONS, led_as_srgb, seen, seen_distance

THRESHOLD = led.THRESHOLD
SECTION = "Colour vision: what the default palettes fail"


def lit_at_once(game, option=False):
    """The colours lit at once in a game (test_led_language.py's table), with the colour-vision
    palette's colours where the option is on and the game has one for a key."""
    table = led.usual_colours(game)
    if option:
        ours = led.doc_table(led.game_title(game))
        for key in table:
            if "cb:" + key in ours:
                table[key] = (ours["cb:" + key][0],) + table[key][1:]
    return table


def failing_pairs(game, vision, option=False):
    """The pairs lit at once with different meanings that this vision sees closer than
    THRESHOLD, as [(distance, a, b)], the closest first. Two powers' signs (Gouda) are not
    compared: their patterns on the die column tell them apart whatever their colours."""
    real = led.distance
    led.distance = lambda a, b: seen_distance(a, b, vision)
    try:
        table = lit_at_once(game, option)
        return sorted((d, a, b) for d, a, b in led.collisions(table)
                      if not ("die:sign" in table[a][1] and "die:sign" in table[b][1]))
    finally:
        led.distance = real


def doc_rows():
    """The doc's rows: {(game, vision): [(distance, a, b)]}, as listed under SECTION."""
    text = led.DOC.split("\n## " + SECTION + "\n")[1].split("\n## ")[0]
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\| (\w+) \| (\w+) \| (.*) \|$", line)
        if m and m.group(1) in led.PAINTED:
            pairs = re.findall(r"`([^`]+)`/`([^`]+)` ([\d.]+)", m.group(3))
            rows[m.group(1), m.group(2)] = [(float(d), a, b) for a, b, d in pairs]
    return rows


def test_the_board_s_light_as_srgb():
    # A WS2812B's byte is its light: half the byte is half the light, which the eye (and
    # sRGB) sees as much more than half as bright; full and none stay as they are.
    assert led_as_srgb((255, 0, 128)) == (255, 0, 188)
    assert led_as_srgb((255, 255, 255), brightness=0.5) == (188, 188, 188)
    assert seen((255, 0, 0), "normal") == (255, 0, 0)


def test_the_simulation_tells_the_classic_confusions():
    # Machado 2009 at severity 1: red and green fall together for protans and deutans, not for
    # the others; blue and green fall together for tritans, not for the others.
    red_green = {v: seen_distance((200, 60, 0), (90, 110, 0), v) for v in VISIONS}
    assert red_green["protan"] < 10 and red_green["deutan"] < 10 and red_green["normal"] > 20
    blue_green = {v: seen_distance((0, 160, 255), (0, 200, 130), v) for v in VISIONS}
    assert blue_green["tritan"] < blue_green["normal"] / 2


@pytest.mark.parametrize("game", led.PAINTED)
def test_the_doc_lists_the_pairs_each_vision_cannot_tell_apart(game):
    rows = doc_rows()
    for vision in VISIONS:
        found = [(round(d, 1), a, b) for d, a, b in failing_pairs(game, vision)]
        assert rows.get((game, vision), []) == found, (game, vision)


def test_the_default_palettes_fail_for_colour_blind_players():
    # Honest: the defaults are not made for protans, deutans or tritans, and the check says so.
    for vision in ("protan", "deutan", "tritan"):
        assert sum(len(failing_pairs(g, vision)) for g in led.PAINTED) > 10, vision
    assert ("0.7", "1", "5") in {(str(round(d, 1)), a, b)
                                 for d, a, b in failing_pairs("gouda", "deutan")}


# -- choices that look the same ------------------------------------------------------------


def look_alike(vision):
    """alike(frames) for play_and_check: the pairs of frames no pixel of which this vision
    sees THRESHOLD apart."""
    colours = {}  # rgb -> index into the distance table
    table = {}

    def index(frames):
        pixels = np.frombuffer(b"".join(frames), dtype=np.uint8).reshape(len(frames), -1, 3)
        codes = pixels.astype(np.int32) @ np.array([1 << 16, 1 << 8, 1], dtype=np.int32)
        codes_seen, at = np.unique(codes, return_inverse=True)
        known = np.array([colours.setdefault((c >> 16, c >> 8 & 255, c & 255), len(colours))
                          for c in codes_seen.tolist()])
        return known[at].reshape(codes.shape)

    def alike(frames):
        idx = index(frames)
        # Only the pixels some frame lights otherwise than another can tell two apart.
        idx = idx[:, (idx != idx[0]).any(axis=0)]
        if idx.shape[1] == 0:
            return [(i, j) for i in range(len(frames)) for j in range(i + 1, len(frames))]
        rgbs = sorted(colours, key=colours.get)
        n = len(rgbs)
        d = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                key = (rgbs[i], rgbs[j])
                if key not in table:
                    table[key] = distance(seen(rgbs[i], vision), seen(rgbs[j], vision))
                d[i, j] = d[j, i] = table[key]
        pairs = []
        for i in range(len(frames) - 1):
            far = d[idx[i][None, :], idx[i + 1:]].max(axis=1)
            pairs.extend((i, i + 1 + int(k)) for k in np.nonzero(far < THRESHOLD)[0])
        return pairs

    return alike


@pytest.mark.parametrize("game", led.PAINTED)
def test_the_colour_vision_palette_tells_every_pair_apart_for_every_vision(game):
    for vision in VISIONS:
        assert failing_pairs(game, vision, option=True) == [], (game, vision)


def test_every_colour_vision_colour_stands_for_a_colour_of_the_palette():
    for game in led.PAINTED:
        palette = led.rules(game)["palette"]
        assert {k[3:] for k in palette if k.startswith("cb:")} <= set(palette), game


# The (game, vision)s whose sampled states offer choices that look the same with the default
# palettes: each seen in the seeds below (docs/led-language.md, "Colour vision").
LOOK_ALIKE = {
    ("gouda", "normal"), ("gouda", "protan"), ("gouda", "deutan"), ("gouda", "tritan"),
    ("kalle", "protan"),
}
SEEDS = range(1)


def look_alikes(game, option):
    """Per vision, the choices that look the same to it over SEEDS, with how many decisions
    were checked: each game played once, every vision's eyes on each of its frames (drawing
    the frames is the cost; the visions share them)."""
    alikes = {vision: look_alike(vision) for vision in VISIONS}

    def every_vision(frames):
        return [(i, j, vision) for vision in VISIONS for i, j in alikes[vision](frames)]

    checked = 0
    found = {vision: [] for vision in VISIONS}
    for seed in SEEDS:
        n, pairs = led.play_and_check(game, seed, alike=every_vision, vision=option)
        checked += n
        for a, b, vision in pairs:
            found[vision].append((a, b))
    return checked, found


@pytest.mark.parametrize("game", led.PAINTED)
def test_choices_that_look_the_same_to_colour_blind_players_are_the_known_ones(game):
    checked, found = look_alikes(game, option=False)
    assert checked > 20  # real games, many decisions
    for vision in VISIONS:
        assert bool(found[vision]) == ((game, vision) in LOOK_ALIKE), \
            (game, vision, found[vision][:3])


@pytest.mark.parametrize("game", led.PAINTED)
def test_with_the_colour_vision_palette_no_two_choices_look_the_same(game):
    checked, found = look_alikes(game, option=True)
    assert checked > 20
    for vision in VISIONS:
        assert found[vision] == [], (game, vision, found[vision][:3])


# -- the option: the menu's roll, the profile, a power cut ----------------------------------


def test_roll_in_the_menu_turns_the_colour_vision_palette_on_and_a_power_cut_keeps_it():
    from engine_driver import CpuTable, MemoryBoard, choose_options

    palette = led.rules("gouda")["palette"]
    board = MemoryBoard(seed=5)
    t = CpuTable(board)
    assert "vision" not in t.state()
    t.press("roll")
    assert t.state()["vision"] == "colour-blind"
    t.wait(0)
    status = 3 * board.profile["status"]
    assert tuple(t.frame[status:status + 3]) == (201, 88, 0)  # the menu shows it is on
    choose_options(t, "gouda", {"players": 3})
    assert t.engine.scene.painter.colour("2") == bytes(palette["cb:2"])
    assert t.engine.scene.painter.colour("0") == bytes(palette["0"])  # no cb:0: kept
    again = CpuTable(MemoryBoard(files=board.files, seed=5))  # the power goes off
    assert again.engine.scene.painter.colour("2") == bytes(palette["cb:2"])
    t.engine.on_button("back", "long", board.now)  # the game abandoned: the menu keeps it on
    assert t.state()["vision"] == "colour-blind"
    t.press("roll")
    assert "vision" not in t.state()
    choose_options(t, "gouda", {"players": 3})
    assert t.engine.scene.painter.colour("2") == bytes(palette["2"])


def test_a_profile_can_turn_the_colour_vision_palette_on_from_power_on():
    from engine_driver import PROFILE, CpuTable, MemoryBoard

    t = CpuTable(MemoryBoard(profile=dict(PROFILE, vision="colour-blind")))
    assert t.state()["vision"] == "colour-blind"
