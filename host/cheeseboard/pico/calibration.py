"""How much slower a real Pico runs than the emulated one, by the kind of code.

The emulated Pico (rp2040js, with emulator.mjs's model of the XIP cache) counts the chip's
cycles; a real Pico (RP2040 at 125 MHz) differs where the model does: its cycle counts, the
cache's replacement, where the linker put the code. The factors below are a real Pico's time
over the emulated Pico's for the same operations, measured by tests/bench/bench_calibration.py
against published figures of a real Pico (docs/pico.md shows the run); a figure measured on
the emulated Pico times its kind's factor is what a real Pico is expected to show.
"""

# real Pico / emulated Pico (XIP cache modelled), from bench_calibration.py's run on a UF2
# laid out as the published Pico's was (its interpreter, collector and parser in SRAM)
REAL_OVER_EMULATED = {
    "tight loop": 1.00,  # int add, int mul, float add, float pow: 0.90x to 1.03x
    "ordinary Python": 1.01,  # Mandelbrot: calls, closures, complex numbers, strings
    "big ints": 1.33,  # pi to 1,000 digits (1.35x without the cache model: not the cache)
}
# The board players' search is ordinary Python (calls, lists, attributes) with a larger
# working set of code, whose misses the cache model counts; no published figure measures it,
# so it takes ordinary Python's factor.
KINDS = {"search": "ordinary Python"}


def factor(kind):
    """The factor of a kind of code ("tight loop", "ordinary Python", "big ints", "search")."""
    return REAL_OVER_EMULATED[KINDS.get(kind, kind)]


def on_a_pico(emulated, kind="ordinary Python"):
    """A figure measured on the emulated Pico, as a real Pico is expected to show it."""
    return emulated * factor(kind)
