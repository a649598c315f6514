# Run on the emulated Pico by bench_calibration.py (mpremote run): the operations of a
# published benchmark of MicroPython on real boards (shaoziyang/micropython_benchmarks), in
# code of our own that does the same work, each timed as that benchmark times it (a
# collection first, then time.ticks_ms around the call). One JSON line: {name: ms}.
import gc
import json
import time


def int_add(times, operands):
    """Two small ints from a list added, times times."""
    for _ in range(times):
        total = operands[0] + operands[1]  # noqa: F841


def int_mul(times, operands):
    """Two ints from a list multiplied (a product past a small int), times times."""
    for _ in range(times):
        product = operands[0] * operands[1]  # noqa: F841


def float_add(times, operands):
    """Two floats from a list added, times times."""
    for _ in range(times):
        total = operands[0] + operands[1]  # noqa: F841


def float_pow(times, operands):
    """A float to a float's power, times times."""
    for _ in range(times):
        power = operands[0] ** operands[1]  # noqa: F841


def mandelbrot(limit):
    """The Mandelbrot set on an 81 x 31 grid of complex numbers as a picture in text: a point
    is in it when z = z * z + c stays within 4 for limit steps."""

    def escapes(c):
        z = 0
        for _ in range(limit):
            z = z * z + c
            if abs(z) > 4:
                return True
        return False

    picture = ""
    for row in range(31):
        for col in range(81):
            picture += "#" if escapes((col / 30 - 2) + (row / 15 - 1) * 1j) else " "
        picture += "\n"
    return picture


def pi_digits(digits):
    """Pi to digits places as an int, by 6 * arcsin(1/2): term k is term k - 1 times
    (2k - 1)^2 / (8k (2k + 1)), both factors kept up to date by additions."""
    guard = 8
    term = 3 * 10 ** (digits + guard)
    total = term
    odd_square, odd_square_step = 1, 0  # (2k - 1)^2, and what takes it to k + 1's
    divisor, divisor_step = 0, 24  # 8k (2k + 1)
    while term > 1:
        odd_square += odd_square_step
        odd_square_step += 8
        divisor += divisor_step
        divisor_step += 32
        term = term * odd_square // divisor
        total += term
    return total // 10 ** guard


# (name, function, arguments), as the published table names its columns
RUNS = (
    ("int add x100000", int_add, (100000, [12345678, 56781234])),
    ("int mul x10000", int_mul, (10000, [12345678, 56781234])),
    ("float add x100000", float_add, (100000, [12345678.1234, 56781234.5678])),
    ("float pow x10000", float_pow, (10000, [1234.5678, 2.3456])),
    ("Mandelbrot 100 steps", mandelbrot, (100,)),
    ("pi 1000 digits", pi_digits, (1000,)),
)

assert str(pi_digits(30)) == "3141592653589793238462643383279"
assert mandelbrot(20).count("\n") == 31

results = {}
for name, function, args in RUNS:
    gc.collect()
    t0 = time.ticks_ms()
    function(*args)
    results[name] = time.ticks_diff(time.ticks_ms(), t0)
print(json.dumps(results))
