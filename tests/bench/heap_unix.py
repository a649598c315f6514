# Run by bench_heap.py on the unix port (64-bit): boot the flashed image as the virtual board
# does (the flash folder mounted at /, boot.py, then the App), then play one game with
# heap_drive, the live heap read after each step.   argv: FLASH SIMVM GAME OPTIONS-JSON
# With GAME "--trial": the first boot after a flash, which checks the profile and every rule
# table and leaves their stamps on the flash (cheesefw/checked.py), then stops.
import gc
import json
import os
import sys

flash, simvm, game, options = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
sys.path.insert(0, simvm)
import simboard  # noqa: E402  # the sim backend's side channel, here to nowhere

simboard.out = open("/dev/null", "wb")
simboard.receive = lambda: None
os.mount(os.VfsPosix(flash), "/")
os.chdir("/")
sys.path[:] = ["", "/lib"]
exec(open("boot.py").read())
from cheesefw import app  # noqa: E402

if game == "--trial":
    app.start(trial=True)
    print(json.dumps({"trial": "up"}))
    sys.exit(0)
board_app = app.start()
gc.collect()
boot = gc.mem_alloc()
import heap_drive  # noqa: E402

drive = heap_drive.Drive(board_app, game, options, 12345)
gc.collect()
start = peak = gc.mem_alloc()
while drive.step():
    gc.collect()
    peak = max(peak, gc.mem_alloc())
print(json.dumps({"boot": boot, "start": start, "peak": peak, "moves": drive.moves(),
                  "steps": drive.steps}))
