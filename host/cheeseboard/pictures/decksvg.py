"""Draw the designed Gatenkaas deck (firmware/rules/gatenkaas.json) as SVG: docs/gatenkaas-deck.svg.

Pure standard library. Every card of the table is drawn face up in its first orientation, cell
by cell as the rule table writes it: a mouse in its colour, a hole as an open ring, the card's
body plain (cat cards blue), with its id (the number the log and the hints use). Below, the
play area with the start card where the game lays it.

    python -m cheeseboard.pictures.decksvg [rules.json [out.svg]]
"""

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from cheeseboard.pictures import write_svg

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "firmware" / "rules" / "gatenkaas.json"
OUT = ROOT / "docs" / "gatenkaas-deck.svg"

CELL = 22  # pixels per cell
GAP = 16  # between cards
PER_ROW = 8  # cards a row
MARGIN = 20
BODY = {"start": "#f3e6c8", "cat": "#9fb6e0", "mouse": "#f7f1e3"}
COLOURS = {"green": "#2e9e3a", "purple": "#8e3fc7", "yellow": "#e3b500", "red": "#d12c2c"}


def cards(rules):
    """(id, kind, face rows) of every card, in id order: start, cats, mice."""
    out = [(0, "start", rules["start"]["face"])]
    for face in rules["cats"]:
        out.append((len(out), "cat", face))
    for face in rules["mice"]:
        out.append((len(out), "mouse", face))
    return out


def _text(x, y, text, size=11, anchor="middle", weight="normal"):
    return ('<text x="%d" y="%d" font-size="%d" text-anchor="%s" font-weight="%s">%s</text>\n'
            % (x, y, size, anchor, weight, escape(str(text))))


def _card(x, y, kind, face, letters, colours):
    """The SVG elements of one card's face with its top-left corner at (x, y)."""
    w, h = len(face[0]), len(face)
    body = ['<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" stroke="#333"/>\n'
            % (x, y, w * CELL, h * CELL, BODY[kind])]
    for r, row in enumerate(face):
        for c, ch in enumerate(row):
            cx, cy = x + c * CELL + CELL // 2, y + r * CELL + CELL // 2
            if ch == "o":  # a hole: the table (or a card) shows through
                body.append('<circle cx="%d" cy="%d" r="8" fill="white" stroke="#333" '
                            'stroke-dasharray="2,2"/>\n' % (cx, cy))
            elif ch != ".":
                colour = colours[letters.index(ch)]
                body.append('<circle cx="%d" cy="%d" r="7" fill="%s" stroke="#222"/>\n'
                            % (cx, cy, COLOURS.get(colour, "#777")))
    return body


def render_svg(rules):
    """The deck and the play area of a parsed Gatenkaas rule table, as an SVG document."""
    colours = rules["colours"]
    letters = "".join(c[0] for c in colours)
    w, h = rules["card"]["width"], rules["card"]["height"]
    card_w, card_h = w * CELL, h * CELL + 16
    deck = cards(rules)
    rows = (len(deck) + PER_ROW - 1) // PER_ROW
    grid = rules["grid"]
    area_y = MARGIN + 40 + rows * (card_h + GAP) + 30
    width = max(PER_ROW * (card_w + GAP), grid["cols"] * CELL) + 2 * MARGIN
    height = area_y + grid["rows"] * CELL + 60
    body = [_text(MARGIN, MARGIN + 4, "Gatenkaas: the designed deck (%d cards, %dx%d cells)"
                  % (len(deck), w, h), 15, "start", "bold")]
    legend = "mice: " + ", ".join(colours) + ";  dashed ring: a hole;  blue: a cat card"
    body.append(_text(MARGIN, MARGIN + 22, legend, 11, "start"))
    for i, (card, kind, face) in enumerate(deck):
        x = MARGIN + (i % PER_ROW) * (card_w + GAP)
        y = MARGIN + 40 + (i // PER_ROW) * (card_h + GAP)
        body += _card(x, y, kind, face, letters, colours)
        body.append(_text(x + card_w // 2, y + h * CELL + 13, "%s %d" % (kind, card), 10))
    body.append(_text(MARGIN, area_y - 10, "The play area (%dx%d cells, a1 top left) with the "
                      "start card" % (grid["cols"], grid["rows"]), 13, "start", "bold"))
    body.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#e8f0e0" stroke="#333"/>\n'
                % (MARGIN, area_y, grid["cols"] * CELL, grid["rows"] * CELL))
    for c in range(grid["cols"]):
        body.append(_text(MARGIN + c * CELL + CELL // 2, area_y + grid["rows"] * CELL + 14,
                          chr(97 + c), 10))
    start = rules["start"]
    body += _card(MARGIN + start["col"] * CELL, area_y + start["row"] * CELL, "start",
                  start["face"], letters, colours)
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'font-family="sans-serif">\n<!-- generated from firmware/rules/gatenkaas.json by '
            '`python -m cheeseboard.pictures.decksvg` -->\n<rect width="100%%" height="100%%" '
            'fill="white"/>\n%s</svg>\n' % (width, height, "".join(body)))


def main(argv=None):
    """Write the SVG of a rule table (default: gatenkaas.json to docs/gatenkaas-deck.svg)."""
    return write_svg(render_svg, RULES, OUT, argv)


if __name__ == "__main__":
    sys.exit(main())
