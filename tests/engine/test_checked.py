"""A file the board checked once, unchanged since, is not checked again (cheesefw/checked.py):
the profile at power-on and a rule table at a game start pass on their stamp, so that the
checks' names never reach the heap of a game; a changed file, another build, or a board with
no build id checks again, and a file that fails gets no stamp."""

import json
from pathlib import Path

import pytest
from engine_driver import MemoryBoard
from mpvm import FIRMWARE, run_mp

from cheeseboard import paths
from cheeseboard.flash import image
from cheesefw import table_check
from cheesefw.engine.core import load_rules
from cheesefw.games import GAMES

SLOT = b'{"active": "slot_a", "previous": null, "build": "%s"}'


@pytest.fixture
def checks(monkeypatch):
    """The games whose table was checked, in order."""
    seen = []
    real = table_check.match  # (check's first step: the schema's)

    def spy(data, name, schema):
        seen.append(name)
        return real(data, name, schema)

    monkeypatch.setattr(table_check, "match", spy)
    return seen


class Board(MemoryBoard):
    """A board whose synced kitchen table can be changed by the test."""

    kitchen = None

    def read_file(self, name):
        if name == "rules/kitchen.json" and self.kitchen is not None:
            return self.kitchen
        return MemoryBoard.read_file(self, name)


def test_a_table_passes_on_its_stamp_until_it_or_the_firmware_changes(checks):
    board = Board({"slot.json": SLOT % b"b1"})
    first = load_rules(board, "kitchen")
    assert checks == ["kitchen"]
    stamps = json.loads(board.files["checked.json"])
    assert list(stamps) == ["rules/kitchen.json"] and stamps["rules/kitchen.json"].startswith("b1 ")
    assert load_rules(board, "kitchen") == first and checks == ["kitchen"]  # not checked again
    board.kitchen = MemoryBoard.read_file(board, "rules/kitchen.json") + b"\n"  # one byte more
    load_rules(board, "kitchen")
    assert checks == ["kitchen", "kitchen"]
    load_rules(board, "kitchen")
    assert checks == ["kitchen", "kitchen"]
    board.files["slot.json"] = SLOT % b"b2"  # another firmware: its own check
    load_rules(board, "kitchen")
    assert checks == ["kitchen"] * 3


def test_a_board_with_no_build_id_checks_every_time_and_stamps_nothing(checks):
    board = Board({"slot.json": b'{"active": "slot_a", "failed": {"slot": "slot_b"}}'})
    load_rules(board, "kitchen")
    load_rules(board, "kitchen")
    assert checks == ["kitchen", "kitchen"] and "checked.json" not in board.files


def test_a_table_that_fails_gets_no_stamp_and_a_torn_stamp_file_means_check_again(checks):
    board = Board({"slot.json": SLOT % b"b1"})
    good = MemoryBoard.read_file(board, "rules/kitchen.json")
    board.kitchen = good.replace(b'"grid"', b'"grit"')
    with pytest.raises(ValueError, match="no rule table for kitchen"):
        load_rules(board, "kitchen")
    assert "checked.json" not in board.files
    board.kitchen = good
    load_rules(board, "kitchen")
    board.files["checked.json"] = board.files["checked.json"][:20]  # a power cut, say
    load_rules(board, "kitchen")
    assert checks == ["kitchen"] * 3


# On the VM, from the flashed image: the first boot checks and stamps, the next ones do not
# check; the trial boot of a new firmware stamps every game's table at once.
BOOT = """
import sys, os, json
sys.path.insert(0, %(simvm)r)
import simboard
simboard.out = open("/dev/null", "wb")
simboard.receive = lambda: None
os.mount(os.VfsPosix(%(flash)r), "/")
os.chdir("/")
sys.path[:] = ["", "/lib"]
exec(open("boot.py").read())
from cheesefw import app
calls = []

def spy():  # (a module the firmware did not let go of since the last spy is spied on already)
    import cheesefw.profile_check as p, cheesefw.table_check as t
    p.real = check_profile = getattr(p, "real", p.check)
    t.real = check_table = getattr(t, "real", t.match)  # (a table's check: match, game_check)
    p.check = lambda profile: calls.append("profile") or check_profile(profile)
    t.match = lambda data, name, schema: calls.append(name) or check_table(data, name, schema)

def checks_in(what, run):
    calls.clear()
    spy()
    result = run()
    print(what, calls)
    return result

board = checks_in("boot", lambda: app.start(trial=%(trial)r))
checks_in("game", lambda: board.scene.start_game("kitchen", {}))
board.scene._end_game()
checks_in("game again", lambda: board.scene.start_game("kitchen", {}))
checks_in("boot again", lambda: app.start())
print("stamped", sorted(json.load(open("checked.json"))))
"""


def boot_twice(tmp_path, trial):
    flash = tmp_path / "flash"
    image.write_to_folder(image.make(paths.load_profile("pico")), flash)
    simvm = Path(paths.__file__).parent / "sim" / "vm"
    out = run_mp(BOOT % {"simvm": str(simvm), "flash": str(flash), "trial": trial},
                 cwd=FIRMWARE)
    return dict(line.split(" [", 1) for line in out.splitlines() if " [" in line)


def test_on_the_board_the_first_boot_and_game_check_and_the_next_ones_do_not(tmp_path):
    seen = boot_twice(tmp_path, trial=False)
    assert seen["boot"] == "'profile']" and seen["game"] == "'kitchen']"
    assert seen["game again"] == "]" and seen["boot again"] == "]"
    assert seen["stamped"] == "'/slot_a/profile.json', '/slot_a/rules/kitchen.json']"


def test_a_new_firmwares_trial_boot_checks_and_stamps_the_table_of_every_game_it_shows(
        tmp_path):
    seen = boot_twice(tmp_path, trial=True)
    # (the first table's check let go of the spied module: the others ran unseen, stamped)
    assert seen["boot"] == "'profile', 'gouda']"
    assert seen["game"] == "]" and seen["boot again"] == "]"
    shown = [g for g in GAMES if g in paths.load_profile("pico")["maps"]]
    assert len(shown) >= 4 and seen["stamped"] == "'/slot_a/profile.json', %s]" % ", ".join(
        "'/slot_a/rules/%s.json'" % g for g in sorted(shown))
