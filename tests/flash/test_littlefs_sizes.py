"""What reads the sizes of a slot's files from its folders' listings, on LittleFS as a Pico's
flash holds them (there a listing gives each file's size, where a stat walks the file's path down
from the root again): the loader's check of the compiled modules (main.py's cut_short) and
`cheeseboard flash`'s listing of a slot (agent.listing). Run on MicroPython's unix port, the
slot copied onto a LittleFS disk in its RAM made as a Pico's (4 KB blocks, 256-byte pages); the
unix-port board's own flash, a host folder whose listing has no sizes, is the other tests'."""

import hashlib
import json

import pytest
from mpvm import FIRMWARE, run_mp

from cheeseboard.flash import agent
from cheeseboard.paths import load_profile
from cheeseboard.sim import flash as simflash

# MicroPython: a RAM disk of 4 KB blocks with LittleFS on it, as a Pico mounts its flash; the
# slot copied onto it from the host's folder; then the code under test (LOADER, AGENT).
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
%(then)s
"""
# main.py's functions, not its boot; then its check of slot_a
LOADER = """
source = open(%r).read()
exec(source[:source.index("\\nstate = read_state()\\n")])
os.chdir("/flash")
print("cut short:", cut_short("slot_a"))
"""
# the agent as `cheeseboard flash` sends it; then its listing of slot_a
AGENT = """
exec(open(%r).read())
os.chdir("/flash")
listing("slot_a")
"""


@pytest.fixture(scope="module")
def slot(tmp_path_factory):
    folder = tmp_path_factory.mktemp("flash")
    simflash.install_firmware(folder, load_profile("pico"))
    return folder / "slot_a"


def on_littlefs(slot, then, cut=(), gone=()):
    out = run_mp(ON_LITTLEFS % {"slot": str(slot), "cut": list(cut), "gone": list(gone),
                                "then": then}, heap=2 * 1024 * 1024)
    assert "listing has sizes: True" in out, out  # the path a Pico takes, not the stat
    return out.strip().splitlines()[-1]


def check_on_littlefs(slot, cut=(), gone=()):
    return on_littlefs(slot, LOADER % str(FIRMWARE / "main.py"), cut, gone)


def test_a_whole_slot_on_littlefs_passes(slot):
    assert check_on_littlefs(slot) == "cut short: None"


@pytest.mark.parametrize("module", ["cheesefw/app.mpy", "cheesefw/engine/core.mpy",
                                    "cheesefw/games/kitchen.mpy"])
def test_a_module_cut_in_half_on_littlefs_is_named(slot, module):
    assert check_on_littlefs(slot, cut=[module]) == "cut short: %s" % module


def test_a_module_gone_from_littlefs_is_named(slot):
    assert check_on_littlefs(slot, gone=["cheesefw/hal/rp2.mpy"]) == \
        "cut short: cheesefw/hal/rp2.mpy"


def test_the_agents_listing_on_littlefs_gives_each_files_size_and_hash(slot):
    files = {str(p.relative_to(slot)): p.read_bytes() for p in slot.rglob("*") if p.is_file()}
    cut = "cheesefw/games/kitchen.mpy"
    answer = on_littlefs(slot, AGENT % agent.__file__, cut=[cut])
    assert answer.startswith("." * len(files) + "{")  # a sign of life a file hashed
    files[cut] = files[cut][: len(files[cut]) // 2]
    assert json.loads(answer.lstrip(".")) == {
        name: [hashlib.sha256(data).hexdigest()[:16], len(data)] for name, data in files.items()}
