"""docs/gouda-board.svg is drawn from the rule table by host/cheeseboard/pictures/graphsvg.py."""

import json
import xml.etree.ElementTree as ET

from test_gouda_rules import ROOT, RULES

from cheeseboard.pictures import graphsvg


def test_board_svg_is_up_to_date():
    # Regenerate with: .venv/bin/python -m cheeseboard.pictures.graphsvg
    svg = (ROOT / "docs" / "gouda-board.svg").read_text(encoding="utf-8")
    assert svg == graphsvg.render_svg(RULES)


def test_svg_draws_every_space_and_link():
    svg = graphsvg.render_svg(RULES)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(ns + "text")]
    for sid, name, _up, _dn, _x, _y in RULES["spaces"]:
        assert sid in texts and name in texts
    links = sum(len(e[2].split()) for e in RULES["spaces"])
    assert len(list(root.iter(ns + "line"))) == links  # every down link is the way back of an up
    for points in RULES["variants"]["extra_cheese"].values():
        assert str(points) in texts


def test_main_writes_the_file(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps(RULES))
    out = tmp_path / "board.svg"
    assert graphsvg.main([str(rules), str(out)]) == 0
    assert out.read_text(encoding="utf-8") == graphsvg.render_svg(RULES)
