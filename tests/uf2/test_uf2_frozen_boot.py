"""A cheeseboard UF2's frozen boot.py and the loader's way back to the frozen firmware, run on
the real MicroPython VM (the unix port) over a flash folder mounted as the board's "/", as
the board runs them. (That the UF2 itself boots on an RP2040 is the emulated Pico's test.)"""

import json

import pytest
from mpvm import FIRMWARE, run_mp

from cheeseboard import paths
from cheeseboard.uf2 import manifest

pytestmark = pytest.mark.board


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """The frozen files of a pico UF2, as `cheeseboard uf2` stages them: (folder, manifest)."""
    folder = tmp_path_factory.mktemp("stage") / "pico"
    files, about = manifest.frozen_files(paths.load_profile("pico"))
    manifest.stage(files, folder)
    return folder, about


def boot(staged, flash):
    """Run the frozen boot.py on a board whose flash is the folder flash."""
    folder, _ = staged
    code = (
        "import os, sys\n"
        "import frozen_firmware, frozen_files\n"  # frozen: there before the flash is mounted
        "src = open(%r).read()\n"
        "os.mount(os.VfsPosix(%r), '/')\n"
        "os.chdir('/')\n"
        "exec(src, {'__name__': '__main__'})\n"
        "print('path', sys.path[0])\n" % (str(folder / "boot.py"), str(flash)))
    return run_mp(code, path=[folder])


def test_a_blank_flash_gets_the_loader_and_the_frozen_firmware_runs(staged, tmp_path):
    _, about = staged
    flash = tmp_path / "flash"
    flash.mkdir()
    boot(staged, flash)
    for name in ("boot.py", "main.py", "recover.py"):
        assert (flash / name).read_bytes() == (FIRMWARE / name).read_bytes()
    state = json.loads((flash / "slot.json").read_text())
    assert state == {"active": "frozen", "previous": None, "build": about["build"]}
    home = flash / "frozen"
    assert json.loads((home / "manifest.json").read_text()) == about
    assert json.loads((home / "profile.json").read_text())["name"] == "pico"
    assert (home / "rules" / "gouda.json").read_bytes() == (
        FIRMWARE / "rules" / "gouda.json").read_bytes()
    assert not list(flash.rglob("*.new"))
    assert not (flash / "cheesefw").exists()  # the code stays frozen


def test_a_second_boot_writes_nothing(staged, tmp_path):
    flash = tmp_path / "flash"
    flash.mkdir()
    boot(staged, flash)
    stamps = {p: p.stat().st_mtime_ns for p in flash.rglob("*")}
    boot(staged, flash)
    assert {p: p.stat().st_mtime_ns for p in flash.rglob("*")} == stamps


def test_what_was_flashed_wins_over_what_is_frozen(staged, tmp_path):
    flash = tmp_path / "flash"
    (flash / "slot_a").mkdir(parents=True)
    flashed = {"active": "slot_a", "previous": None, "build": "abc"}
    (flash / "slot.json").write_text(json.dumps(flashed))
    for name in ("boot.py", "main.py", "recover.py"):
        (flash / name).write_bytes((FIRMWARE / name).read_bytes())
    (flash / "main.py").write_bytes(b"# a loader from another version of the tool\n")
    out = boot(staged, flash)
    assert "path /slot_a" in out  # the flash's boot.py ran: the slot first on the path
    assert json.loads((flash / "slot.json").read_text()) == flashed
    assert (flash / "main.py").read_bytes() == b"# a loader from another version of the tool\n"
    assert (flash / "frozen" / "manifest.json").exists()  # there to go back to


def test_another_uf2_rewrites_the_frozen_files_and_keeps_the_board_state(staged, tmp_path):
    _, about = staged
    flash = tmp_path / "flash"
    flash.mkdir()
    boot(staged, flash)
    old = dict(about, build="0ld0ld0ld0ld")
    (flash / "frozen" / "manifest.json").write_text(json.dumps(old))
    (flash / "frozen" / "rules" / "gouda.json").write_text("{}")
    state = {"active": "frozen", "previous": None, "build": "0ld0ld0ld0ld",
             "failed": {"slot": "slot_a", "error": "why"}}
    (flash / "slot.json").write_text(json.dumps(state))
    boot(staged, flash)
    assert json.loads((flash / "slot.json").read_text()) == dict(state, build=about["build"])
    assert json.loads((flash / "frozen" / "manifest.json").read_text()) == about
    assert (flash / "frozen" / "rules" / "gouda.json").read_bytes() == (
        FIRMWARE / "rules" / "gouda.json").read_bytes()


FALL = (
    "import os, json, recover\n"
    "%s"
    "os.mount(os.VfsPosix(%r), '/')\n"
    "os.chdir('/')\n"
    "def read():\n"
    "    with open('slot.json') as f: return json.load(f)\n"
    "def write(s):\n"
    "    with open('slot.json', 'w') as f: json.dump(s, f)\n"
    "try:\n"
    "    recover.fell(ValueError('boom'), read, write)\n"
    "except SystemExit:\n"
    "    print('restarted')\n"
    "except ValueError:\n"
    "    print('stopped at the REPL')\n"
)


@pytest.mark.parametrize("frozen, previous, goes_to", [
    (True, None, "frozen"),  # a first flash (nothing before it) falls: back to the frozen one
    (True, "slot_b", "slot_b"),  # a whole previous slot comes first
    (False, None, None),  # MicroPython's own firmware: nothing to go back to
])
def test_a_firmware_that_keeps_falling_goes_back_to_the_frozen_one(staged, tmp_path, frozen,
                                                                   previous, goes_to):
    folder, about = staged
    flash = tmp_path / "flash"
    (flash / "frozen").mkdir(parents=True)
    (flash / "frozen" / "manifest.json").write_text(json.dumps(about))
    (flash / "slot_b").mkdir()
    (flash / "slot_b" / "manifest.json").write_text("{}")
    state = {"active": "slot_a", "previous": previous, "build": "abc", "falls": 2}
    (flash / "slot.json").write_text(json.dumps(state))
    out = run_mp(FALL % ("import frozen_firmware\n" if frozen else "", str(flash)),
                 path=[folder] if frozen else [])
    after = json.loads((flash / "slot.json").read_text())
    if goes_to:
        assert "restarted" in out and after["active"] == goes_to
        assert after["failed"]["slot"] == "slot_a" and "fell 3 times" in after["failed"]["error"]
    else:
        assert "stopped at the REPL" in out and after == state
        # (before it, while a console was there: the loader answered with why)
        assert "no whole firmware on the board: it fell 3 times in a row" in out, out


def test_the_frozen_firmware_that_keeps_falling_stops_at_the_repl(staged, tmp_path):
    folder, about = staged
    flash = tmp_path / "flash"
    (flash / "frozen").mkdir(parents=True)
    (flash / "frozen" / "manifest.json").write_text(json.dumps(about))
    state = {"active": "frozen", "previous": None, "build": about["build"], "falls": 2}
    (flash / "slot.json").write_text(json.dumps(state))
    out = run_mp(FALL % ("import frozen_firmware\n", str(flash)), path=[folder])
    assert "stopped at the REPL" in out
