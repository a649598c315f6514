"""A power cut at each named step of a flash (deploy.STEPS), at exactly that moment: the board
goes dark for 0.3 s with its port kept open. It boots a whole firmware, the old or the new,
its loader whole; the flash says which; the next flash completes. The random instants of
test_flash_power*.py cut anywhere; these make sure no step is missed."""

import hashlib
import json
import time

import pytest
from flashing import active_slot, append, firmware_copy, flash

from cheeseboard.flash import deploy

# wall: the tool's waits are the wall's
pytestmark = [pytest.mark.board, pytest.mark.wall]


@pytest.fixture(scope="module")
def new_firmware(tmp_path_factory):
    return firmware_copy(tmp_path_factory.mktemp("new"), change=lambda root: append(
        root / "cheesefw" / "render.py", "\nUPDATED = 4\n"))


DEFAULT = ("send", "seal", "switch", "trial")  # the slow run cuts at every step


@pytest.mark.parametrize("where", [
    s if s in DEFAULT else pytest.param(s, marks=pytest.mark.slow) for s in deploy.STEPS])
def test_a_power_cut_at_each_step_of_a_flash_bricks_nothing(make_vboard, tmp_path,
                                                             new_firmware, where):
    flash_dir = tmp_path / "flash"
    # Real time: the cut at "trial" falls a wall second into the new firmware's boot.
    board = make_vboard(flash_dir=flash_dir, clock="real")
    board.wait_protocol()
    # an older loader on the board: the flash replaces it too (at "seal")
    older = (flash_dir / "main.py").read_bytes() + b"# an older loader\n"
    (flash_dir / "main.py").write_bytes(older)
    old_build = json.loads((flash_dir / "slot.json").read_text())["build"]
    cuts = []

    def cut(name):
        if name == where and not cuts:
            if name == "trial":
                time.sleep(1.0)  # the new firmware is booting, on trial
            board.link.send(op="power_cut")
            time.sleep(0.3)
            board.link.send(op="power_on")
            cuts.append(name)

    result = flash(board, new_firmware, step=cut, silence=3)
    assert cuts == [where] or (where == "copy" and not cuts), cuts
    assert result.outcome in ("interrupted", "up", "rolled back"), result
    hello = board.wait_protocol(timeout=30)
    slot, manifest = active_slot(flash_dir, loader=False)
    assert hello["slot"]["active"] == slot and manifest["build"] in (old_build,
                                                                     result.image.build_id)
    if result.outcome == "interrupted":  # it said which firmware runs, and it is that one
        said_new = "runs the new firmware" in result.error
        assert said_new == (manifest["build"] == result.image.build_id), result.error
    loaders = [json.loads(m.read_text())["loader"] for m in flash_dir.glob("slot_*/manifest.json")]
    main = (flash_dir / "main.py").read_bytes()
    assert main == older or hashlib.sha256(main).hexdigest() in [
        loader["main.py"][1] for loader in loaders]
    again = flash(board, new_firmware)
    assert again.outcome in ("up", "up to date"), again.error
    assert active_slot(flash_dir)[1]["build"] == again.image.build_id
