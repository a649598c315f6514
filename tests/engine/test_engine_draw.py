"""What the players see: whose turn, the choice on offer, every mouse, each die, no secrets."""

import json

from engine_driver import PROFILE, ROOT, CpuTable, MemoryBoard, choose_options

from cheesefw.engine.draw import BLINK_MS, CYCLE_MS, Painter

GOUDA = json.loads((ROOT / "firmware/rules/gouda.json").read_text())
PALETTE = {k: tuple(v) for k, v in GOUDA["palette"].items()}
MAP = PROFILE["maps"]["gouda"]


def px(frame, i):
    return tuple(frame[3 * i:3 * i + 3])


def paint(view, now, players=3, offer=None):
    frame = bytearray(3 * PROFILE["led"]["count"])
    Painter(PROFILE, "gouda", GOUDA["palette"]).paint(frame, view, now, players, offer)
    return frame


def view(**kw):
    v = {"turn": 1, "pieces": [], "marks": [], "dice": [], "status": {}}
    v.update(kw)
    return v


def test_whose_turn_blinks_on_its_seat_and_the_others_glow_dim():
    on, off = paint(view(), 0), paint(view(), BLINK_MS)
    seats = PROFILE["seats"]
    assert px(on, seats[1]) == PALETTE["1"] and px(off, seats[1]) == (0, 0, 0)
    for seat in (0, 2):
        dim = px(on, seats[seat])
        assert dim == px(off, seats[seat]) and 0 < sum(dim) < sum(PALETTE[str(seat)])
    assert px(on, seats[3]) == (0, 0, 0)  # no fourth player


def test_every_die_result_shows_in_its_colour():
    frame = paint(view(dice=["green", "red", "yellow"]), 0)
    die = PROFILE["die"]
    assert [px(frame, p) for p in die[:3]] == [PALETTE["green"], PALETTE["red"],
                                                PALETTE["yellow"]]
    assert px(frame, die[3]) == (0, 0, 0)


def test_the_offered_choice_blinks_white_over_what_it_covers():
    v = view(pieces=[["m2", 0]])
    offer = {"spaces": ["m2", "m3"], "text": "up"}
    on, off = paint(v, 0, offer=offer), paint(v, BLINK_MS, offer=offer)
    for p in MAP["m2"] + MAP["m3"]:
        assert px(on, p) == (255, 255, 255)
    assert px(off, MAP["m2"][0]) == PALETTE["0"]  # the mouse shows between blinks
    assert px(off, MAP["m3"][0]) == PALETTE["empty"]  # a bare space glows faintly


def test_several_colours_on_one_space_stay_readable():
    # two players on a two-pixel space: one pixel each, all the time
    frame = paint(view(pieces=[["jug", 0], ["jug", 0], ["jug", 2]]), 0)
    assert {px(frame, p) for p in MAP["jug"]} == {PALETTE["0"], PALETTE["2"]}
    # four players on a two-pixel space: the colours take turns, none left out
    crowd = view(pieces=[["m1", p] for p in (0, 1, 2, 3)])
    seen = set()
    for k in range(4):
        frame = paint(crowd, k * CYCLE_MS, players=4)
        seen |= {px(frame, p) for p in MAP["m1"]}
    assert seen == {PALETTE[str(p)] for p in range(4)}


def test_a_kitchen_board_never_shows_what_lies_under_a_tile():
    frames = []
    for seed in (1, 2):
        table = CpuTable(MemoryBoard(seed=seed))
        choose_options(table, "kitchen", {})
        table.wait(1)
        frames.append(bytes(table.frame))
    kmap = PROFILE["maps"]["kitchen"]
    palette = json.loads((ROOT / "firmware/rules/kitchen.json").read_text())["palette"]
    floor = [sq for sq in kmap if sq not in ("a4", "c1", "d7", "f4", "c3", "c4", "c5", "d3",
                                             "d4", "d5")]
    for frame in frames:
        colours = {px(frame, kmap[sq][0]) for sq in floor}
        # every face-down tile looks the same (a piece or the blinking choice may cover one)
        assert tuple(palette["tile"]) in colours
        assert colours <= {tuple(palette["tile"]), tuple(palette["cat"]), (255, 255, 255),
                           (0, 0, 0)}
    # two different deals look the same
    assert frames[0] == frames[1]


KITCHEN = json.loads((ROOT / "firmware/rules/kitchen.json").read_text())


def test_a_turned_tile_flips_between_its_back_and_its_face():
    painter = Painter(PROFILE, "kitchen", KITCHEN["palette"])
    frame = bytearray(3 * PROFILE["led"]["count"])
    square = PROFILE["maps"]["kitchen"]["b2"][0]
    faces = set()
    for now in (0, 150, 300, 450):
        painter.reveal(frame, "b2", "knife", now)
        faces.add(px(frame, square))
    assert faces == {tuple(KITCHEN["palette"]["tile"]), tuple(KITCHEN["palette"]["knife"])}


def test_the_cheese_meter_fills_with_the_mice_s_cheese():
    painter = Painter(PROFILE, "kitchen", KITCHEN["palette"])
    meter = PROFILE["meter"]
    for cheese, lit in ((0, 0), (1, 1), (5, 4), (10, 7)):
        frame = bytearray(3 * PROFILE["led"]["count"])
        v = view(status={"meter": [cheese, 10]})
        painter.paint(frame, v, 0, 2)
        on = [p for p in meter if any(px(frame, p))]
        assert on == meter[:lit], cheese


