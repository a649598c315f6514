"""The board when no profile can be read anywhere (its slot's, the good copy, the other slot's,
the frozen firmware's): rather than stop at the REPL, it answers the protocol's `hello` with a
`fault` field saying which file and why, so that `cheeseboard info` can say what is wrong and
`cheeseboard flash` can put a whole firmware on (it takes the board through the raw REPL, as
any flash does: a Ctrl-C stops this loop). No pin is touched, no LED lit: without a profile
the board's wiring is not known.

Imported only then (cheesefw.app.main): an ordinary boot never loads it.
"""

from cheesefw import hal, protocol

# The board as far as it is known: a console, a clock and a flash; no LEDs, no buttons.
_NO_WIRING = {"name": None, "led": {"count": 0}, "die": b"", "seats": b"", "status": 0,
              "buttons": {}, "maps": {}}


class Fault:
    def __init__(self, fault):
        self.fault = fault
        self.board = hal.open_board(_NO_WIRING)
        self.board.app = self  # the simulator's side channel asks it for the state (hal/sim.py)
        self.server = protocol.Server(self.board.console_write,
                                      {"hello": self.hello, "state": self.state})

    def hello(self, request):
        """The board's facts (cheesefw.answers), with the fault: which file, and why."""
        from cheesefw import answers

        reply = answers.facts(None)
        reply["fault"] = self.fault
        return reply

    def state(self, request):
        return {"state": {"mode": "fault", "fault": self.fault}, "stuck": []}

    def serve(self, tick_ms, feed=None):
        """Answer the protocol for ever (feed(): main.py's, every tick)."""
        board = self.board
        while True:
            board.poll()
            data = board.console_read()
            if data:
                self.server.feed(data)
            if feed:
                feed()
            board.sleep_ms(tick_ms)


def serve(fault, tick_ms, feed=None):
    """Say the fault on the console, then answer the protocol for ever."""
    print("cheeseboard: no profile can be read (%s): answering the protocol until flashed"
          % fault)
    Fault(fault).serve(tick_ms, feed)
