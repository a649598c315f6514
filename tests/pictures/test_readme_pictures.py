"""The README's pictures (docs/pictures/, made by tests/pictures/readme_pictures.py with
`cheeseboard snapshot`) are what the current firmware, profile and drawing give: else they are
stale."""

import io
import re
import xml.etree.ElementTree as ET

import pytest
import readme_pictures
from PIL import Image

from cheeseboard import paths
from cheeseboard.pictures import picture

SVG = "{http://www.w3.org/2000/svg}"
FIX = "stale: rerun `.venv/bin/python tests/pictures/readme_pictures.py` and commit docs/pictures/"


def drawn_frame(svg_text):
    """The frame a picture shows, read back from its pixels' colours."""
    fills = {int(c.get("id")[3:]): c.get("fill")
             for c in ET.fromstring(svg_text).iter(SVG + "circle")}
    frame = bytearray()
    for px in range(len(fills)):
        frame.extend(int(v) for v in re.match(r"rgb\((\d+),(\d+),(\d+)\)", fills[px]).groups())
    return bytes(frame)


@pytest.mark.parametrize("game", sorted(readme_pictures.POSITIONS))
def test_the_readme_picture_of_each_game_is_up_to_date(game):
    out = readme_pictures.OUT
    profile = paths.load_profile(readme_pictures.PROFILE)
    journal = (out / ("%s-journal.txt" % game)).read_bytes()
    assert journal == readme_pictures.journal(game), "the game's moves changed: " + FIX
    svg = (out / ("%s.svg" % game)).read_text()
    frame = drawn_frame(svg)
    assert svg == picture.svg(profile, game, frame), "the drawing changed: " + FIX
    assert frame in readme_pictures.frames(game, journal), "the firmware paints it otherwise: " \
        + FIX
    png = Image.open(io.BytesIO((out / ("%s.png" % game)).read_bytes())).convert("RGB")
    assert png.size == picture.size(profile)
    for c in ET.fromstring(svg).iter(SVG + "circle"):
        px = int(c.get("id")[3:])
        assert png.getpixel((int(c.get("cx")), int(c.get("cy")))) == \
            tuple(frame[3 * px:3 * px + 3]), "the PNG is not the SVG: " + FIX
    readme = (paths.ROOT / "README.md").read_text()
    assert "(docs/pictures/%s.png)" % game in readme
