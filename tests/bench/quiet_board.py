# Run on MicroPython by the benchmarks (compiled into their firmware image): the engine's
# board without hardware, so that what is measured is the firmware's own work.


class QuietBoard:
    """The engine's board without hardware: frames are counted, not sent."""

    def __init__(self, profile):
        self.profile = profile
        self.pixel_count = profile["led"]["count"]
        self.pins = {}
        self.frames = 0
        self.now = 0

    def show(self, frame):
        self.frames += 1

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def poll(self):
        pass

    def console_read(self):
        return b""

    def console_write(self, text):
        pass

    def random_seed(self):
        return 99

    def read_file(self, name):
        with open(name, "rb") as f:
            return f.read()

    def write_file(self, name, data):
        pass

    def open(self, name, mode="r"):
        raise OSError(2)  # no journal: a fresh board

    def append_file(self, name, text):
        pass

    def journal(self):
        from cheesefw.engine.journal import Journal

        return Journal(self)

    def remove_file(self, name):
        pass
