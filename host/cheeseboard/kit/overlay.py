"""A game's overlay at 1:1, as SVG in millimetres: a window over each pixel that shows
something, the game's art around it (its spaces with their rule-table names, its paths, the
die, the seats in the players' colours, the status light, the meter), the buttons' holes,
registration marks, a 50 mm bar to check the print's scale, and a line of the LED language.

Drawn from the profile's map and the game's rule table, the data the board plays from: a
space renamed in the table is renamed on the overlay. The window is a cut line
(`class="window"`, one `<rect>` per pixel, centred on it), as is the sheet's outline.
"""

from xml.sax.saxutils import escape

from cheeseboard.kit.panel import BUTTON_HOLE
from cheeseboard.pictures.picture import read_table, regions

TITLES = {"gouda": "The Gouda race", "kitchen": "The kitchen: cat and mice",
          "kalle": "Kalle Kanalratte", "katz": "Alles für die Katz", "gatenkaas": "Gatenkaas"}
LEGEND = ("your seat blinks: your turn · white blink: the move on offer (prev/next, ok) · "
          "red flash: not now · hold prev: take back · hold back: abandon")
CUT = "#e4007c"  # the cutter's line: windows, button holes, the sheet's edge
INK = "#222"
FILL = {"space": "#dbe8f6", "hole": "#ead9f2", "table": "#f2e2cc", "die": "#eeeeee",
        "seat": "#ffffff", "status": "#fbd3d3", "meter": "#dff0d6"}
TRAP = "#f4c6bd"
WORDS = {"die": "die", "status": "status light", "meter": "meter"}


def _f(v):
    """A length in mm as the SVG's text: a hundredth of a millimetre is plenty."""
    return ("%.2f" % v).rstrip("0").rstrip(".")


def _text(x, y, s, size, weight="normal", anchor="middle", fill=INK):
    return ('<text x="%s" y="%s" font-size="%s" font-weight="%s" text-anchor="%s" fill="%s">'
            '%s</text>\n' % (_f(x), _f(y), _f(size), weight, anchor, fill, escape(s)))


def _fit(s, width, most):
    """A font size (mm) that fits s across width mm, at most `most`."""
    return min(most, width / (0.62 * max(len(s), 1)))


def labels(game, table, profile):
    """{region key: the words printed by it}: a space's own name when the table gives it one
    no other space has (Gouda's "big jug"), else its id and its kind ("f04 trap")."""
    regs = regions(profile, game, table)
    counts = {}
    for r in regs:
        counts[r.name] = counts.get(r.name, 0) + 1
    out = {}
    for r in regs:
        if r.kind == "seat":
            out[r.key] = r.key
        elif r.kind in WORDS:
            out[r.key] = WORDS[r.kind]
        elif r.name and counts[r.name] == 1:
            out[r.key] = r.name
        elif r.name and r.name != r.key:
            out[r.key] = "%s %s" % (r.key, r.name)
        else:
            out[r.key] = r.key
    return out


def _paths(game, table):
    """The course's links between spaces, as (from, to) ids: Gouda's arrows up the board,
    the Katz road field after field."""
    spaces = table.get("spaces", ())
    if game == "gouda":
        return [(s[0], nxt) for s in spaces for nxt in s[2].split()]
    if game == "katz":
        return [(a[0], b[0]) for a, b in zip(spaces, spaces[1:], strict=False)]
    return []


def _box(lay, pixels):
    """The cells' bounding box (x, y, w, h), each cell a pitch square around its pixel."""
    xs = [lay.pixels[p][0] for p in pixels]
    ys = [lay.pixels[p][1] for p in pixels]
    half = lay.pitch / 2
    return min(xs) - half, min(ys) - half, max(xs) - min(xs) + lay.pitch, \
        max(ys) - min(ys) + lay.pitch


