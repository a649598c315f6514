"""The board demo: a cursor that the buttons move, to try LEDs and buttons."""

from cheesefw import render

COLOURS = ((255, 160, 0), (0, 180, 255), (255, 0, 90), (60, 255, 60))


class Demo:
    def __init__(self, board):
        self.board = board
        self.cursor = 0
        self.colour = 0
        self.presses = 0

    def on_button(self, name, event):
        """Move the cursor (prev/next), change its colour (ok); True when the view changed."""
        if event != "press":
            return False
        self.presses += 1
        n = self.board.pixel_count
        if name == "next":
            self.cursor = (self.cursor + 1) % n
        elif name == "prev":
            self.cursor = (self.cursor - 1) % n
        elif name in ("ok", "roll"):
            self.colour = (self.colour + 1) % len(COLOURS)
        elif name == "back":
            self.cursor = 0
        return True

    def update(self, now):
        return False

    def draw(self, frame):
        for i in range(len(frame)):
            frame[i] = 0
        render.put(frame, self.cursor, COLOURS[self.colour])

    def describe(self):
        return {"mode": "demo", "cursor": self.cursor, "presses": self.presses}
