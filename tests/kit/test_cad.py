"""The grid, the case and its back as OpenSCAD exports them: each mesh closed, the grid's cells
under the overlay's windows, the case's holes under its buttons; the plans in the build guide
as OpenSCAD draws them now."""

import re
import shutil

import numpy
import pytest

from cheeseboard import cli, paths
from cheeseboard.kit import cad, overlay, panel
from cheeseboard.kit.guide import plan_groups

trimesh = pytest.importorskip("trimesh", reason="trimesh is missing: pip install -e '.[dev]'")
pytestmark = pytest.mark.skipif(shutil.which("openscad") is None,
                                reason="openscad is missing (Debian's openscad)")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """{profile: {part: mesh}} for the two panels the shipped profiles have."""
    out = tmp_path_factory.mktemp("cad")
    assert cli.main(["cad", "--profile", "pico", "--profile", "pico16", "--out", str(out)]) == 0
    return {name: {part: trimesh.load(out / name / ("%s.stl" % part)) for part in cad.PARTS}
            for name in ("pico", "pico16")}


def pierced(mesh, point, axis=2, keep=None):
    """Whether the line along axis through point (the two other coordinates) meets the mesh:
    a triangle's shadow on the plane across the axis holds the point. keep: which triangles
    count, by their centres."""
    tris = mesh.triangles
    if keep is not None:
        tris = tris[keep(tris.mean(axis=1))]
    a, b = [i for i in range(3) if i != axis]
    p = numpy.array(point, dtype=float)
    v0, v1, v2 = (tris[:, k][:, [a, b]] for k in range(3))

    def side(u, w):
        return (w[:, 0] - u[:, 0]) * (p[1] - u[:, 1]) - (w[:, 1] - u[:, 1]) * (p[0] - u[:, 0])
    s0, s1, s2 = side(v0, v1), side(v1, v2), side(v2, v0)
    inside = ((s0 >= 0) & (s1 >= 0) & (s2 >= 0)) | ((s0 <= 0) & (s1 <= 0) & (s2 <= 0))
    return bool((inside & ~((s0 == 0) & (s1 == 0) & (s2 == 0))).any())


def _overlay_shapes(name, game, kind):
    """Centres of the overlay SVG's windows (rects) or buttons (circles) on the sheet, in mm."""
    profile = paths.load_profile(name)
    svg = overlay.svg(panel.layout(profile), profile, game)
    if kind == "window":
        return [(float(x) + float(w) / 2, float(y) + float(w) / 2) for x, y, w in re.findall(
            r'class="window" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', svg)]
    return [(float(x), float(y)) for x, y in re.findall(
        r'<circle cx="([\d.]+)" cy="([\d.]+)" r="[\d.]+" fill="white" stroke="[^"]+" '
        r'stroke-width="[\d.]+" class="button"', svg)]


@pytest.mark.parametrize("name,game", [("pico", "gouda"), ("pico", "kitchen"),
                                       ("pico16", "gatenkaas")])
def test_every_mesh_is_closed_and_the_grid_cells_lie_under_the_windows(exported, name, game):
    meshes = exported[name]
    for part, mesh in meshes.items():
        assert mesh.is_watertight, "%s's %s is not closed" % (name, part)
    lay = panel.layout(paths.load_profile(name))
    grid = meshes["grid"]
    # The grid's own frame: the panel's corner at (0, 0), y up; the overlay's y runs down.
    assert grid.bounds[0][:2] == pytest.approx([-2, -2]) and grid.bounds[1][:2] == \
        pytest.approx([lay.panel_w + 2, lay.panel_h + 2])
    windows = _overlay_shapes(name, game, "window")
    assert windows
    for x, y in windows:
        gx, gy = x - lay.panel_x, lay.panel_h - (y - lay.panel_y)
        assert not pierced(grid, (gx, gy)), "a wall under the window at %s" % ((x, y),)
        # Half a pitch beside it: the wall between two cells, or the grid's outer wall.
        assert pierced(grid, (gx + lay.pitch / 2, gy))


def test_the_case_has_a_hole_under_each_button_and_the_usb_opening(exported):
    lay = panel.layout(paths.load_profile("pico"))
    case = exported["pico"]["case"]
    assert case.bounds[1] == pytest.approx([lay.sheet_w, lay.sheet_h, 30])
    buttons = _overlay_shapes("pico", "gouda", "button")
    assert len(buttons) == 5
    for x, y in buttons:
        assert not pierced(case, (x, lay.sheet_h - y))
        assert pierced(case, (x, lay.sheet_h - y + panel.BUTTON_HOLE / 2 + 1))
    centre = (lay.panel_x + lay.panel_w / 2, lay.sheet_h - lay.panel_y - lay.panel_h / 2)
    assert not pierced(case, centre)  # the panel's opening
    usb_y = lay.sheet_h - lay.buttons[-1][2]
    right_wall = lambda c: c[:, 0] > lay.sheet_w - 3  # noqa: E731
    assert not pierced(case, (usb_y, 8), axis=0, keep=right_wall)
    assert pierced(case, (usb_y, 20), axis=0, keep=right_wall)


def test_the_plans_in_the_build_guide_are_as_openscad_draws_them(tmp_path):
    profiles = [paths.load_profile(n) for n in paths.profile_names()]
    for p, _ in plan_groups(profiles):
        fresh = cad.export(panel.layout(p), "plan", tmp_path / ("%s-plan.svg" % p["name"]))
        committed = paths.ROOT / "hardware" / "diagrams" / fresh.name
        assert committed.exists() and committed.read_text() == fresh.read_text(), \
            "stale: run `make hardware` and commit hardware/diagrams/%s" % fresh.name
