"""The board's picture: every pixel in the frame's colour, every space where the profile puts it."""

import io
import random
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from cheeseboard import paths
from cheeseboard.pictures import picture
from cheesefw.games import GAMES

SVG = "{http://www.w3.org/2000/svg}"


def random_frame(profile, seed):
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(3 * profile["led"]["count"]))


def circles(svg_text):
    """{pixel: (cx, cy, fill)} of the picture's pixels."""
    out = {}
    for c in ET.fromstring(svg_text).iter(SVG + "circle"):
        out[int(c.get("id")[3:])] = (float(c.get("cx")), float(c.get("cy")), c.get("fill"))
    return out


def fill_rgb(fill):
    return tuple(int(v) for v in fill[4:-1].split(","))


@pytest.mark.parametrize("name", paths.profile_names())
def test_every_pixel_is_drawn_in_the_frames_colour(name):
    profile = paths.load_profile(name)
    frame = random_frame(profile, name)
    for game in profile["maps"]:
        drawn = circles(picture.svg(profile, game, frame))
        assert sorted(drawn) == list(range(profile["led"]["count"]))
        for px, (_, _, fill) in drawn.items():
            assert fill_rgb(fill) == tuple(frame[3 * px:3 * px + 3]), (game, px)


def test_the_png_is_the_svg_rasterised():
    profile = paths.load_profile("pico")
    frame = random_frame(profile, 1)
    png = Image.open(io.BytesIO(picture.png(profile, "gouda", frame))).convert("RGB")
    assert png.size == picture.size(profile)
    for px, (cx, cy, _) in circles(picture.svg(profile, "gouda", frame)).items():
        assert png.getpixel((int(cx), int(cy))) == tuple(frame[3 * px:3 * px + 3]), px


def labels(svg_text):
    return [t.text for t in ET.fromstring(svg_text).iter(SVG + "text")]


def test_each_space_has_its_id_and_its_rule_table_name():
    profile = paths.load_profile("pico")
    text = labels(picture.svg(profile, "gouda"))
    for sid, name, *_ in picture.read_table("gouda")["spaces"]:
        assert sid in text
        assert name == sid or name in text, name
    for light in ("die", "status", "meter", "seat 1", "seat 6"):
        assert light in text
    kitchen = labels(picture.svg(profile, "kitchen"))
    assert {"a1", "f7", "hole", "table"} <= set(kitchen)


def test_a_space_of_several_pixels_is_one_shape_over_them():
    profile = paths.load_profile("pico")
    root = ET.fromstring(picture.svg(profile, "gouda"))
    table = [g for g in root.iter(SVG + "g") if g.get("data-key") == "table"][0]
    boxes = list(table.iter(SVG + "rect"))
    assert len(boxes) == 1
    assert int(boxes[0].get("width")) == 4 * picture.CELL - 6  # pixels 49-52: four in a row
    die = [g for g in root.iter(SVG + "g") if g.get("data-key") == "die"][0]
    assert int(list(die.iter(SVG + "rect"))[0].get("height")) == 5 * picture.CELL - 6


def test_rows_go_up_from_pixel_zero_as_in_the_layout_diagrams():
    profile = paths.load_profile("pico")
    drawn = circles(picture.svg(profile, "kitchen"))
    assert drawn[0][1] > drawn[15][1]  # a2 above a1
    assert drawn[0][0] == drawn[15][0]  # serpentine: the same column


def test_a_wrong_frame_or_game_is_refused_by_name():
    profile = paths.load_profile("pico")
    with pytest.raises(ValueError, match="frame: expected 192 bytes, got 3"):
        picture.svg(profile, "gouda", b"\0\0\0")
    shown = sorted(g for g in GAMES if g in paths.load_profile("pico")["maps"])
    with pytest.raises(ValueError, match="game: expected one of %s, got 'chess'"
                       % ", ".join(shown)):
        picture.svg(profile, "chess")


@pytest.mark.board
def test_snapshot_draws_a_running_virtual_board(vboard, tmp_path):
    vboard.wait_protocol()
    frame = vboard.link.wait_frame(0)
    game = vboard.request("state")["state"]["game"]
    vboard.release_console()  # the snapshot asks the board itself which game it shows
    out_svg, out_png = tmp_path / "b.svg", tmp_path / "b.png"
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "snapshot", "--control",
                        vboard.control, str(out_svg), str(out_png)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "wrote %s (%s," % (out_svg, game) in r.stdout
    profile = paths.load_profile("pico")
    assert out_svg.read_text() == picture.svg(profile, game, vboard.link.frame)
    assert vboard.link.frame == frame  # the menu drew nothing new meanwhile
    assert Image.open(out_png).size == picture.size(profile)


def test_snapshot_without_a_board_says_how_to_start_one(tmp_path):
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "snapshot", "--control",
                        str(tmp_path / "none.sock"), str(tmp_path / "b.svg")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert "no virtual board at" in r.stderr and "cheeseboard sim" in r.stderr
    assert "Traceback" not in r.stderr
