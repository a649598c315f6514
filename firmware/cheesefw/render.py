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
    def __init__(self, led):
        self.ma_full_white = led.get("ma_full_white", 60)
        self.budget_ma = led["budget_ma"]

    def estimate_ma(self, frame):
        """The frame's estimated current in mA."""
        return sum(frame) * self.ma_full_white // 765

    def limit(self, frame, out):
        """Copy frame into out, scaled down if needed to keep within budget."""
        total = sum(frame)  # 765 per pixel at full white
        allowed = self.budget_ma * 765 // self.ma_full_white
        if total <= allowed:
            out[:] = frame
            return
        for i in range(len(frame)):
            out[i] = frame[i] * allowed // total


class SpaceMap:
    """A game's LED map (space id -> its pixels) packed flat: the ids in one string, the pixels
    in one bytes, where a dict of a string and a bytes per space costs about 150 B a space on
    the simulator's heap. Read it as the dict it replaces: `m[sid]`, `m.get(sid, ())`,
    `sid in m`, iteration (the ids, sorted), `values()`, `items()`. A lookup makes one small
    bytes object: the painter copies the chosen game's map into a dict for its hot loop."""

    def __init__(self, spaces):
        ids = sorted(spaces)
        self._ids = " " + " ".join(ids) + " "  # padded, so " sid " finds whole ids only
        starts = [0]
        pixels = []
        for sid in ids:
            pixels.extend(spaces[sid])
            starts.append(len(pixels))
        self._pixels = bytes(pixels)
        self._starts = bytes(starts) if starts[-1] < 256 else starts

    def _index(self, sid):
        if type(sid) is not str or " " in sid:
            return -1
        at = self._ids.find(" " + sid + " ")
        return -1 if at < 0 else self._ids.count(" ", 0, at)

    def __getitem__(self, sid):
        k = self._index(sid)
        if k < 0:
            raise KeyError(sid)
        return self._pixels[self._starts[k]:self._starts[k + 1]]

    def get(self, sid, default=None):
        return self[sid] if self._index(sid) >= 0 else default

    def __contains__(self, sid):
        return self._index(sid) >= 0

    def __len__(self):
        return len(self._starts) - 1

    def __iter__(self):
        return iter(self._ids.split())

    def keys(self):
        return self._ids.split()

    def values(self):
        return [self[sid] for sid in self._ids.split()]

    def items(self):
        return [(sid, self[sid]) for sid in self._ids.split()]


def pack_map(spaces):
    """A SpaceMap of a map whose pixels and ids fit its packing, else the map as it is."""
    for sid in spaces:
        if " " in sid or [p for p in spaces[sid] if not 0 <= p < 256]:
            return spaces
    return SpaceMap(spaces)
