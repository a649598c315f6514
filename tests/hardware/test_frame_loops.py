"""The power limiter's loops compiled for the chip (cheesefw/hal/frame_loops.py, viper, as the
rp2 backend uses them) against the VM's own (cheesefw/render.py), on the MicroPython VM (the
unix port compiles viper for its own CPU, as a Pico's MicroPython does for its): the same sums
and the same scaled frames, under and over the budget, at every size from one pixel to 256."""

import json

from mpvm import run_mp

CODE = """
import json, random
from cheesefw import render
from cheesefw.hal import frame_loops
total, scale = frame_loops.compiled()
random.seed(7)
led = {"budget_ma": 500, "ma_full_white": 60, "count": 256}
compiled = render.PowerLimiter(led, (total, scale))
in_vm = render.PowerLimiter(led)
checked = over = 0
for pixels in list(range(1, 9)) + [64, 100, 255, 256]:
    for bright in (0, 8, 40, 255):
        frame = bytearray(random.getrandbits(8) % (bright + 1) for _ in range(3 * pixels))
        assert total(frame) == sum(frame), (pixels, bright)
        a, b = bytearray(len(frame)), bytearray(len(frame))
        compiled.limit(frame, a)
        in_vm.limit(frame, b)
        assert a == b, (pixels, bright)
        if a != frame:
            over += 1
        checked += 1
# the scaling alone, at the extremes of its arithmetic (a full white frame, the least budget)
frame = bytearray(b"\\xff" * 768)
a, b = bytearray(768), bytearray(768)
scale(a, frame, 1, sum(frame))
render.scale(b, frame, 1, sum(frame))
assert a == b
print(json.dumps({"checked": checked, "over": over}))
"""


def test_the_compiled_loops_sum_and_scale_as_the_vm_s_own():
    result = json.loads(run_mp(CODE).strip().splitlines()[-1])
    assert result["checked"] == 48
    # both ways through the limiter were taken: frames under the budget copied, frames over it
    # scaled (a sum the compiled loop got wrong would send one the other way)
    assert 0 < result["over"] < result["checked"], result
