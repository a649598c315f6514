"""The menu before a game: choose the game, then each of its options, with the buttons.

prev/next change the value on offer, ok takes it and moves to the next step, back
returns to the step before. The seat pixels show which value is on offer (one lit
pixel per position), the die pixels count the steps (1 to 5 grey pips, then 1 to 5
blue ones for steps 6 to 10, so that every step of a long menu has its own sign),
and the chosen game's spaces glow so that players see which board they are about
to play.
"""

from cheesefw.games import GAMES
from cheesefw.render import put

GAME_COLOURS = ((255, 140, 0), (0, 120, 255), (200, 0, 200))
VALUE = (0, 200, 80)
STEPS = ((80, 80, 80), (0, 60, 200), (120, 0, 120))  # the die pips' colour, page by page


class Menu:
    def __init__(self, profile, start_game):
        """start_game(name, options) is called when the last option is taken."""
        self.profile = profile
        self.games = [g for g in GAMES if g in profile["maps"]]  # those this board can show
        self.start_game = start_game
        self.steps = None  # [("game", names)] then the chosen game's OPTIONS
        self.step = 0
        self.values = [0]
        self._reset()

    def _reset(self):
        self.steps = [("game", tuple(self.games))]
        self.step = 0
        self.values = [0]

    def on_button(self, name, event, now):
        if event != "press":
            return False
        key, choices = self.steps[self.step]
        if name in ("next", "prev"):
            step = 1 if name == "next" else -1
            self.values[self.step] = (self.values[self.step] + step) % len(choices)
        elif name == "ok":
            if self.step == 0:
                self._load_options(choices[self.values[0]])
            if self.step + 1 == len(self.steps):
                self._start()
                return True
            self.step += 1
            self.values.append(0)
        elif name == "back" and self.step > 0:
            self.values.pop()
            self.step -= 1
        return True

    def _load_options(self, game):
        from cheesefw.games import load

        self.steps = self.steps[:1] + list(load(game).OPTIONS)

    def _start(self):
        game = self.steps[0][1][self.values[0]]
        options = {}
        for i in range(1, len(self.steps)):
            key, choices = self.steps[i]
            options[key] = choices[self.values[i]]
        self._reset()
        self.start_game(game, options)

    def update(self, now):
        return False

    def draw(self, frame):
        for i in range(len(frame)):
            frame[i] = 0
        profile = self.profile
        game = self.games[self.values[0]]
        glow = GAME_COLOURS[self.values[0] % len(GAME_COLOURS)]
        for pixels in profile["maps"][game].values():
            for p in pixels:
                put(frame, p, (glow[0] // 6, glow[1] // 6, glow[2] // 6))
        seats = profile["seats"]
        put(frame, seats[self.values[self.step] % len(seats)], glow if self.step == 0 else VALUE)
        die = profile["die"]
        page, pips = divmod(self.step, len(die))
        for j in range(pips + 1):
            put(frame, die[j], STEPS[page % len(STEPS)])

    def describe(self):
        key, choices = self.steps[self.step]
        return {
            "mode": "menu",
            "game": self.games[self.values[0]],  # the overlay its lights show
            "step": key,
            "value": choices[self.values[self.step]],
            "choices": list(choices),
        }
