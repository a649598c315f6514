"""The overlays read back from their PDF: the paper, each window over its pixel within 0.1 mm,
every space's name from the rule table; tiling; and what a bad profile or page gets."""

import copy
import io
import json
import math

import pytest

from cheeseboard import cli, paths
from cheeseboard.kit import overlay, panel
from cheeseboard.kit.command import overlay_files
from cheeseboard.pictures.picture import read_table
from cheeseboard.profiles.docs import positions

pdfplumber = pytest.importorskip("pdfplumber",
                                 reason="pdfplumber is missing: pip install -e '.[dev]'")

MM = 25.4 / 72  # a PDF point in mm
CUT = (0.894, 0.0, 0.486)  # the cut line's colour, #e4007c


def _pdf(data):
    return pdfplumber.open(io.BytesIO(data))


def _expected_centres(profile, game):
    """Each lit pixel's centre from the panel's top left corner, in mm, worked out here from
    the profile alone: the pixel grid centred on the panel, row 0 at the bottom."""
    p = profile["panel"]
    m = profile["matrix"]
    x0 = (p["width_mm"] - (m["width"] - 1) * p["pitch_mm"]) / 2
    y0 = (p["height_mm"] - (m["height"] - 1) * p["pitch_mm"]) / 2
    lit = {px for pixels in profile["maps"][game].values() for px in pixels}
    lit |= set(profile["die"]) | set(profile["seats"]) | {profile["status"]}
    lit |= set(profile.get("meter", ()))
    pos = positions(profile)
    return {px: (x0 + pos[px][0] * p["pitch_mm"], y0 + (m["height"] - 1 - pos[px][1])
                 * p["pitch_mm"]) for px in lit}


def _is_cut(rect):
    colour = rect.get("stroking_color") or ()
    return len(colour) == 3 and all(abs(a - b) < 0.01 for a, b in zip(colour, CUT, strict=True))


@pytest.mark.parametrize("name,game,page,size", [
    ("pico", "gouda", "A4", (210, 297)), ("pico", "katz", "Letter", (215.9, 279.4)),
    ("pico16", "gatenkaas", "A4", (210, 297))])
def test_the_pdf_is_at_scale_and_its_windows_sit_on_the_pixels(name, game, page, size):
    profile = paths.load_profile(name)
    lay = panel.layout(profile)
    pdf = overlay_files(profile, lay, [game], [page])["%s-%s.pdf" % (game, page)]
    with _pdf(pdf) as doc:
        assert len(doc.pages) == 1
        sheet = doc.pages[0]
        assert sheet.width * MM == pytest.approx(size[0], abs=0.01)
        assert sheet.height * MM == pytest.approx(size[1], abs=0.01)
        # The panel's outline: the rectangle the panel's size.
        outline = [r for r in sheet.rects
                   if abs(r["width"] * MM - profile["panel"]["width_mm"]) < 0.05
                   and abs(r["height"] * MM - profile["panel"]["height_mm"]) < 0.05]
        assert len(outline) == 1
        left, top = outline[0]["x0"] * MM, outline[0]["top"] * MM
        window = profile["panel"]["window_mm"]
        found = [((r["x0"] + r["x1"]) / 2 * MM - left, (r["top"] + r["bottom"]) / 2 * MM - top)
                 for r in sheet.rects if _is_cut(r) and abs(r["width"] * MM - window) < 0.05]
        expected = _expected_centres(profile, game)
        assert len(found) == len(expected)
        for px, (x, y) in expected.items():
            nearest = min(math.dist((x, y), f) for f in found)
            assert nearest < 0.1, "pixel %d's window is %.3f mm off" % (px, nearest)
        words = sheet.extract_text().replace(" ", "").replace("\n", "")
    for label in _names(profile, game) + list(panel.BUTTONS) + ["die", "statuslight", "meter"]:
        assert label.replace(" ", "") in words, label


def _names(profile, game):
    """Every space's words as the rule table and the map give them: its own name when the
    table gives one no other space has, else its id."""
    table = read_table(game)
    named = [s[1] for s in table.get("spaces", ())]
    out = []
    for sid in profile["maps"][game]:
        name = next((s[1] for s in table.get("spaces", ()) if s[0] == sid), None)
        out.append(name if name and named.count(name) == 1 else sid)
    return out


def test_a_space_renamed_in_the_rule_table_is_renamed_on_the_overlay():
    profile = paths.load_profile("pico")
    lay = panel.layout(profile)
    table = read_table("gouda")
    before = overlay.svg(lay, profile, "gouda", table)
    renamed = copy.deepcopy(table)
    next(s for s in renamed["spaces"] if s[0] == "jug")[1] = "milk churn"
    after = overlay.svg(lay, profile, "gouda", renamed)
    assert ">big jug</text>" in before and "milk churn" not in before
    assert ">milk churn</text>" in after and "big jug" not in after


