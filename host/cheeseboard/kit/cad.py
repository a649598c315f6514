"""The dividing grid, the case and its back as OpenSCAD parts, for a profile.

`hardware/cad/cheeseboard.scad` is the parametric model; each profile's own file beside it
(`hardware/cad/NAME.scad`, generated here) sets its parameters from the profile's layout
(panel.py, the overlay's geometry) and includes it. OpenSCAD itself (Debian's `openscad`)
exports the STLs and the plan SVG the build guide shows.
"""

import shutil
import subprocess

from cheeseboard import paths
from cheeseboard.kit.overlay import _f
from cheeseboard.kit.panel import PanelError

PARTS = ("grid", "case", "back")  # the STLs to print
CAD = paths.ROOT / "hardware" / "cad"
HEADER = "// generated from hardware/profiles/%s.json by `cheeseboard cad`: do not edit\n"


def _point(p):
    return "[%s, %s]" % (_f(p[0]), _f(p[1]))


def params(lay):
    """[(name, OpenSCAD value)]: the model's parameters from the profile's layout."""
    x0, y0 = lay.first_centre()
    return [("cols", str(lay.cols)), ("rows", str(lay.rows)), ("pitch", _f(lay.pitch)),
            ("panel_w", _f(lay.panel_w)), ("panel_h", _f(lay.panel_h)),
            ("first", _point((x0, y0))), ("sheet_w", _f(lay.sheet_w)),
            ("sheet_h", _f(lay.sheet_h)), ("panel_at", _point((lay.panel_x, lay.panel_y))),
            ("buttons", "[%s]" % ", ".join(_point((x, y)) for _, x, y in lay.buttons)),
            ("grid_h", _f(round(lay.pitch * 0.75, 1)))]


def scad(lay):
    """The profile's OpenSCAD file for makers: its parameters, then the model."""
    # OpenSCAD keeps a variable's last value: these override the model's defaults.
    return (HEADER % lay.name + "include <cheeseboard.scad>\n"
            + "".join("%s = %s;\n" % kv for kv in params(lay)))


def openscad():
    found = shutil.which("openscad")
    if not found:
        raise PanelError("openscad is missing: install Debian's `openscad` (apt-get install "
                         "openscad) to export the grid and the case")
    return found


def export(lay, part, out):
    """OpenSCAD renders one part of the model with the profile's parameters into out (.stl,
    or .svg for the plan); written whole or not at all."""
    tmp = out.with_name(out.stem + ".part" + out.suffix)
    command = [openscad(), "-q", "-o", str(tmp), "-D", 'part="%s"' % part]
    if out.suffix == ".stl":
        command += ["--export-format", "binstl"]  # a quarter of the text's size
    for name, value in params(lay):
        command += ["-D", "%s=%s" % (name, value)]
    done = subprocess.run(command + [str(CAD / "cheeseboard.scad")], capture_output=True,
                          text=True, timeout=600)
    if done.returncode or not tmp.exists():
        tmp.unlink(missing_ok=True)
        lines = (done.stderr or "no output").strip().splitlines()
        raise PanelError("openscad could not export the %s for %s: %s" % (part, lay.name,
                                                                        lines[-1]))
    tmp.replace(out)
    return out
