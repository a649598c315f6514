"""Where everything sits on a board, in millimetres: the panel's pixels, the sheet around it
(the case's top, the overlay's outline), the buttons' holes.

One geometry for the overlay (overlay.py) and the CAD (cad.py), from the profile's `panel`
(the LED matrix's outline and pixel pitch) and `matrix` (its wiring order). Coordinates are
the sheet's as the players see it: x to the right, y down, (0, 0) its top left corner.
"""

from dataclasses import dataclass

from cheeseboard import CheeseboardError
from cheeseboard.pictures.picture import grid

BUTTONS = ("prev", "next", "ok", "back", "roll")  # left to right under the panel
BORDER = 8.0  # the case's frame beside and above the panel
TITLE_BAND = 14.0  # above the panel: the game's name
BUTTON_BAND = 34.0  # below the panel: the buttons and the legend
BUTTON_HOLE = 12.5  # a 12 mm tactile button's cap, with room to move
BUTTON_DROP = 13.0  # the buttons' centres below the panel's edge
PANELS = "8x8 rigid 65 mm (pitch 8), 8x8 flexible 80 mm (pitch 10), 16x16 flexible 160 mm " \
         "(pitch 10)"


class PanelError(CheeseboardError):
    """A profile or a page the kit cannot draw: its message names the field."""


@dataclass(frozen=True)
class Layout:
    """A profile's board in mm."""

    name: str
    kind: str  # "8x8 rigid", as the parts list names the panel
    cols: int
    rows: int
    pitch: float
    window: float  # the side of each pixel's window in the overlay
    panel_w: float
    panel_h: float
    pixels: tuple  # (x, y) of every pixel's centre on the sheet, in chain order
    buttons: tuple  # (name, x, y) of each button's centre on the sheet

    @property
    def panel_x(self):
        return BORDER

    @property
    def panel_y(self):
        return TITLE_BAND

    @property
    def sheet_w(self):
        return self.panel_w + 2 * BORDER

    @property
    def sheet_h(self):
        return TITLE_BAND + self.panel_h + BUTTON_BAND

    def first_centre(self):
        """The top left pixel's centre, from the panel's top left corner."""
        return ((self.panel_w - (self.cols - 1) * self.pitch) / 2,
                (self.panel_h - (self.rows - 1) * self.pitch) / 2)


def _number(panel, key, what):
    value = panel.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise PanelError("panel.%s: expected %s in mm, got %r" % (key, what, value))
    return float(value)


def layout(profile):
    """The profile's Layout; PanelError naming the field when the panel cannot be drawn."""
    panel = profile.get("panel")
    if not isinstance(panel, dict):
        raise PanelError("panel: missing (the LED panel's width_mm, height_mm, pitch_mm and "
                         "window_mm; common panels: %s)" % PANELS)
    pitch = _number(panel, "pitch_mm", "the distance between pixel centres")
    width = _number(panel, "width_mm", "the panel's width")
    height = _number(panel, "height_mm", "the panel's height")
    window = _number(panel, "window_mm", "the side of a pixel's window")
    if window > pitch:
        raise PanelError("panel.window_mm: a %g mm window is wider than the %g mm pitch"
                         % (window, pitch))
    cols, rows = profile["matrix"]["width"], profile["matrix"]["height"]
    for field, size, n in (("width_mm", width, cols), ("height_mm", height, rows)):
        if (n - 1) * pitch + window > size:
            raise PanelError("panel.%s: %d pixels at %g mm with %g mm windows fall off a %g mm "
                             "panel" % (field, n, pitch, window, size))
    half = Layout(profile["name"], str(panel.get("kind", "")), cols, rows, pitch, window, width,
                  height, (), ())
    x0, y0 = half.first_centre()
    pixels = tuple((BORDER + x0 + col * pitch, TITLE_BAND + y0 + line * pitch)
                   for col, line in grid(profile))
    step = half.sheet_w / len(BUTTONS)
    if step < BUTTON_HOLE + 2:
        raise PanelError("panel.width_mm: a %g mm panel leaves no room for five %g mm buttons "
                         "side by side" % (width, BUTTON_HOLE))
    y = TITLE_BAND + height + BUTTON_DROP
    buttons = tuple((name, step * (j + 0.5), y) for j, name in enumerate(BUTTONS))
    return Layout(half.name, half.kind, cols, rows, pitch, window, width, height, pixels,
                  buttons)
