# Run on MicroPython by bench_heap.py, compiled into the firmware image as flashed: a whole
# game through the booted board's App, one step a call, so that the caller can collect and
# read the live heap between steps (on the WebAssembly port only JS can: a collection
# frees only what nothing on the C stack points at).
from cheesefw.engine.rng import Rng


class Drive:
    def __init__(self, app, game, options, seed):
        from cheesefw.games import load

        self.app = app
        opts = dict(options)
        seats = opts.pop("seats", ())  # [seat, level] pairs the board plays, as the menu gives
        for key, choices in load(game).OPTIONS:  # as the menu takes them: first by default
            opts.setdefault(key, choices[0])
        app.board.random_seed = lambda: seed  # the same game on both VMs, run after run
        app.scene.start_game(game, opts, seats)  # the engine: journal, rule table, play scene
        self.rng = Rng(seed)
        self.now = 0
        self.steps = 0

    def step(self):
        """One action (a random choice, a roll, a timer run out) and a tick; False at the end."""
        scene = self.app.scene.scene
        if scene.wait == "over":
            return False
        self.now += 10
        if scene.wait in ("decide", "window"):
            scene._apply(scene.choices[self.rng.below(len(scene.choices))], self.now)
        elif scene.wait == "roll":
            scene._roll_dice(self.now)
        else:
            self.now += 1000  # let a timer run out (the board's cat thinking, the dice)
            scene.update(self.now)
        self.app.dirty = True
        self.app.tick()  # the main loop's pass: buttons, console, draw, limit, show
        self.steps += 1
        return True

    def moves(self):
        return len(self.app.scene.scene.state.history)
