"""LED guidance: a game's view() and the offered choice, painted onto the profile's pixels.

What a player sees at a glance:
- every mouse: each space's pixels show the colours of the pieces on it, one colour
  per pixel; when a space holds more colours than it has pixels they take turns;
- marks (cheese, face-down tiles, holes) where no piece stands;
- the choice on offer: its spaces blink white, or, when its hint has a "ghost" (a card about
  to be laid), the ghost's colours blink over what lies beneath;
- whose turn: that seat's pixel blinks in the player's colour, the others glow dim;
- the dice on the die pixels, each in its colour.
Colours come from the rule table's palette; pixels from the profile's map for the game.
"""

WHITE = b"\xff\xff\xff"
OFF = b"\x00\x00\x00"
BLINK_MS = 250  # half a blink period
CYCLE_MS = 600  # how long each colour shows on a crowded space

_SIGNALS = {
    "refused": b"\xff\x00\x00",
    "window": b"\xff\x78\x00",
    "rolling": WHITE,
    "new-rules": b"\x00\xc8\xff",  # a new rule table came in: it applies from the next game
}


def _set(frame, pixel, rgb):
    """One pixel (rgb: 3 bytes), set with one slice copy: the painter's hot path."""
    i = 3 * pixel
    frame[i:i + 3] = rgb


class Painter:
    def __init__(self, profile, game_name, palette):
        self.map = profile["maps"][game_name]
        self.spaces = sorted(self.map)
        self.die = profile["die"]
        self.seats = profile["seats"]
        self.status = profile["status"]
        self.meter = profile.get("meter", ())
        # The palette as 3-byte colours, and each player's colour dimmed for the seat lights.
        self.rgb = {}
        for key in palette:
            self.rgb[key] = bytes(palette[key])
            if key.isdigit():  # a player's colour: found by the int too, with no str() per pixel
                self.rgb[int(key)] = self.rgb[key]
        self.dim = {}
        for key in self.rgb:
            self.dim[key] = bytes(c // 8 for c in self.rgb[key])
        self._blank = None

    def colour(self, key, default=WHITE):
        rgb = self.rgb.get(key)
        return rgb if rgb is not None else self.rgb.get(str(key), default)

    def paint(self, frame, view, now, players, offer=None, seat=None, signal=None):
        """Draw the whole board into frame.

        offer: the hint of the choice under the cursor; seat: the seat to blink instead
        of the player to act (while someone picks their seat); signal: a status colour.
        """
        if self._blank is None or len(self._blank) != len(frame):
            self._blank = bytes(len(frame))
        frame[:] = self._blank
        colour = self.colour
        blink_on = (now // BLINK_MS) % 2 == 0
        cycle = now // CYCLE_MS
        by_space = {}
        for space, who in view["pieces"]:  # sorted (the contract): equal owners are adjacent
            owners = by_space.get(space)
            if owners is None:
                by_space[space] = [who]
            elif owners[-1] != who:
                owners.append(who)
        empty = colour("empty", OFF)
        # Marks and spaces are both sorted by id: walk them side by side (a dict of every mark
        # would cost the heap a table as large as the board at every frame).
        marks = view["marks"]
        for j in range(1, len(marks)):
            if marks[j][0] < marks[j - 1][0]:
                marks = sorted(marks)  # a game that lists its marks in its own order
                break
        j = 0
        spaces_map = self.map
        for space in self.spaces:  # the hot loop: locals, and slice copies inline
            while j < len(marks) and marks[j][0] < space:
                j += 1
            mark = marks[j][1] if j < len(marks) and marks[j][0] == space else None
            pixels = spaces_map[space]
            owners = by_space.get(space)
            if owners:
                k = len(owners)
                shift = cycle % k if k > len(pixels) else 0  # crowded: the colours take turns
                for j in range(len(pixels)):
                    i = 3 * pixels[j]
                    frame[i:i + 3] = colour(owners[(shift + j) % k])
            else:  # a mark, or the bare space glowing faintly so the track stays visible
                rgb = colour(mark) if mark is not None else empty
                for p in pixels:
                    i = 3 * p
                    frame[i:i + 3] = rgb
        if offer is not None and blink_on:
            ghost = offer.get("ghost")
            for space in offer.get("spaces", ()) if ghost is None else ():
                for p in self.map.get(space, ()):
                    _set(frame, p, WHITE)
            for space, kind in ghost or ():
                rgb = colour(kind)
                for p in self.map.get(space, ()):
                    _set(frame, p, rgb)
        dice = offer.get("dice") if offer and "dice" in offer else view["dice"]
        self._dice(frame, dice, view["turn"])
        self._seats(frame, view["turn"] if seat is None else seat, blink_on, players)
        meter = view["status"].get("meter")
        if meter and self.meter:
            value, most = meter
            lit = min(len(self.meter), (len(self.meter) * value + most - 1) // most)
            for j in range(lit):
                _set(frame, self.meter[j], colour("meter"))
        if signal is not None:
            _set(frame, self.status, _SIGNALS.get(signal, WHITE))  # the engine's, not a game's
        elif offer is not None and offer.get("mark"):
            _set(frame, self.status, colour(offer["mark"]))

    def tumble(self, frame, now):
        """The roll animation: a light running round the die pixels (shows no result)."""
        k = (now // 70) % len(self.die)
        for j in range(len(self.die)):
            _set(frame, self.die[j], WHITE if j == k else OFF)

    def reveal(self, frame, space, kind, now):
        """A tile being turned over: it flips between its back and what it shows."""
        rgb = self.colour(kind) if (now // 150) % 2 else self.colour("tile")
        for p in self.map.get(space, ()):
            _set(frame, p, rgb)

    def winners(self, frame, winners, players, now):
        """The end: the winners' seat pixels blink in their colours, the others go dark."""
        on = (now // BLINK_MS) % 2 == 0
        for seat in range(min(players, len(self.seats))):
            rgb = self.colour(seat) if seat in winners and on else OFF
            _set(frame, self.seats[seat], rgb)

    def _dice(self, frame, dice, turn):
        pixels = self.die
        if len(dice) == 1 and isinstance(dice[0], int):
            # One numbered die: its pips, one pixel each, in the colour of the side's die.
            rgb = self.colour("die%d" % turn, self.colour("die"))
            for j in range(min(dice[0], len(pixels))):
                _set(frame, pixels[j], rgb)
            return
        for j in range(min(len(dice), len(pixels))):
            _set(frame, pixels[j], self.colour(dice[j]))

    def _seats(self, frame, turn, blink_on, players):
        for seat in range(min(players, len(self.seats))):
            key = str(seat)
            if seat == turn:
                _set(frame, self.seats[seat], self.colour(key) if blink_on else OFF)
            else:
                _set(frame, self.seats[seat], self.dim.get(key, OFF))
