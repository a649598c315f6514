"""LED guidance: a game's view() and the offered choice, painted onto the profile's pixels.

What a player sees at a glance:
- every mouse: each space's pixels show the colours of the pieces on it, one colour
  per pixel; when a space holds more colours than it has pixels they take turns;
- marks (cheese, face-down tiles, holes) where no piece stands;
- the choice on offer: its spaces blink white;
- whose turn: that seat's pixel blinks in the player's colour, the others glow dim;
- the dice on the die pixels, each in its colour.
Colours come from the rule table's palette; pixels from the profile's map for the game.
"""

from cheesefw.render import put, scale

WHITE = (255, 255, 255)
OFF = (0, 0, 0)
BLINK_MS = 250  # half a blink period
CYCLE_MS = 600  # how long each colour shows on a crowded space


def colour(palette, key, default=WHITE):
    rgb = palette.get(str(key))
    return tuple(rgb) if rgb else default


class Painter:
    def __init__(self, profile, game_name, palette):
        self.map = profile["maps"][game_name]
        self.die = profile["die"]
        self.seats = profile["seats"]
        self.status = profile["status"]
        self.meter = profile.get("meter", ())
        self.palette = palette

    def paint(self, frame, view, now, players, offer=None, seat=None, signal=None):
        """Draw the whole board into frame.

        offer: the hint of the choice under the cursor; seat: the seat to blink instead
        of the player to act (while someone picks their seat); signal: a status colour.
        """
        for i in range(len(frame)):
            frame[i] = 0
        palette = self.palette
        blink_on = (now // BLINK_MS) % 2 == 0
        cycle = now // CYCLE_MS
        by_space = {}
        for space, who in view["pieces"]:
            owners = by_space.setdefault(space, [])
            if who not in owners:
                owners.append(who)
        empty = colour(palette, "empty", OFF)
        marks = {}
        for space, kind in view["marks"]:
            marks.setdefault(space, kind)
        for space in sorted(self.map):
            pixels = self.map[space]
            owners = by_space.get(space)
            if owners:
                owners.sort(key=str)
                k = len(owners)
                shift = cycle % k if k > len(pixels) else 0  # crowded: the colours take turns
                for j in range(len(pixels)):
                    put(frame, pixels[j], colour(palette, owners[(shift + j) % k]))
            else:  # a mark, or the bare space glowing faintly so the track stays visible
                rgb = colour(palette, marks[space]) if space in marks else empty
                for p in pixels:
                    put(frame, p, rgb)
        if offer is not None and blink_on:
            for space in offer.get("spaces", ()):
                for p in self.map.get(space, ()):
                    put(frame, p, WHITE)
        dice = offer.get("dice") if offer and "dice" in offer else view["dice"]
        self._dice(frame, dice, view["turn"])
        self._seats(frame, view["turn"] if seat is None else seat, blink_on, players)
        meter = view["status"].get("meter")
        if meter and self.meter:
            value, most = meter
            lit = min(len(self.meter), (len(self.meter) * value + most - 1) // most)
            for j in range(lit):
                put(frame, self.meter[j], colour(palette, "meter"))
        if signal is not None:
            put(frame, self.status, colour(palette, signal, _SIGNALS.get(signal, WHITE)))
        elif offer is not None and offer.get("mark"):
            put(frame, self.status, colour(palette, offer["mark"]))

    def tumble(self, frame, now):
        """The roll animation: a light running round the die pixels (shows no result)."""
        k = (now // 70) % len(self.die)
        for j in range(len(self.die)):
            put(frame, self.die[j], WHITE if j == k else OFF)

    def reveal(self, frame, space, kind, now):
        """A tile being turned over: it flips between its back and what it shows."""
        rgb = colour(self.palette, kind) if (now // 150) % 2 else colour(self.palette, "tile")
        for p in self.map.get(space, ()):
            put(frame, p, rgb)

    def winners(self, frame, winners, players, now):
        """The end: the winners' seat pixels blink in their colours, the others go dark."""
        on = (now // BLINK_MS) % 2 == 0
        for seat in range(min(players, len(self.seats))):
            rgb = colour(self.palette, seat) if seat in winners and on else OFF
            put(frame, self.seats[seat], rgb)

    def _dice(self, frame, dice, turn):
        pixels = self.die
        if len(dice) == 1 and isinstance(dice[0], int):
            # One numbered die: its pips, one pixel each, in the colour of the side's die.
            rgb = colour(self.palette, "die%d" % turn, colour(self.palette, "die"))
            for j in range(min(dice[0], len(pixels))):
                put(frame, pixels[j], rgb)
            return
        for j in range(min(len(dice), len(pixels))):
            put(frame, pixels[j], colour(self.palette, dice[j]))

    def _seats(self, frame, turn, blink_on, players):
        palette = self.palette
        for seat in range(min(players, len(self.seats))):
            rgb = colour(palette, seat)
            if seat == turn:
                put(frame, self.seats[seat], rgb if blink_on else OFF)
            else:
                put(frame, self.seats[seat], scale(rgb, 1, 8))


_SIGNALS = {
    "refused": (255, 0, 0),
    "window": (255, 120, 0),
    "rolling": (255, 255, 255),
}
