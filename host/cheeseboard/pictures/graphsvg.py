"""Draw the Gouda race's board graph (firmware/rules/gouda.json) as SVG: docs/gouda-board.svg.

Pure standard library. A space in the table is [id, name, "ids up", "ids down", x, y]; it is
drawn at its (x, y) cell (x across, y up); an arrow goes from a space to every space up of it; a
down link that is not the way back of an up link gets a dashed red arrow of its own. Start
spaces, the table and lateral spaces are told apart by colour; a space with an extra cheese (the
designer's variant) shows its points.

    python -m cheeseboard.pictures.graphsvg [rules.json [out.svg]]
"""

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from cheeseboard.pictures import write_svg

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "firmware" / "rules" / "gouda.json"
OUT = ROOT / "docs" / "gouda-board.svg"

CELL_X = 80  # pixels per x unit
CELL_Y = 42  # pixels per y unit
BOX_W = 136
BOX_H = 44
MARGIN = 40
FILL = {"start": "#e8cfa8", "top": "#ffd24d", "lat": "#cfe3f7", "path": "#ffffff"}


def render_svg(rules):
    """The board graph of a parsed Gouda rule table, as an SVG document (a str)."""
    spaces = [
        {"id": e[0], "n": e[1], "up": e[2].split(), "dn": e[3].split(), "xy": (e[4], e[5])}
        for e in rules["spaces"]
    ]
    by_id = {s["id"]: s for s in spaces}
    start = set(rules["start"])
    lat = set(rules.get("lat", []))
    top = rules["top"]
    cheese = rules.get("variants", {}).get("extra_cheese", {})
    max_x = max(s["xy"][0] for s in spaces)
    max_y = max(s["xy"][1] for s in spaces)
    width = max_x * CELL_X + BOX_W + 2 * MARGIN
    height = max_y * CELL_Y + BOX_H + 2 * MARGIN + 60

    def centre(sid):
        x, y = by_id[sid]["xy"]
        return MARGIN + BOX_W // 2 + x * CELL_X, MARGIN + BOX_H // 2 + (max_y - y) * CELL_Y

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        "<title>The Gouda race: board graph (firmware/rules/gouda.json)</title>",
        "<defs>",
        '<marker id="up" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker>',
        '<marker id="dn" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#b22"/></marker>',
        "</defs>",
        f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
    ]
    ups = set()
    for s in spaces:
        for u in s["up"]:
            ups.add((s["id"], u))
            out.append(_arrow(centre(s["id"]), centre(u), "up", "#444", ""))
    for s in spaces:
        for d in s["dn"]:
            if (d, s["id"]) not in ups:  # a red link that is not the way back of a green one
                out.append(
                    _arrow(centre(s["id"]), centre(d), "dn", "#b22", ' stroke-dasharray="5,4"')
                )
    for s in spaces:
        sid = s["id"]
        kind = "start" if sid in start else "top" if sid == top else "lat" if sid in lat else "path"
        cx, cy = centre(sid)
        x0 = cx - BOX_W // 2
        y0 = cy - BOX_H // 2
        out.append(
            f'<rect x="{x0}" y="{y0}" width="{BOX_W}" height="{BOX_H}" rx="9" '
            f'fill="{FILL[kind]}" stroke="#333" stroke-width="1.5"/>'
        )
        out.append(
            f'<text x="{cx}" y="{cy - 4}" text-anchor="middle" font-size="13" '
            f'font-weight="bold">{escape(sid)}</text>'
        )
        out.append(
            f'<text x="{cx}" y="{cy + 12}" text-anchor="middle" font-size="10">'
            f"{escape(s.get('n', ''))}</text>"
        )
        if sid in cheese:
            out.append(
                f'<circle cx="{x0 + BOX_W - 4}" cy="{y0 + 4}" r="11" fill="#ff8c1a" stroke="#333"/>'
            )
            out.append(
                f'<text x="{x0 + BOX_W - 4}" y="{y0 + 8}" text-anchor="middle" font-size="11" '
                f'font-weight="bold">{cheese[sid]}</text>'
            )
    ly = height - 40
    legend = [("start", "start space"), ("path", "middle path"), ("lat", "lateral space")]
    legend.append(("top", "the table (cheese)"))
    lx = MARGIN
    for kind, label in legend:
        out.append(
            f'<rect x="{lx}" y="{ly}" width="18" height="14" rx="3" fill="{FILL[kind]}" '
            'stroke="#333"/>'
        )
        out.append(f'<text x="{lx + 24}" y="{ly + 11}" font-size="11">{escape(label)}</text>')
        lx += 24 + 7 * len(label) + 18
    out.append(
        f'<text x="{MARGIN}" y="{ly + 32}" font-size="11">arrows: green moves a mouse up; '
        "a red takes it back along the arrow. Orange disc: extra-cheese points.</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _arrow(a, b, marker, colour, extra):
    """A line from box centre a to the edge of box b, with an arrowhead."""
    (x1, y1), (x2, y2) = a, b
    # Stop at b's box edge: shrink the segment so that it ends on the box outline.
    dx, dy = x2 - x1, y2 - y1
    sx = (BOX_W / 2) / abs(dx) if dx else float("inf")
    sy = (BOX_H / 2) / abs(dy) if dy else float("inf")
    f = 1 - min(sx, sy, 1)
    ex, ey = round(x1 + dx * f), round(y1 + dy * f)
    return (
        f'<line x1="{x1}" y1="{y1}" x2="{ex}" y2="{ey}" stroke="{colour}" stroke-width="1.6" '
        f'marker-end="url(#{marker})"{extra}/>'
    )


def main(argv=None):
    """Write the SVG of a rule table (default: gouda.json to docs/gouda-board.svg)."""
    return write_svg(render_svg, RULES, OUT, argv)


if __name__ == "__main__":
    sys.exit(main())
