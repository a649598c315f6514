"""The loader's check of a slot's compiled modules (main.py's cut_short) on LittleFS, as a
Pico's flash holds them: there a folder's listing gives each file's size, and the check reads
the sizes from one listing a folder rather than walking each module's path from the root. Run
on MicroPython's unix port, the slot copied onto a LittleFS disk in its RAM made as a Pico's
(4 KB blocks, 256-byte pages); the unix-port board's own flash, a host folder whose listing has
no sizes, is test_flash_cut_module.py's."""

import pytest
from mpvm import FIRMWARE, run_mp

from cheeseboard.paths import load_profile
from cheeseboard.sim import flash as simflash

# MicroPython: a RAM disk of 4 KB blocks with LittleFS on it, as a Pico mounts its flash; the
# slot copied onto it from the host's folder; main.py's functions, not its boot, then run there.
ON_LITTLEFS = """
import os

class Disk:
    def __init__(self, blocks):
        self.data = bytearray(blocks * 4096)
    def readblocks(self, block, buf, offset=0):
        at = block * 4096 + offset
        buf[:] = self.data[at:at + len(buf)]
    def writeblocks(self, block, buf, offset=None):
        at = block * 4096 + (offset or 0)
        self.data[at:at + len(buf)] = buf
    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // 4096
        if op == 5:
            return 4096
        if op == 6:
            self.data[arg * 4096:(arg + 1) * 4096] = b"\\xff" * 4096
            return 0

def copy(src, dst):
    os.mkdir(dst)
    for entry in os.ilistdir(src):
        if entry[1] & 0x4000:
            copy(src + "/" + entry[0], dst + "/" + entry[0])
        else:
            with open(src + "/" + entry[0], "rb") as f, open(dst + "/" + entry[0], "wb") as g:
                g.write(f.read())

disk = Disk(256)
os.VfsLfs2.mkfs(disk)
os.mount(os.VfsLfs2(disk, progsize=256), "/flash")
copy(%(slot)r, "/flash/slot_a")
for name in %(cut)r:
    with open("/flash/slot_a/" + name, "rb") as f:
        data = f.read()
    with open("/flash/slot_a/" + name, "wb") as f:
        f.write(data[:len(data) // 2])
for name in %(gone)r:
    os.remove("/flash/slot_a/" + name)
print("listing has sizes:", len(next(os.ilistdir("/flash/slot_a"))) > 3)
source = open(%(main)r).read()
exec(source[:source.index("\\nstate = read_state()\\n")])
os.chdir("/flash")
print("cut short:", cut_short("slot_a"))
"""


@pytest.fixture(scope="module")
def slot(tmp_path_factory):
    folder = tmp_path_factory.mktemp("flash")
    simflash.install_firmware(folder, load_profile("pico"))
    return folder / "slot_a"


def check_on_littlefs(slot, cut=(), gone=()):
    out = run_mp(ON_LITTLEFS % {"slot": str(slot), "cut": list(cut), "gone": list(gone),
                                "main": str(FIRMWARE / "main.py")}, heap=2 * 1024 * 1024)
    assert "listing has sizes: True" in out, out  # the path a Pico takes, not the stat
    return out.strip().splitlines()[-1]


def test_a_whole_slot_on_littlefs_passes(slot):
    assert check_on_littlefs(slot) == "cut short: None"


@pytest.mark.parametrize("module", ["cheesefw/app.mpy", "cheesefw/engine/core.mpy",
                                    "cheesefw/games/kitchen.mpy"])
def test_a_module_cut_in_half_on_littlefs_is_named(slot, module):
    assert check_on_littlefs(slot, cut=[module]) == "cut short: %s" % module


def test_a_module_gone_from_littlefs_is_named(slot):
    assert check_on_littlefs(slot, gone=["cheesefw/hal/rp2.mpy"]) == \
        "cut short: cheesefw/hal/rp2.mpy"