def test_overlay_draws_the_table_a_board_was_synced_with(tmp_path, capsys):
    table = read_table("gouda")
    next(s for s in table["spaces"] if s[0] == "m3")[1] = "rocking chair"
    rules = tmp_path / "gouda.json"
    rules.write_text(json.dumps(table))
    out = tmp_path / "out"
    assert cli.main(["overlay", "gouda", "--profile", "pico", "--rules", str(rules), "--page",
                     "A4", "--out", str(out)]) == 0
    svg = (out / "pico" / "gouda.svg").read_text()
    assert ">rocking chair</text>" in svg and ">chair</text>" not in svg
    with _pdf((out / "pico" / "gouda-A4.pdf").read_bytes()) as doc:
        assert "rockingchair" in doc.pages[0].extract_text().replace(" ", "")
    # A table that is not one is refused in a line, before anything is written.
    rules.write_text('{"game": "gouda", "spaces": 3}')
    assert cli.main(["overlay", "gouda", "--profile", "pico", "--rules", str(rules),
                     "--out", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cheeseboard: --rules: %s: " % rules) and err.count("\n") == 1
    assert not (tmp_path / "none").exists()


def test_a_sheet_larger_than_the_page_is_tiled_with_overlaps():
    profile = paths.load_profile("pico16")
    lay = panel.layout(profile)
    pdf = overlay_files(profile, lay, ["gatenkaas"], ["100x120"])["gatenkaas-100x120.pdf"]
    # 80 x 100 mm inside the margins, 10 mm shared with the next: the 176 x 208 mm sheet takes
    # 3 pages across and 3 down.
    across = math.ceil((lay.sheet_w - 10) / (80 - 10))
    down = math.ceil((lay.sheet_h - 10) / (100 - 10))
    with _pdf(pdf) as doc:
        assert len(doc.pages) == across * down == 9
        for k, page in enumerate(doc.pages):
            assert (page.width * MM, page.height * MM) == pytest.approx((100, 120), abs=0.01)
            text = page.extract_text()
            assert "page%dof9" % (k + 1) in text.replace(" ", "")
        # Every window is whole on some page.
        windows = sum(1 for page in doc.pages for r in page.rects if _is_cut(r)
                      and abs(r["width"] * MM - 5) < 0.05 and abs(r["height"] * MM - 5) < 0.05)
        assert windows >= len(_expected_centres(profile, "gatenkaas"))


@pytest.fixture
def profiles(tmp_path, monkeypatch):
    """A copy of the profiles to spoil, and the folder the overlays would go to."""
    folder = tmp_path / "profiles"
    folder.mkdir()
    for name in paths.profile_names():
        (folder / (name + ".json")).write_text(json.dumps(paths.load_profile(name)))
    monkeypatch.setattr(paths, "PROFILES", folder)

    def spoil(change):
        pico = json.loads((folder / "pico.json").read_text())
        change(pico)
        (folder / "pico.json").write_text(json.dumps(pico))
    return spoil, tmp_path / "out"


@pytest.mark.parametrize("change,args,message", [
    (lambda p: p["panel"].pop("pitch_mm"), [],
     "cheeseboard: pico: panel.pitch_mm: expected the distance between pixel centres in mm, "
     "got None"),
    (lambda p: p.pop("panel"), [], "cheeseboard: pico: panel: missing"),
    (lambda p: p["panel"].update(width_mm=50), [],
     "cheeseboard: pico: panel.width_mm: 8 pixels at 8 mm with 4 mm windows fall off a 50 mm "
     "panel"),
    (lambda p: p["maps"]["gouda"]["jug"].__setitem__(0, 0), [],
     "cheeseboard: pico: maps.gouda.jug: pixel 0 is already maps.gouda.crl"),
    (lambda p: None, ["--page", "40x40"], "cheeseboard: page: 40x40 leaves 20 x 20 mm inside"),
    (lambda p: None, ["--page", "A3"], "cheeseboard: page: expected A4, Letter or WIDTHxHEIGHT"),
    (lambda p: None, ["chess"], "cheeseboard: pico: GAME: expected one of gouda, kalle, katz, "
                                "kitchen, got 'chess'"),
])
def test_bad_input_gets_one_line_and_nothing_is_written(profiles, capsys, change, args,
                                                        message):
    spoil, out = profiles
    spoil(change)
    assert cli.main(["overlay", "--profile", "pico", "--out", str(out)] + args) == 1
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err
    assert not out.exists()


def test_overlay_writes_every_game_of_a_profile(tmp_path, capsys):
    assert cli.main(["overlay", "--profile", "pico", "--page", "A4", "--out",
                     str(tmp_path)]) == 0
    made = sorted(p.name for p in (tmp_path / "pico").iterdir())
    games = sorted(paths.load_profile("pico")["maps"])
    assert made == sorted(["%s.svg" % g for g in games] + ["%s-A4.pdf" % g for g in games])
    assert "wrote" in capsys.readouterr().out


def test_cad_without_openscad_says_what_to_install(monkeypatch, capsys, tmp_path):
    from cheeseboard.kit import cad

    monkeypatch.setattr(cad.shutil, "which", lambda name: None)
    assert cli.main(["cad", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cheeseboard: openscad is missing: install Debian's `openscad`")
    assert err.count("\n") == 1 and not (tmp_path / "out").exists()


def test_profile_check_names_a_panel_the_kit_cannot_draw():
    from cheeseboard.profiles import hardware

    pico = paths.load_profile("pico")
    assert hardware.check_profile(pico, "pico") == []
    pico["panel"]["window_mm"] = 9
    assert hardware.check_profile(pico, "pico") == [
        "panel.window_mm: a 9 mm window is wider than the 8 mm pitch"]
