"""LED guidance: a game's view() and the offered choice, painted onto the profile's pixels.

What a player sees at a glance:
- every mouse: each space's pixels show the colours of the pieces on it, one colour
  per pixel; when a space holds more colours than it has pixels they take turns;
- marks (cheese, face-down tiles, holes) where no piece stands;
- the choice on offer: its spaces blink white, or in the colour the hint names for a space
  (`paint`: whose mouse is offered), or, when its hint has a "ghost" (a card about to be
  laid), the ghost's colours over what lies beneath, 750 ms of each second; a piece the
  view names in "blink" blinks too;
- whose turn: that seat's pixel blinks in the player's colour, the others glow dim;
- the die pixels: the dice, each in its colour; or a power's sign (its pattern, in its colour);
  or, for the space the hint `count`s, one pixel per piece in its owner's colour;
- towers ("stacks", top first): the top's colour, the pieces below taking turns with it;
- "lights": a space's pixels set one by one (a count per seat, say), the rest dark;
- the status pixel: the engine's signal, else the offer's `mark`, else the view's `mark`.
Colours come from the rule table's palette, signs from its `signs`; pixels from the profile's
map for the game. docs/led-language.md lists every colour and pattern per game.
"""

from array import array

from cheesefw import const

WHITE = b"\xff\xff\xff"
OFF = b"\x00\x00\x00"
_SPACE = const(32)  # b" "[0]: between the packed map's ids
BLINK_MS = 250  # half a blink period
CYCLE_MS = 600  # how long each colour shows on a crowded space

# The engine's own colours on the status pixel (docs/led-language.md): the same in every game.
_SIGNALS = {
    "refused": b"\xff\x00\x00",  # a 300 ms flash, right after the press it refuses
    "window": b"\xff\xb4\xff",  # a reaction window is open (not orange: that is Gouda's cheese)
    "new-rules": b"\x00\xc8\xff",  # a new rule table came in: it applies from the next game
}


class PackedMap:
    """A game's map (space id -> pixels) in three flat objects instead of a dict of small ones:
    the space ids, sorted, in one string; every space's pixels one after another; and where
    each space's end. As a dict a map costs the heap some 60 B a space; the board keeps every
    game's packed for the menu (which lights the chosen game's overlay), and the painter walks
    its own in place. Bytes where the pixel numbers fit in one, 16-bit arrays where not."""

    def __init__(self, spaces):
        names = sorted(spaces)
        # Bytes, not a str: MicroPython finds a str's character at an index by walking it from
        # the start (it may hold UTF-8), so every find, count and index of the search below
        # cost a walk of the whole string (about 0.3 ms a piece on a Pico); bytes index at once.
        self.names = " ".join(names).encode()
        total = sum(len(spaces[name]) for name in names)
        wide = total > 255 or any(p > 255 for name in names for p in spaces[name])
        # Filled in place, without a list of every pixel first (that list is the big allocation
        # a board with a 16x16 matrix would need).
        pixels = array("H") if wide else bytearray()
        ends = array("H") if wide else bytearray()
        for name in names:
            pixels.extend(spaces[name])
            ends.append(len(pixels))
        self.pixels = pixels if wide else bytes(pixels)
        self.ends = ends if wide else bytes(ends)
        self.place = None  # per byte of names, the place of its id: find_places() makes it

    def find_places(self):
        """Per byte of the ids, the place of the id it is in (a space: of the id after it),
        so that an id's place is one index where counting the spaces before it took a Pico
        some 30 us an id. Made at the first look (a loop over every byte: the painter makes it
        with itself, not in a redraw's tick); only the painter's map needs it (a byte a byte
        of the ids; two past 256 places)."""
        if self.place is not None:
            return self.place
        many = len(self.ends) > 256
        place = array("H") if many else bytearray()
        q = 0
        for c in self.names:
            if c == _SPACE:
                q += 1
            place.append(q)
        self.place = place if many else bytes(place)
        return self.place

    def ids(self):
        """The space ids, in their sorted order, one at a time: each a new string the caller
        may let go at once (a list of them all would cost a 42-square board 1.6 KB)."""
        names = self.names
        start = 0
        while start < len(names):
            end = names.find(b" ", start)
            if end < 0:
                end = len(names)
            yield names[start:end].decode()
            start = end + 1

    def index(self, space):
        """The place of space among the sorted ids, or -1 when the map has no such space.
        Found by the string's own search (C on the board) and find_places's note, not id by
        id (the painter's map: find_places made first)."""
        at = self._find(space, 0)
        return self.find_places()[at] if at >= 0 else -1

    def span(self, q):
        """Where the pixels of the space at place q begin and end in `pixels`."""
        return self.ends[q - 1] if q else 0, self.ends[q]

    def _find(self, space, pos):
        """Where id `space` begins in the ids at or after pos (a whole id, not a part of
        one: "a1" is not found in "a10"), or -1."""
        names = self.names
        space = space.encode()
        at = names.find(space, pos) if space else -1
        while at >= 0:
            end = at + len(space)
            if (at == 0 or names[at - 1] == _SPACE) and (end == len(names) or names[end] == _SPACE):
                return at
            at = names.find(space, end)
        return -1

    def values(self):
        start = 0
        for end in self.ends:
            yield self.pixels[start:end]
            start = end

    def unpack(self):
        """The map as a dict, as the profile file has it."""
        spaces = {}
        pixels = self.values()
        for name in self.ids():
            spaces[name] = next(pixels)
        return spaces


