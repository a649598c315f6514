"""The board as a picture, for snapshot steps and failures: the project's one drawing
(cheeseboard.pictures.picture, the same as the web board's and `cheeseboard snapshot`'s)."""

import re

_PIXEL_FILL = re.compile(rb'(<circle id="px-\d+" [^>]*?fill=")rgb\((\d+),(\d+),(\d+)\)')


class NoPicture(Exception):
    """The picture cannot be drawn here."""


def draw(profile, game, frame, table, suffix):
    """The picture's bytes: SVG, or PNG for a .png file."""
    try:
        from cheeseboard.pictures import picture
    except ImportError:
        raise NoPicture("no picture: cheeseboard.pictures.picture is not in this "
                        "checkout") from None
    if suffix == ".png":
        try:
            return picture.png(profile, game, frame, table)
        except ImportError as e:
            raise NoPicture("no PNG here (%s): name the snapshot .svg" % e) from None
    return picture.svg(profile, game, frame, table).encode()


def same(picture, reference, tolerance):
    """Whether two pictures show the same board: an SVG's drawing identical but for its pixels'
    colours, each R, G, B within tolerance; a PNG byte for byte."""
    if picture == reference:
        return True
    mine, theirs = _PIXEL_FILL.findall(picture), _PIXEL_FILL.findall(reference)
    if not mine or len(mine) != len(theirs):
        return False
    if _PIXEL_FILL.sub(rb"\1", picture) != _PIXEL_FILL.sub(rb"\1", reference):
        return False  # the overlay, the labels or the layout differ
    return all(abs(int(a) - int(b)) <= tolerance
               for m, t in zip(mine, theirs, strict=True)
               for a, b in zip(m[1:], t[1:], strict=True))
