"""The board's picture: the game's overlay with every pixel glowing in its colour.

One geometry, three readers: `svg()` draws it, `png()` rasterises that same SVG (cairosvg,
over the system's libcairo), the terminal view labels its cells from `regions()`, and the
web board loads the SVG and recolours its pixels (each is `<circle id="px-N">`).

    picture.svg(profile, "gouda", frame)   -> SVG text
    picture.png(profile, "gouda", frame)   -> PNG bytes

profile is a hardware profile (a dict, as in hardware/profiles), game a key of its
`maps`, frame the R, G, B bytes of every pixel in chain order as the firmware wrote
them (None: the board is dark). The space names come from the game's rule table
(firmware/rules/GAME.json unless one is given).
"""

import json
from dataclasses import dataclass
from xml.sax.saxutils import escape

from cheeseboard import paths
from cheeseboard.profiles.docs import positions

CELL = 64  # px per pixel cell
MARGIN = 12
TITLE = 28  # px above the board for its title
DOT = 14  # a pixel's radius
BOARD = "#1d1f24"
INK = "#e8e8e8"
# A region's outline by kind: the overlay's printed spaces, then the fixed lights.
STROKE = {"space": "#8fb3de", "hole": "#c08ad8", "table": "#d0a070", "die": "#e0e0e0",
          "seat": "#f0b878", "status": "#f08a8a", "meter": "#a8d890"}


@dataclass
class Region:
    """A printed shape on the overlay: a space (or a fixed light) and the pixels under it."""

    key: str  # the space id ("jug", "c4") or the light's ("die", "seat 1", "status", "meter")
    name: str  # a second line: the space's name in the rule table, or its role ("hole")
    kind: str  # space, hole, table, die, seat, status or meter
    pixels: tuple


def read_table(game):
    """The game's default rule table, as the firmware carries it."""
    return json.loads((paths.FIRMWARE / "rules" / (game + ".json")).read_text())


def space_names(game, table):
    """{space id: (name, kind)} from a rule table (Gouda names its spaces; the kitchen's floor
    is squares, some of them mouse holes or under the table)."""
    names = {}
    for space in table.get("spaces", ()):
        names[space[0]] = (space[1], "space")
    for sq in table.get("holes", ()):
        names[sq] = ("hole", "hole")
    for sq in table.get("table", ()) if isinstance(table.get("table"), list) else ():
        names[sq] = ("table", "table")
    return names


def regions(profile, game, table=None):
    """Every region of one game's overlay, the spaces first (sorted by id), then the die,
    the seat lights, the status light and the meter."""
    if game not in profile["maps"]:
        raise ValueError("game: expected one of %s, got %r" % (", ".join(sorted(profile["maps"])),
                                                               game))
    names = space_names(game, read_table(game) if table is None else table)
    out = []
    for sid, pixels in sorted(profile["maps"][game].items()):
        name, kind = names.get(sid, ("", "space"))
        out.append(Region(sid, name, kind, tuple(pixels)))
    out.append(Region("die", "", "die", tuple(profile["die"])))
    for j, px in enumerate(profile["seats"]):
        out.append(Region("seat %d" % (j + 1), "", "seat", (px,)))
    out.append(Region("status", "", "status", (profile["status"],)))
    if profile.get("meter"):
        out.append(Region("meter", "", "meter", tuple(profile["meter"])))
    return out


def grid(profile):
    """(column, line) of each pixel, line 0 at the top: the matrix's row 0 at the bottom, as
    the layout diagrams draw it and as the overlay lies in front of the players."""
    height = profile["matrix"]["height"]
    return [(col, height - 1 - row) for col, row in positions(profile)]


def _cells(profile):
    """(x, y) of each pixel's cell's top-left corner in the picture."""
    return [(MARGIN + col * CELL, TITLE + MARGIN + line * CELL) for col, line in grid(profile)]