def _colour(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def body(lay, profile, game, table=None):
    """The overlay's SVG elements, in the sheet's millimetres."""
    table = read_table(game) if table is None else table
    regs = regions(profile, game, table)
    words = labels(game, table, profile)
    palette = table.get("palette", {})
    out = ['<rect x="0" y="0" width="%s" height="%s" fill="white" stroke="%s" '
           'stroke-width="0.2" class="edge"/>\n' % (_f(lay.sheet_w), _f(lay.sheet_h), CUT)]
    out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="#fbfaf6" stroke="#999" '
               'stroke-width="0.15" stroke-dasharray="1 1" class="panel"/>\n'
               % (_f(lay.panel_x), _f(lay.panel_y), _f(lay.panel_w), _f(lay.panel_h)))
    out += _title(lay, game)
    for r in regs:
        x, y, w, h = _box(lay, r.pixels)
        fill = TRAP if r.name == "trap" else FILL[r.kind]  # the Katz road's traps stand out
        if r.kind == "seat":
            seat = int(r.key.split()[1]) - 1
            fill = _colour(palette[str(seat)]) if str(seat) in palette else fill
        out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s" stroke="#777" '
                   'stroke-width="0.15" class="art %s"/>\n'
                   % (_f(x + 0.3), _f(y + 0.3), _f(w - 0.6), _f(h - 0.6), _f(lay.pitch / 6),
                      fill, r.kind))
    centre = {r.key: _centre(lay, r.pixels) for r in regs}
    for a, b in _paths(game, table):
        if a in centre and b in centre:
            out.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#b08040" '
                       'stroke-width="0.5" class="path"/>\n'
                       % (_f(centre[a][0]), _f(centre[a][1]), _f(centre[b][0]),
                          _f(centre[b][1])))
    for r in regs:
        for px in r.pixels:
            cx, cy = lay.pixels[px]
            out.append('<rect id="w-%d" class="window" x="%s" y="%s" width="%s" height="%s" '
                       'fill="white" stroke="%s" stroke-width="0.1"/>\n'
                       % (px, _f(cx - lay.window / 2), _f(cy - lay.window / 2), _f(lay.window),
                          _f(lay.window), CUT))
    for r in regs:
        out.append(_label(lay, r, words[r.key]))
    out += _marks(lay)
    out += _buttons(lay)
    out.append(_text(lay.sheet_w / 2, lay.sheet_h - 3, LEGEND, _fit(LEGEND, lay.sheet_w - 4, 2)))
    return out


def _centre(lay, pixels):
    xs = [lay.pixels[p][0] for p in pixels]
    ys = [lay.pixels[p][1] for p in pixels]
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _label(lay, region, words):
    """The region's words in the band under its lowest windows."""
    x, y, w, h = _box(lay, region.pixels)
    band = (lay.pitch - lay.window) / 2
    size = _fit(words, w - 0.4, max(band * 0.8, 0.9))
    return _text(x + w / 2, y + h - band / 2 + size * 0.35, words, size, "bold")


def _title(lay, game):
    title = "%s · %s, %s panel, pitch %s mm" % (TITLES.get(game, game), lay.name, lay.kind,
                                                _f(lay.pitch))
    out = [_text(lay.panel_x, 6, title, _fit(title, lay.sheet_w - 2 * lay.panel_x, 3.2),
                 "bold", "start")]
    # 50 mm at 1:1 (less on a narrow sheet): measure it to check the print's scale.
    bar = 50.0 if lay.sheet_w > 60 else 20.0
    x, y = lay.panel_x, 10
    out.append('<path d="M %s %s h %s M %s %s v 2 M %s %s v 2" stroke="%s" stroke-width="0.3" '
               'class="scale"/>\n' % (_f(x), _f(y), _f(bar), _f(x), _f(y - 1), _f(x + bar),
                                      _f(y - 1), INK))
    out.append(_text(x + bar + 1, y + 0.8, "%d mm at 100%%" % bar, 2, anchor="start"))
    return out


def _marks(lay):
    """A registration mark at each of the panel's corners: it lines the overlay up with the
    grid and the panel's edge."""
    out = []
    for x in (lay.panel_x, lay.panel_x + lay.panel_w):
        for y in (lay.panel_y, lay.panel_y + lay.panel_h):
            out.append('<g class="mark"><circle cx="%s" cy="%s" r="1.5" fill="none" stroke="%s" '
                       'stroke-width="0.15"/><path d="M %s %s h 5 M %s %s v 5" stroke="%s" '
                       'stroke-width="0.15"/></g>\n'
                       % (_f(x), _f(y), INK, _f(x - 2.5), _f(y), _f(x), _f(y - 2.5), INK))
    return out


def _buttons(lay):
    out = []
    for name, x, y in lay.buttons:
        out.append('<circle cx="%s" cy="%s" r="%s" fill="white" stroke="%s" stroke-width="0.2" '
                   'class="button"/>\n' % (_f(x), _f(y), _f(BUTTON_HOLE / 2), CUT))
        out.append(_text(x, y + BUTTON_HOLE / 2 + 4, name, 3.2, "bold"))
    return out


def svg(lay, profile, game, table=None):
    """The overlay as a whole SVG document, 1:1 (its width and height in mm)."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
            'viewBox="0 0 %s %s" font-family="DejaVu Sans, sans-serif">\n'
            '<!-- generated from hardware/profiles/%s.json and firmware/rules/%s.json by '
            '`cheeseboard overlay` -->\n%s</svg>\n'
            % (_f(lay.sheet_w), _f(lay.sheet_h), _f(lay.sheet_w), _f(lay.sheet_h), lay.name,
               game, "".join(body(lay, profile, game, table))))