def _by_space(items):
    """items ([space, ...] each) in the order of their spaces: as they come when they are
    (the contract), else sorted (a game that lists them in its own order)."""
    for j in range(1, len(items)):
        if items[j][0] < items[j - 1][0]:
            return sorted(items)
    return items


def _changed(old, new):
    """The spaces whose marks differ between two lists of marks sorted by space, in order, each
    once, as far as the walk went: it stops when they are more than half of new's marks (most
    changed). None when new is not sorted. One walk of both lists: the marks of a space are
    next to each other in each."""
    changes = []
    i = j = 0
    n, m = len(old), len(new)
    last = None  # the last space noted
    while i < n or j < m:
        a = old[i] if i < n else None
        b = new[j] if j < m else None
        if b is not None and j and b[0] < new[j - 1][0]:
            return None
        if a is not None and (a is b or a == b):
            i += 1
            j += 1
            continue
        if b is None or (a is not None and a[0] < b[0]):
            space = a[0]
            i += 1
        else:
            space = b[0]
            j += 1
            if a is not None and a[0] == space:
                i += 1
        if space != last:
            last = space
            changes.append(space)
            if 2 * len(changes) > m:
                break
    return changes


def _set(frame, pixel, rgb):
    """One pixel (rgb: 3 bytes), set with one slice copy: the painter's hot path."""
    i = 3 * pixel
    frame[i:i + 3] = rgb


# A palette key "cb:KEY" is KEY's colour in the colour-vision palette (docs/led-language.md,
# "Colour vision"): Okabe-Ito-based, told apart by protans, deutans and tritans alike.
_CB = const("cb:")