def _boxes(cells, pixels):
    """The shape of a region: one box over its cells when they fill a rectangle, else a box
    per cell. Each box is (x, y, width, height)."""
    xs = [cells[p][0] for p in pixels]
    ys = [cells[p][1] for p in pixels]
    w = (max(xs) - min(xs)) // CELL + 1
    h = (max(ys) - min(ys)) // CELL + 1
    if w * h == len(set(pixels)):
        return [(min(xs), min(ys), w * CELL, h * CELL)]
    return [(cells[p][0], cells[p][1], CELL, CELL) for p in pixels]


def label_row(profile, region):
    """The pixels, left to right, over which a region's labels are written: the bottom row
    of its (first) box (the terminal view writes them there too)."""
    cells = _cells(profile)
    x, y, w, h = _boxes(cells, region.pixels)[0]
    bottom = y + h - CELL
    return sorted((p for p in region.pixels if cells[p][1] == bottom and x <= cells[p][0] < x + w),
                  key=lambda p: cells[p][0])


def _fit(text, width, size):
    """A font size at which text fits in width (sans-serif, about 0.56 em a character)."""
    while size > 6 and len(text) * size * 0.56 > width - 6:
        size -= 1
    return size


def _text(x, y, s, size, weight="normal"):
    return ('<text x="%d" y="%d" font-size="%d" font-weight="%s" text-anchor="middle" '
            'fill="%s">%s</text>\n' % (x, y, size, weight, INK, escape(s)))


def size(profile):
    """The picture's (width, height) in px."""
    m = profile["matrix"]
    return 2 * MARGIN + m["width"] * CELL, TITLE + 2 * MARGIN + m["height"] * CELL


def rgb(frame, px):
    """Pixel px's colour in a frame as CSS text (dark when there is no frame)."""
    if not frame or 3 * px + 2 >= len(frame):
        return "rgb(0,0,0)"
    return "rgb(%d,%d,%d)" % (frame[3 * px], frame[3 * px + 1], frame[3 * px + 2])


def svg(profile, game, frame=None, table=None):
    """The board as SVG text: overlay, labels, and each pixel as <circle id="px-N">."""
    if frame is not None and len(frame) != 3 * profile["led"]["count"]:
        raise ValueError("frame: expected %d bytes, got %d"
                         % (3 * profile["led"]["count"], len(frame)))
    cells = _cells(profile)
    width, height = size(profile)
    body = ['<rect width="100%%" height="100%%" fill="%s"/>\n' % BOARD,
            '<text x="%d" y="%d" font-size="15" font-weight="bold" fill="%s">%s: %s</text>\n'
            % (MARGIN, 22, INK, escape(profile["name"]), escape(game))]
    for region in regions(profile, game, table):
        boxes = _boxes(cells, region.pixels)
        body.append('<g class="region %s" data-key="%s">\n' % (region.kind, escape(region.key)))
        for x, y, w, h in boxes:
            body.append('<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="none" '
                        'stroke="%s" stroke-width="2"/>\n'
                        % (x + 3, y + 3, w - 6, h - 6, STROKE[region.kind]))
        x, y, w, h = boxes[0]
        # The labels go under the shape's bottom row of pixels (a column's: its lowest).
        lx, ly = x + w // 2, y + h - CELL
        body.append(_text(lx, ly + 47, region.key, _fit(region.key, w, 12), "bold"))
        if region.name and region.name != region.key:
            body.append(_text(lx, ly + 57, region.name, _fit(region.name, w, 9)))
        body.append("</g>\n")
    for px, (x, y) in enumerate(cells):
        body.append('<circle id="px-%d" class="px" cx="%d" cy="%d" r="%d" fill="%s" '
                    'stroke="#000" stroke-width="1"/>\n'
                    % (px, x + CELL // 2, y + 24, DOT, rgb(frame, px)))
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d" font-family="DejaVu Sans, sans-serif">\n%s</svg>\n'
            % (width, height, width, height, "".join(body)))


def png(profile, game, frame=None, table=None, scale=1.0):
    """The same picture as PNG bytes (the SVG above, rasterised)."""
    import cairosvg

    return cairosvg.svg2png(bytestring=svg(profile, game, frame, table).encode(), scale=scale)
