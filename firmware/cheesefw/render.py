"""Frames: what the LEDs show, and the power limiter between them and the supply.

A frame is a bytearray of R, G, B per pixel in chain order. The limiter scales a
whole frame down when its estimated current would pass the profile's budget
(a WS2812B draws about `ma_full_white` mA at full white, proportionally less
for dimmer colours), so the board never browns out its supply.
"""


def new_frame(count):
    return bytearray(3 * count)


def put(frame, pixel, rgb):
    """Set one pixel (an index in the chain) to an (r, g, b) colour."""
    i = 3 * pixel
    frame[i] = rgb[0]
    frame[i + 1] = rgb[1]
    frame[i + 2] = rgb[2]


class PowerLimiter:
    def __init__(self, led, loops=None):
        """loops: (total, scale), the two loops over a frame compiled for the board where its
        port can (cheesefw.hal.frame_loops); else the VM's own, below."""
        self.ma_full_white = led.get("ma_full_white", 60)
        self.budget_ma = led["budget_ma"]
        self._total, self._scale = loops or (sum, scale)

    def limit(self, frame, out):
        """Copy frame into out, scaled down if needed to keep within budget."""
        total = self._total(frame)  # 765 per pixel at full white
        allowed = self.budget_ma * 765 // self.ma_full_white
        if total <= allowed:
            out[:] = frame
            return
        self._scale(out, frame, allowed, total)


def scale(out, frame, allowed, total):
    """Each byte of frame times allowed // total, into out."""
    for i in range(len(frame)):
        out[i] = frame[i] * allowed // total
