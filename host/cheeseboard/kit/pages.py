"""The overlay on paper: tiled across A4 or Letter pages (overlapping, with marks where they
meet) when it is larger than one, and written as one PDF, each page at 1:1.

Each page is an SVG of the page's size in mm, showing its part of the sheet; cairosvg draws
them one after the other onto one PDF surface (libcairo's), so nothing is drawn twice.
"""

import io
import math
import re

from cheeseboard.kit.overlay import INK, _f, _fit, _text
from cheeseboard.kit.panel import PanelError

PAGES = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN = 10.0  # what a printer may leave blank at each edge
OVERLAP = 10.0  # each tile shares this much with the next, to glue them over each other
MM_PER_PT = 25.4 / 72


def page_size(name):
    """(width, height) in mm of a page named A4, Letter, or WIDTHxHEIGHT in mm."""
    if name in PAGES:
        return PAGES[name]
    m = re.fullmatch(r"(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)", name or "")
    if not m:
        raise PanelError("page: expected A4, Letter or WIDTHxHEIGHT in mm, got %r" % name)
    return float(m.group(1)), float(m.group(2))


def tiles(lay, page):
    """[(x0, y0)] of each page's top left corner on the sheet, row after row; the width and
    height each page shows. One page, the sheet centred, when it fits."""
    pw, ph = page_size(page)
    w, h = pw - 2 * MARGIN, ph - 2 * MARGIN
    if w >= lay.sheet_w and h >= lay.sheet_h:
        return [((lay.sheet_w - w) / 2, (lay.sheet_h - h) / 2)], (w, h)
    if min(w, h) < OVERLAP + 20:
        raise PanelError("page: %s leaves %s x %s mm inside its %s mm margins, too small to "
                         "tile the %s x %s mm overlay with %s mm overlaps"
                         % (page, _f(w), _f(h), _f(MARGIN), _f(lay.sheet_w), _f(lay.sheet_h),
                            _f(OVERLAP)))
    across = max(1, math.ceil((lay.sheet_w - OVERLAP) / (w - OVERLAP)))
    down = max(1, math.ceil((lay.sheet_h - OVERLAP) / (h - OVERLAP)))
    return [(i * (w - OVERLAP), j * (h - OVERLAP)) for j in range(down)
            for i in range(across)], (w, h)


def page_svgs(lay, body, page):
    """Each page as an SVG document, the overlay's body shown through its window."""
    pw, ph = page_size(page)
    corners, (w, h) = tiles(lay, page)
    out = []
    for k, (x0, y0) in enumerate(corners):
        dx, dy = MARGIN - x0, MARGIN - y0
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" '
                 'viewBox="0 0 %s %s" font-family="DejaVu Sans, sans-serif">\n'
                 % (_f(pw), _f(ph), _f(pw), _f(ph)),
                 '<defs><clipPath id="tile"><rect x="%s" y="%s" width="%s" height="%s"/>'
                 '</clipPath></defs>\n' % (_f(x0), _f(y0), _f(w), _f(h)),
                 '<g transform="translate(%s %s)" clip-path="url(#tile)">\n' % (_f(dx), _f(dy))]
        parts += body
        parts.append("</g>\n")
        if len(corners) > 1:
            parts += _overlap_marks(lay, corners, k, w, h, pw, ph)
        parts.append("</svg>\n")
        out.append("".join(parts))
    return out


def _overlap_marks(lay, corners, k, w, h, pw, ph):
    """Dashed lines where the next page's part begins, and which page this is."""
    x0, y0 = corners[k]
    out = []
    if x0 + w < lay.sheet_w:  # a page to the right: it starts OVERLAP before this one's edge
        x = MARGIN + w - OVERLAP
        out.append('<path d="M %s %s V %s" stroke="%s" stroke-width="0.2" '
                   'stroke-dasharray="2 1.5" class="overlap"/>\n'
                   % (_f(x), _f(MARGIN), _f(MARGIN + h), INK))
    if y0 + h < lay.sheet_h:
        y = MARGIN + h - OVERLAP
        out.append('<path d="M %s %s H %s" stroke="%s" stroke-width="0.2" '
                   'stroke-dasharray="2 1.5" class="overlap"/>\n'
                   % (_f(MARGIN), _f(y), _f(MARGIN + w), INK))
    across = sum(1 for c in corners if c[1] == corners[0][1])
    note = ("page %d of %d (row %d, column %d): the next page to the right and below lays "
            "over this one up to the dashed lines" % (k + 1, len(corners), k // across + 1,
                                                      k % across + 1))
    out.append(_text(pw / 2, ph - MARGIN / 2, note, _fit(note, pw - 2 * MARGIN, 2.4)))
    return out


def pdf(svgs):
    """The pages as one PDF's bytes, each page its SVG's size."""
    import cairocffi
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

    out = io.BytesIO()
    first = Tree(bytestring=svgs[0].encode())
    size = [float(first["width"][:-2]) / MM_PER_PT, float(first["height"][:-2]) / MM_PER_PT]
    target = cairocffi.PDFSurface(out, *size)

    class OnePage(PDFSurface):
        """cairosvg's PDF surface drawing onto the shared document, not a file of its own."""

        def _create_surface(self, width, height):
            target.set_size(width, height)
            return target, width, height

    for text in svgs:
        OnePage(Tree(bytestring=text.encode()), None, 96)
        target.show_page()
    target.finish()
    return out.getvalue()
