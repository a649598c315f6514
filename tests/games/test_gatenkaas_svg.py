"""docs/gatenkaas-deck.svg is drawn from the rule table by host/cheeseboard/pictures/decksvg.py."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from cheeseboard.pictures import decksvg

ROOT = Path(__file__).resolve().parents[2]
RULES = json.loads((ROOT / "firmware/rules/gatenkaas.json").read_text())
NS = "{http://www.w3.org/2000/svg}"


def test_deck_svg_is_up_to_date():
    # Regenerate with: .venv/bin/python -m cheeseboard.pictures.decksvg
    svg = (ROOT / "docs" / "gatenkaas-deck.svg").read_text(encoding="utf-8")
    assert svg == decksvg.render_svg(RULES)


def test_svg_draws_every_card_mouse_and_hole():
    root = ET.fromstring(decksvg.render_svg(RULES))
    texts = [t.text for t in root.iter(NS + "text")]
    assert "start 0" in texts and "cat 4" in texts and "mouse 28" in texts
    faces = "".join("".join(f) for f in [RULES["start"]["face"]] + RULES["cats"] + RULES["mice"])
    start = "".join(RULES["start"]["face"])  # drawn twice: in the deck and on the play area
    rings = [c for c in root.iter(NS + "circle") if c.get("stroke-dasharray")]
    mice = [c for c in root.iter(NS + "circle") if not c.get("stroke-dasharray")]
    assert len(rings) == faces.count("o")
    assert len(mice) == len([ch for ch in faces + start if ch not in ".o"])


def test_main_writes_the_file(tmp_path):
    out = tmp_path / "deck.svg"
    assert decksvg.main([str(ROOT / "firmware/rules/gatenkaas.json"), str(out)]) == 0
    assert out.read_text(encoding="utf-8") == decksvg.render_svg(RULES)