def test_a_tower_on_a_space_of_several_pixels_keeps_its_top_on_the_first():
    frame_at = {}
    v = view(stacks=[["table", [2, 0, 1]]])
    for t in range(3):
        frame_at[t] = paint(v, t * CYCLE_MS)
    first, rest = MAP["table"][0], MAP["table"][1:]
    assert all(px(f, first) == PALETTE["2"] for f in frame_at.values())
    below = {px(f, p) for f in frame_at.values() for p in rest}
    assert below == {PALETTE["0"], PALETTE["1"]}


def test_lights_set_a_space_pixel_by_pixel_the_rest_dark():
    v = view(pieces=[["table", 0]], lights=[["table", ["red", None]]])
    frame = paint(v, 0)
    assert [px(frame, p) for p in MAP["table"]] == [PALETTE["red"]] + [(0, 0, 0)] * 3


def _counted(pieces, players):
    """Every page the die column shows for the space `jug` over a whole cycle: the colours lit."""
    offer = {"spaces": ["jug"], "text": "roll", "count": "jug"}
    pages = []
    for k in range(len(pieces) + 1):  # never more pages than pieces: one more shows the wrap
        frame = paint(view(pieces=pieces), k * CYCLE_MS, players=players, offer=offer)
        pages.append([px(frame, p) for p in PROFILE["die"] if px(frame, p) != (0, 0, 0)])
    return pages


def test_a_crowded_start_space_counts_every_mouse_in_turn():
    # Gouda: six mice a player start on the first three spaces, so ten on one is an opening
    # (docs/led-language.md): six red and four blue show as five red, one red, four blue.
    pieces = [["jug", 0]] * 6 + [["jug", 1]] * 4
    pages = _counted(pieces, players=2)
    red, blue = PALETTE["0"], PALETTE["1"]
    assert pages[:3] == [[red] * 5, [red], [blue] * 4]
    assert pages[3] == pages[0]  # and round again
    # each mouse is counted once a cycle: no owner is left out, none counted twice
    assert sum(len(p) for p in pages[:3]) == len(pieces)


def test_two_full_hands_on_one_space_take_turns_five_and_five():
    pieces = [["jug", 0]] * 5 + [["jug", 2]] * 5
    pages = _counted(pieces, players=3)
    assert pages[:2] == [[PALETTE["0"]] * 5, [PALETTE["2"]] * 5]


def test_each_space_shows_what_the_view_puts_there_in_any_order():
    # A made-up map whose ids are prefixes of one another ("a1", "a10", "a1b"), as the painter
    # finds each space by searching the packed ids: no space may take another's colour.
    profile = dict(PROFILE, maps={"gouda": {"a1": [0], "a10": [1], "a1b": [2], "b": [3, 4]}})
    painter = Painter(profile, "gouda", GOUDA["palette"])

    def lit(v, now=0):
        frame = bytearray(3 * PROFILE["led"]["count"])
        painter.paint(frame, v, now, 3)
        return [px(frame, p) for p in range(5)]

    empty, cheese, target = PALETTE["empty"], PALETTE["cheese"], PALETTE["target"]
    assert lit(view()) == [empty] * 5
    # Two marks on a space: the first shows. Marks out of their spaces' order are sorted first.
    marks = [["a10", "cheese"], ["b", "target"], ["b", "cheese"], ["zz", "cheese"]]
    assert lit(view(marks=marks)) == [empty, cheese, empty, target, target]
    assert lit(view(marks=marks[::-1])) == [empty, cheese, empty, cheese, cheese]
    pieces = [["b", 2], ["a1b", 1], ["a1", 0], ["b", 0]]  # out of order too
    both = lit(view(marks=marks, pieces=pieces))  # a piece stands over a mark
    assert both == [PALETTE["0"], cheese, PALETTE["1"], PALETTE["0"], PALETTE["2"]]
    # A piece the view says blinks is hidden half the time, and what lies beneath shows.
    v = view(marks=marks, pieces=pieces, blink=["b"])
    assert lit(v, BLINK_MS) == [PALETTE["0"], cheese, PALETTE["1"], target, target]
    assert lit(v, 0) == both


def test_a_tumbling_die_draws_its_pixels_alone_and_the_frame_is_as_drawn_anew():
    from cheesefw.engine.play import ROLL_MS

    table = CpuTable(MemoryBoard(seed=5))
    choose_options(table, "gouda", {"players": 2})
    for _ in range(100):  # the mice placed, up to the first roll
        if table.state()["wait"] == "roll":
            break
        table.press("ok")
    table.wait(1)
    table.press("roll")
    play = table.engine.scene
    assert play.wait == "rolling"
    painted = []
    paint = play.painter.paint
    play.painter.paint = lambda *args: painted.append(args[2]) or paint(*args)
    whole = 0  # the ticks that painted the whole board
    for _ in range(ROLL_MS // 10 - 10):  # ticks of the main loop, while the die tumbles
        table.board.now += 10
        play.update(table.board.now)
        before = len(painted)
        table.engine.draw(table.frame)
        whole += len(painted) > before
        anew = bytearray(len(table.frame))
        play._drawn_into = None  # (drawn whole, into a frame of its own)
        table.engine.draw(anew)
        play._drawn_into = table.frame
        assert table.frame == anew
    # only where a blink or a colour's turn fell: not at each tick, nor at each 70 ms step
    assert 0 < whole < (ROLL_MS - 100) // 70
    assert play.wait == "rolling"