class Painter:
    def __init__(self, profile, game_name, palette, signs=None, vision=False):
        """vision: paint with the colour-vision palette (a key without a "cb:" colour keeps
        its own)."""
        spaces = profile["maps"][game_name]
        # The painter walks its game's map packed, in place (as a dict it would cost the game
        # 2 to 3 KB): the space ids in their sorted order, and their pixels' runs.
        self.map = spaces if isinstance(spaces, PackedMap) else PackedMap(spaces)
        self.map.find_places()
        self.place = {}  # each space's place in the map, as index() found it
        self.die = profile["die"]
        self.seats = profile["seats"]
        self.status = profile["status"]
        self.meter = profile.get("meter", ())
        # The palette as 3-byte colours, and each player's colour dimmed for the seat lights
        # (the only colours shown dimmed).
        self.rgb = {}
        self.dim = {}
        for key in palette:
            if key.startswith(_CB):
                continue
            rgb = self.rgb[key] = bytes(palette.get(_CB + key, palette[key]) if vision
                                        else palette[key])
            if key.isdigit():  # a player's colour: found by the int too, with no str() per pixel
                self.rgb[int(key)] = rgb
                self.dim[int(key)] = bytes(c // 8 for c in rgb)  # (by the seat: no str())
        # The frame every paint starts from (_bare_board), made with the painter, at the game's
        # start: a Python loop over every pixel of the map (5 ms for 256 on a Pico) that would
        # otherwise be the first redraw's.
        self._bare = self._bare_board(3 * profile["led"]["count"])
        # (the marks' list, the bare board with them drawn): a redraw with the same list
        # (engine.play keeps a view until the game moves), or an equal one, starts from them.
        self._marked = None
        self.signs = signs or {}  # a power's pattern on the die pixels: "10101", 1 = lit

    def prime(self, marks):
        """The marks drawn now into the frame the next painting starts from (over the last
        marks drawn, or the bare board), so that the painting's tick has only the rest: at a
        game's start (a long tick already: drawn in the first redraw, every mark found in the
        map, they were the longest redraw of a game, the kitchen's 9.7 ms on a Pico), and in
        the tick after the one that made a view after a move (engine.play). False, and nothing
        drawn, when they are drawn already (the same list, or an equal one)."""
        marked = self._marked
        if marked is not None and (marks is marked[0] or marks == marked[0]):
            if marks is not marked[0]:  # a move that left them as they were (compared in C)
                self._marked = (marks, marked[1])  # (the next look: by identity)
            return False
        frame = bytearray(len(self._bare))
        drawn = self._marks(frame, marks)
        marked = self._marked = None  # (its heap back first)
        # The view's own list where it was sorted already: the painting looks by identity
        self._marked = (marks if drawn is marks or drawn == marks else drawn, bytes(frame))
        return True

    def index(self, space):
        """The place of space in the game's map, -1 where it has none: found once by a search
        of the map (some 150 us of a Pico), then kept (a 16x16 board's 256: some 3 KB)."""
        q = self.place.get(space)
        if q is None:
            q = self.place[space] = self.map.index(space)
        return q

    def pixels_of(self, space):
        """The pixels of a space of the game's map; () for one the map does not have."""
        q = self.index(space)
        if q < 0:
            return ()
        start, end = self.map.span(q)
        return self.map.pixels[start:end]

    def colour(self, key, default=WHITE):
        rgb = self.rgb.get(key)
        return rgb if rgb is not None else self.rgb.get(str(key), default)

    def paint(self, frame, view, now, players, offer=None, seat=None, signal=None):
        """Draw the whole board into frame.

        offer: the hint of the choice under the cursor; seat: the seat to blink instead
        of the player to act (while someone picks their seat); signal: a status colour.
        """
        colour = self.colour
        blink_on = (now // BLINK_MS) % 2 == 0
        cycle = now // CYCLE_MS
        if len(frame) != len(self._bare):
            self._bare = self._bare_board(len(frame))  # (a frame of another size: drawn anew)
            self._marked = None
        self.prime(view["marks"])  # (from the last marks drawn, when it has them)
        frame[:] = self._marked[1]
        # A view's "blink": spaces whose pieces blink (shown every other half period).
        blink = view.get("blink") if not blink_on else None
        owners = []  # the owners on one space, each once (equal owners are adjacent: sorted)
        last = -1
        for space, who in _by_space(view["pieces"]):
            q = self.index(space)
            if q < 0:
                continue  # (a space this board does not have)
            if q != last:
                self._crowd(frame, last, owners, cycle)
                last = q
                owners = [] if blink and space in blink else [who]
            elif owners and owners[-1] != who:
                owners.append(who)
        self._crowd(frame, last, owners, cycle)
        for space, tower in view.get("stacks", ()):
            self._tower(frame, space, tower, blink_on, now // (2 * BLINK_MS), cycle)
        for space, keys in view.get("lights", ()):  # pixel by pixel; None and past the end: dark
            pixels = self.pixels_of(space)
            for j in range(len(pixels)):
                key = keys[j] if j < len(keys) else None
                _set(frame, pixels[j], OFF if key is None else colour(key))
        ghost = offer.get("ghost") if offer is not None else None
        # A card on offer shows three quarters of each second and the table beneath it one
        # quarter: held long enough to read as a card in the hand, not a flicker, and still
        # showing what it would cover. Other choices blink half and half.
        if offer is not None and (blink_on if ghost is None else (now // BLINK_MS) % 4 != 3):
            paints = offer.get("paint", ())  # [space, key]: blinks in that colour, not white
            for space in offer.get("spaces", ()) if ghost is None else ():
                rgb = WHITE
                for s, key in paints:
                    if s == space:
                        rgb = colour(key)
                for p in self.pixels_of(space):
                    _set(frame, p, rgb)
            for space, kind in ghost or ():
                rgb = colour(kind)
                for p in self.pixels_of(space):
                    _set(frame, p, rgb)
        if offer and "dice" in offer:
            self._dice(frame, offer["dice"], view["turn"])
        elif offer and offer.get("sign") in self.signs:
            self._sign(frame, offer["sign"])
        elif offer and "count" in offer:
            self._count(frame, view["pieces"], offer["count"], cycle)
        else:
            self._dice(frame, view["dice"], view["turn"])
        self._seats(frame, view["turn"] if seat is None else seat, blink_on, players)
        meter = view["status"].get("meter")
        if meter and self.meter:
            value, most = meter
            lit = min(len(self.meter), (len(self.meter) * value + most - 1) // most)
            rgb = colour("meter")
            for j in range(lit):
                _set(frame, self.meter[j], rgb)
        if signal is not None:
            _set(frame, self.status, _SIGNALS.get(signal, WHITE))  # the engine's, not a game's
        elif offer is not None and offer.get("mark"):
            _set(frame, self.status, colour(offer["mark"]))
        elif view.get("mark"):  # what the game shows on its own (Gouda: an Extra Turn)
            _set(frame, self.status, colour(view["mark"]))

    def _marks(self, frame, marks):
        """The bare board, every space glowing faintly so the track stays visible, with the
        marks over it: sorted by space (the contract), each space's place in the map found
        once (index); the spaces without one cost nothing. A space's first mark shows (Gouda's
        cheese over its target). With the last marks drawn at hand (a move changes a few: a tile
        dealt, a cheese taken), only the spaces whose marks differ are drawn again, over that
        frame: the same frame as drawn anew. Returns the marks, sorted, to be kept as the last
        drawn.

        One walk of the two lists finds the spaces that changed (_changed), and a halving of
        the new list each one's first mark.
        On a Pico every step costs, in C as in Python: a dict and a set made of the lists (C's
        walk) took the kitchen's 41 marks 5.7 ms, a walk of them 1 ms."""
        bare = self._bare  # (frame is its size: prime's, which paint keeps to the frame's)
        marked = self._marked
        changes = None  # [space, its first new mark's kind or None]: the spaces drawn again
        if marked is not None:
            changes = _changed(marked[0], marks)
            if changes is None:  # (a game that lists them in its own order)
                marks = sorted(marks)
                changes = _changed(marked[0], marks)
            if 2 * len(changes) > len(marks):
                changes = None  # most of them changed: from the bare board, in one pass, is less
            else:
                m = len(marks)
                for k in range(len(changes)):  # each space's first mark in marks, by halving
                    space = changes[k]
                    i, j = 0, m
                    while i < j:
                        mid = (i + j) // 2
                        if marks[mid][0] < space:
                            i = mid + 1
                        else:
                            j = mid
                    changes[k] = (space, marks[i][1] if i < m and marks[i][0] == space else None)
        else:
            marks = _by_space(marks)
        if changes is None:
            frame[:] = bare
            changes = marks
        else:
            frame[:] = marked[1]
        pixels = self.map.pixels
        shown = -1
        for change in changes:
            q = self.index(change[0])
            if q < 0 or q == shown:
                continue  # (not on this board; a space's first mark shows)
            shown = q
            kind = change[1]
            rgb = None if kind is None else self.colour(kind)
            start, end = self.map.span(q)
            for n in range(start, end):
                i = 3 * pixels[n]
                frame[i:i + 3] = bare[i:i + 3] if rgb is None else rgb
        return marks

    def _bare_board(self, size):
        """A frame with every space of the map in the "empty" colour, the rest dark."""
        frame = bytearray(size)
        rgb = self.colour("empty", OFF)
        for p in self.map.pixels:  # (_set's slice copy, without a call a pixel)
            frame[3 * p:3 * p + 3] = rgb
        return bytes(frame)

    def _crowd(self, frame, q, owners, cycle):
        """The pieces on the space at place q: one owner's colour a pixel; when the colours
        outnumber the pixels, they take turns."""
        if not owners:
            return
        pixels = self.map.pixels
        start, end = self.map.span(q)
        k = len(owners)
        shift = cycle % k if k > end - start else 0
        for n in range(end - start):
            _set(frame, pixels[start + n], self.colour(owners[(shift + n) % k]))

    def _tower(self, frame, space, tower, blink_on, blinks, cycle):
        """A tower, top first: the top's colour on the space's first pixel, the pieces below
        taking turns on the others; on a one-pixel space they take turns with the top, in the
        half of each blink when an offered space shows white (so an offered tower shows its
        top between the white flashes)."""
        pixels = self.pixels_of(space)
        if not pixels:
            return
        colour = self.colour
        below = tower[1:]
        if len(pixels) == 1:
            top = tower[0] if not below or not blink_on else below[blinks % len(below)]
            _set(frame, pixels[0], colour(top))
            return
        _set(frame, pixels[0], colour(tower[0]))
        rest = below or tower[:1]
        k = len(rest)
        shift = cycle % k if k > len(pixels) - 1 else 0
        for j in range(1, len(pixels)):
            _set(frame, pixels[j], colour(rest[(shift + j - 1) % k]))

    def tumble(self, frame, now):
        """The roll animation: a light running round the die pixels (shows no result)."""
        k = (now // 70) % len(self.die)
        for j in range(len(self.die)):
            _set(frame, self.die[j], WHITE if j == k else OFF)

    def reveal(self, frame, space, kind, now):
        """A tile being turned over: it flips between its back and what it shows."""
        rgb = self.colour(kind) if (now // 150) % 2 else self.colour("tile")
        for p in self.pixels_of(space):
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

    def _sign(self, frame, key):
        """A power's sign: its pattern on the die pixels, in its colour."""
        rgb = self.colour(key)
        pattern = self.signs[key]
        for j in range(min(len(pattern), len(self.die))):
            _set(frame, self.die[j], rgb if pattern[j] == "1" else OFF)

    def _count(self, frame, pieces, space, cycle):
        """The pieces on space, one die pixel each in its owner's colour; when there are more
        than pixels, they take turns in pages of one owner each (each for CYCLE_MS), as many
        pixels as that owner has, at most all of them: six mice of one colour on a five-pixel
        die show as five, then one, so that no mouse is left out of the count."""
        owners = [who for s, who in pieces if s == space]  # sorted: equal owners adjacent
        pixels = self.die
        size = len(pixels)
        if len(owners) > size:
            pages = []  # (where the page starts in owners, how many it shows)
            start = 0
            while start < len(owners):
                end = start
                while end < len(owners) and end - start < size and owners[end] == owners[start]:
                    end += 1
                pages.append((start, end - start))
                start = end
            start, n = pages[cycle % len(pages)]
            owners = owners[start:start + n]
        for j in range(len(owners)):
            _set(frame, pixels[j], self.colour(owners[j]))

    def _seats(self, frame, turn, blink_on, players):
        for seat in range(min(players, len(self.seats))):
            if seat == turn:
                _set(frame, self.seats[seat], self.colour(seat) if blink_on else OFF)
            else:
                _set(frame, self.seats[seat], self.dim.get(seat, OFF))
