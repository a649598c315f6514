"""The web board seen as colour-blind players see it: the page's matrices are daltonlens's
Machado (2009) matrices, and the colours it draws match the simulation the LED language's checks
run (tests/colour_vision.py) within 2 of 255 per channel (daltonlens truncates, the page
rounds; its float32 against the page's doubles)."""

import json
import re
import sys
from pathlib import Path

import pytest
from daltonlens import simulate
from webpage import MISSING, ROOT

# The LED language's own simulation (tests/engine/colour_vision.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from colour_vision import _DEFICIENCY, simulated  # noqa: E402

if not MISSING:  # the browser's fixtures (the page's tests skip where they cannot run)
    from test_web_browser import browser, open_board, site  # noqa: F401

VISION_JS = ROOT / "host" / "cheeseboard" / "web" / "vision.mjs"
TOLERANCE = 2


def page_matrices():
    text = VISION_JS.read_text()
    return {name: json.loads(values) for name, values in
            re.findall(r"^  (\w+): (\[[^\]]*\]),$", text, re.M)}


def test_the_pages_matrices_are_machados_at_full_severity():
    matrices = page_matrices()
    assert sorted(matrices) == ["deutan", "protan", "tritan"]
    for name, values in matrices.items():
        expected = simulate.machado_2009_matrices[_DEFICIENCY[name]][10].flatten()
        assert values == pytest.approx([float(v) for v in expected], abs=1e-6), name


def off(a, b):
    """How far two colours are apart, in the channel where they differ most."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def palette_colours():
    """Every colour of every game's palette, and a few dim ones (the seat lights)."""
    colours = set()
    for table in (ROOT / "firmware" / "rules").glob("*.json"):
        for rgb in json.loads(table.read_text()).get("palette", {}).values():
            colours.add(tuple(rgb))
    return sorted(colours) + [(20, 20, 20), (0, 5, 31), (70, 35, 10), (255, 255, 255)]


@pytest.mark.skipif(bool(MISSING), reason=str(MISSING))
def test_the_page_draws_each_vision_as_the_checks_simulate_it(browser, site, open_board):
    board = open_board(fake_clock=True)
    board.boot()
    board.menu("gouda", {"players": 3})
    colours = [list(c) for c in palette_colours()]
    for vision in ("protan", "deutan", "tritan"):
        got = board.js("import('./vision.mjs').then(m => %s.map(c => m.seen(c, %r)))"
                       % (json.dumps(colours), vision))
        for colour, shown in zip(colours, got, strict=True):
            want = simulated(colour, vision)
            assert off(shown, want) <= TOLERANCE, (vision, colour)
        # The board itself: choose the vision, and each pixel of the frame is drawn as seen.
        board.page.select_option("#vision", vision)
        hexa, fills = board.js("[window.cheeseboard.frameHex(), Array.from(document"
                               ".querySelectorAll('#picture circle.px'), c => [+c.id.slice(3), "
                               "c.getAttribute('fill')])]")
        frame = bytes.fromhex(hexa)
        assert len({f for _, f in fills}) > 3
        for px, fill in fills:
            want = simulated(tuple(frame[3 * px:3 * px + 3]), vision)
            drawn = tuple(int(v) for v in fill[4:-1].split(","))
            assert off(drawn, want) <= TOLERANCE, (vision, px)
    board.page.select_option("#vision", "normal")
    fill, hexa = board.js("[document.querySelector('#px-0').getAttribute('fill'), "
                          "window.cheeseboard.frameHex()]")  # one look: one instant
    assert fill == "rgb(%d,%d,%d)" % tuple(bytes.fromhex(hexa)[:3])
