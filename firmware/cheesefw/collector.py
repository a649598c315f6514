"""When the main loop collects the heap: in a tick of its own, before the heap runs out.

Left to itself MicroPython collects when an allocation finds no room: in the middle of
whatever tick asks for it (a redraw, a board player's thinking), and a collection of a game's
heap is most of a Pico's tick (6-9 ms as .mpy files: docs/benchmarks.md). Asking the heap how
full it is (gc.mem_free()) walks every block of it, 8.4 ms on a Pico: done once, at the start.

Where a new one-block object lands says it instead. MicroPython's allocator takes the first
free block from where it last found one, so between collections new objects land ever higher
in the heap, and after a collection they start again from its lowest free block. The heap ends
no lower than the first free block at the start plus the free bytes then, nor than the highest
a new object has landed since. A tick whose new object lands in the last quarter of the free
heap below that end collects, and does nothing else; unless a collection left new objects
landing there already (the heap is nearly full of live objects: collecting again would free
nothing, and the VM collects when it must)."""

import gc


class Collector:
    def __init__(self):
        gc.collect()
        self.landed = id(bytearray(1))  # where the last new object landed (due())
        self.after = self.landed  # where one landed after the last collection
        free = gc.mem_free()
        self.end = self.landed + free  # the heap ends no lower than this
        self.headroom = free // 4  # kept free for the ticks before a collection

    def due(self):
        """Whether this tick should collect: one new object made, and compared."""
        at = id(bytearray(1))
        if at < self.landed:  # a collection since the last tick (the VM's, or a game's start)
            self.after = at
        elif at > self.end:
            self.end = at
        self.landed = at
        edge = self.end - self.headroom
        return at > edge and self.after < edge

    def collect(self):
        gc.collect()
        self.after = self.landed = id(bytearray(1))
