"""The power limiter's two loops over a frame (cheesefw.render.PowerLimiter) in viper, for the
boards whose MicroPython compiles it (rp2): the VM's own sum() of a frame costs the emulated
Pico about 2.9 µs a byte (0.55 ms of a 64 px frame, 1.8 ms of a 256 px one), and its scaling
loop several times that; compiled, each is a few instructions a byte. The same arithmetic as
render.py's, checked against it on the unix port (tests/hardware/test_frame_loops.py).

Compiled on the chip, as rp2.py's reorder is: an image built for any board carries bytecode
only, and viper is the chip's own instructions."""

_LOOPS = """
@micropython.viper
def total(frame) -> int:
    byte = ptr8(frame)
    n = int(len(frame))
    sum_ = 0
    i = 0
    while i < n:
        sum_ += byte[i]
        i += 1
    return sum_

@micropython.viper
def scale(out, frame, allowed: int, total: int):
    to = ptr8(out)
    byte = ptr8(frame)
    n = int(len(frame))
    i = 0
    while i < n:
        to[i] = byte[i] * allowed // total
        i += 1
"""


def compiled():
    """(total, scale): total(frame) the sum of its bytes; scale(out, frame, allowed, total)
    each byte of frame times allowed // total, into out."""
    return on_chip(_LOOPS, "total", "scale")


def on_chip(source, *names):
    """The functions named in viper source, compiled here, on the chip (rp2.py's reorder
    too)."""
    import micropython

    scope = {"micropython": micropython}
    exec(source, scope)
    return tuple(scope[name] for name in names)
