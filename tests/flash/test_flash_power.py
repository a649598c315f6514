"""A power cut at a random instant of `cheeseboard flash`: the board then boots a whole
firmware, the old or the new, never a mix, and the next flash completes."""

import hashlib
import json
import random
import subprocess
import sys
import time

import pytest
from flashing import active_slot, append, check_the_words_of_a_cut, firmware_copy, flash

from cheeseboard.flash import image
from cheeseboard.paths import load_profile

# wall: the cut falls at a wall instant of the tool's work
pytestmark = [pytest.mark.board, pytest.mark.wall]

CUT_WINDOW = 2.5  # seconds after the transfer starts: the upload, the switch, the trial boot


@pytest.fixture(scope="module")
def new_firmware(tmp_path_factory):
    """A firmware that differs from firmware/ in a few modules (its loader is the tool's)."""

    def change(root):
        for module in ("app.py", "render.py", "games/gouda.py"):
            append(root / "cheesefw" / module, "\nUPDATED = 2\n")

    return firmware_copy(tmp_path_factory.mktemp("new"), change=change)


# The default seeds cut, on this machine, during the upload (0, 1) and in the new firmware's
# trial (42, 86); the slow set cuts at over a hundred instants.
DEFAULT = (0, 1, 42, 86)


@pytest.mark.parametrize("seed", list(DEFAULT) + [
    pytest.param(seed, marks=pytest.mark.slow) for seed in range(2, 110) if seed not in DEFAULT])
def test_a_power_cut_during_a_flash_leaves_the_old_firmware_or_the_new(make_vboard, tmp_path,
                                                                        new_firmware, seed):
    rng = random.Random(seed)
    flash_dir = tmp_path / "flash"
    # Real time: the cut falls at a wall instant of the tool's work, as a person's would.
    usb = tmp_path / "usb-Raspberry_Pi_Pico-if00"  # the board's port, by its USB ids
    board = make_vboard(flash_dir=flash_dir, clock="real", usb=usb)
    board.wait_protocol()
    old_build = json.loads((flash_dir / "slot.json").read_text())["build"]
    board.release_console()
    cmd = [sys.executable, "-m", "cheeseboard", "flash", "--port", str(usb),
           "--firmware", str(new_firmware)] + (["--force"] if rng.random() < 0.5 else [])
    flashing = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert flashing.stdout.readline().startswith("flashing firmware")  # the build is done
        time.sleep(rng.uniform(0, CUT_WINDOW))
        board.power_cut()  # the port vanishes too, as a board's USB does
        # Plugged in again at once: the tool, waiting for its port, finds the board back
        # and says what it runs (the test talks to it only once the tool is done).
        again = make_vboard(flash_dir=flash_dir, clock="real", usb=usb)
        out, err = flashing.communicate(timeout=60)
    finally:
        flashing.kill()
    # the host tool says what happened, in its own words, and it is so
    assert "Traceback" not in err, err
    hello = again.wait_protocol(timeout=30)
    new_build = image.make(load_profile("pico"), firmware=new_firmware).build_id
    finished = flashing.returncode == 0  # it saw the new firmware up (the cut in its trial)
    if finished:
        assert "up and well" in out and hello["slot"]["build"] == new_build, out
    else:
        check_the_words_of_a_cut(err, hello["slot"], new_build, old_build)
    # whole: every file as its manifest says; the loader, the old one or the new one (it
    # is put in place just before the switch: a cut between leaves the new with the old)
    slot, manifest = active_slot(flash_dir, loader=False)
    loaders = [json.loads(m.read_text())["loader"] for m in flash_dir.glob("slot_*/manifest.json")]
    for name in ("boot.py", "main.py"):
        sha = hashlib.sha256((flash_dir / name).read_bytes()).hexdigest()
        assert sha in [loader[name][1] for loader in loaders], name
    assert hello["slot"]["active"] == slot  # and the firmware that answers is that slot's
    assert manifest["build"] in ((new_build,) if finished else (old_build, new_build))
    result = flash(again, new_firmware)
    assert result.outcome in ("up", "up to date"), result.error
    slot, manifest = active_slot(flash_dir)
    assert manifest["build"] == result.image.build_id
    assert again.wait_protocol()["slot"]["build"] == result.image.build_id
