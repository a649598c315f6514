"""The menu before a game: choose the game, then each of its options, then who plays each seat.

prev/next change the value on offer, ok takes it and moves to the next step, back
returns to the step before. The die pixels count the steps (1 to 5 grey pips, then 1 to 5
blue ones for steps 6 to 10, so that every step of a long menu has its own sign), and the
chosen game's spaces glow so that players see which board they are about to play. While a
game or an option is chosen the seat pixels show which value is on offer (one lit pixel per
position). Then, for a game whose module has a board player (`bot_move`), each seat
in turn is a person or the board: the seat pixel in question blinks in the colour of
its choice (dim white a person, blue the board, green the board at beginner's level),
the seats already decided stay lit in theirs. Seats the game's own options already
give to the board (`bot_players`) are not asked again, and options that only say who plays
a seat (a game's `SEAT_OPTIONS`: the kitchen's cat and mice) are left to the seat steps.

At any step roll turns the colour-vision palette on or off (for players who tell red from
green, or blue from yellow, poorly): while it is on the status light glows orange. It holds
for the games after, until roll turns it off; a board profile's `"vision": "colour-blind"`
turns it on at power-on.
"""

from cheesefw import const
from cheesefw.engine.draw import BLINK_MS
from cheesefw.games import GAMES
from cheesefw.render import put

_GAME_COLOURS = const(((255, 140, 0), (0, 120, 255), (200, 0, 200)))
_VALUE = const((0, 200, 80))
_STEPS = const(((80, 80, 80), (0, 60, 200), (120, 0, 120)))  # the die pips' colour, page by page
# Who plays a seat: a person, the board ("strong" level), the board at "beginner" level.
_SEAT_CHOICES = const(("person", "board", "beginner"))
_SEAT_COLOURS = const(((60, 60, 60), (0, 90, 255), (0, 200, 60)))
_SEAT_LEVELS = const((None, "strong", "beginner"))
_VISION_ON = const((201, 88, 0))  # the status light: Okabe-Ito's orange, as the LEDs show it


class Menu:
    def __init__(self, profile, start_game, seat_count=None, vision=False):
        """start_game(name, options, seats, vision) is called when the last step is taken,
        seats being [seat, level] pairs for the board, vision True for the colour-vision
        palette; seat_count(name, options) says how many seats a game has with those options
        (None: no seat steps)."""
        self.profile = profile
        self.vision = vision
        self.games = [g for g in GAMES if g in profile["maps"]]  # those this board can show
        self.start_game = start_game
        self.seat_count = seat_count
        self.steps = None  # [("game", names)], the chosen game's OPTIONS, then ("seatN", ...)
        self.options_end = 0  # steps before this one are the game and its options
        self.step = 0
        self.values = [0]
        self.now = 0
        self.refused = None  # why the last game chosen did not start, until the next press
        self._reset()

    def _reset(self):
        self.steps = [("game", tuple(self.games))]
        self.options_end = 1
        self.step = 0
        self.values = [0]

    def on_button(self, name, event, now):
        if event != "press":
            return False
        self.refused = None
        key, choices = self.steps[self.step]
        if name in ("next", "prev"):
            step = 1 if name == "next" else -1
            self.values[self.step] = (self.values[self.step] + step) % len(choices)
        elif name == "ok":
            if self.step == 0:
                self._load_options(choices[self.values[0]])
            if self.step + 1 == self.options_end:
                self._add_seats()  # the options are known now: so is the number of seats
            if self.step + 1 == len(self.steps):
                self._start()
                return True
            self.step += 1
            self.values.append(0)
        elif name == "back" and self.step > 0:
            self.values.pop()
            self.step -= 1
        elif name == "roll":
            self.vision = not self.vision
        return True

    def _load_options(self, game):
        from cheesefw.games import load

        module = load(game)
        asked_by_seat = getattr(module, "SEAT_OPTIONS", ())  # the seat steps ask these
        self.steps = self.steps[:1] + [o for o in module.OPTIONS if o[0] not in asked_by_seat]
        self.options_end = len(self.steps)

    def _add_seats(self):
        from cheesefw.games import load

        del self.steps[self.options_end:]
        module = load(self._game())
        if self.seat_count is None or not hasattr(module, "bot_move"):
            return
        options = self._options()
        given = module.bot_players(options) if hasattr(module, "bot_players") else []
        try:
            seats = self.seat_count(self._game(), options)
        except ValueError:
            return  # options this table cannot play: the game's start says so, as before
        for seat in range(seats):
            if seat not in given:
                self.steps.append(("seat%d" % seat, _SEAT_CHOICES))

    def _game(self):
        return self.steps[0][1][self.values[0]]

    def _options(self):
        options = {}
        for i in range(1, self.options_end):
            key, choices = self.steps[i]
            options[key] = choices[self.values[i]]
        return options

    def _seats(self):
        """The [seat, level] pairs chosen for the board."""
        seats = []
        for i in range(self.options_end, len(self.steps)):
            level = _SEAT_LEVELS[self.values[i]] if i < len(self.values) else None
            if level:
                seats.append([int(self.steps[i][0][4:]), level])
        return seats

    def _start(self):
        game, options, seats = self._game(), self._options(), self._seats()
        self._reset()
        self.start_game(game, options, seats, self.vision)

    def update(self, now):
        """Redraw when the blink of a seat step turns."""
        before = self.now // BLINK_MS
        self.now = now
        return self.step >= self.options_end and now // BLINK_MS != before

    def draw(self, frame):
        for i in range(len(frame)):
            frame[i] = 0
        profile = self.profile
        game = self.games[self.values[0]]
        glow = _GAME_COLOURS[self.values[0] % len(_GAME_COLOURS)]
        for pixels in profile["maps"][game].values():
            for p in pixels:
                put(frame, p, (glow[0] // 6, glow[1] // 6, glow[2] // 6))
        seats = profile["seats"]
        if self.step >= self.options_end:
            self._draw_seats(frame, seats)
        else:
            colour = glow if self.step == 0 else _VALUE
            put(frame, seats[self.values[self.step] % len(seats)], colour)
        if self.vision:
            put(frame, profile["status"], _VISION_ON)
        die = profile["die"]
        page, pips = divmod(self.step, len(die))
        for j in range(pips + 1):
            put(frame, die[j], _STEPS[page % len(_STEPS)])

    def _draw_seats(self, frame, pixels):
        """Each seat asked so far in the colour of its choice; the one in question blinks."""
        blink_on = (self.now // BLINK_MS) % 2 == 0
        for i in range(self.options_end, self.step + 1):
            seat = int(self.steps[i][0][4:])
            if seat >= len(pixels) or (i == self.step and not blink_on):
                continue
            put(frame, pixels[seat], _SEAT_COLOURS[self.values[i]])

    def describe(self):
        key, choices = self.steps[self.step]
        d = {
            "mode": "menu",
            "game": self.games[self.values[0]],  # the overlay its lights show
            "step": key,
            "value": choices[self.values[self.step]],
            "choices": list(choices),
        }
        if self.refused:
            d["refused"] = self.refused
        if self.vision:
            d["vision"] = "colour-blind"
        return d
