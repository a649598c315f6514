"""Profile checks: every profile passes; each kind of mistake is named by its field,
on the host (`cheeseboard profile check`) and at boot on the MicroPython VM alike."""

import copy
import json
import shutil

import pytest
from mpvm import FIRMWARE, run_mp

from cheeseboard import cli, paths
from cheeseboard.profiles import hardware

PICO = paths.load_profile("pico")


def mutate(edit):
    p = copy.deepcopy(PICO)
    edit(p)
    return p


def _set(path, value):
    """An edit that sets profile[a][b]... = value (path like "maps.gouda.m3")."""
    keys = path.split(".")

    def edit(p):
        for k in keys[:-1]:
            p = p[k]
        p[keys[-1]] = value
    return edit


def _drop(path):
    keys = path.split(".")

    def edit(p):
        for k in keys[:-1]:
            p = p[k]
        del p[keys[-1]]
    return edit


# (what is wrong, the edit, the message the check must give)
MISTAKES = [
    ("map past the count", _set("maps.gouda.m3", [29, 70]),
     "maps.gouda.m3: pixel 70 is past led.count 64"),
    ("map misses a space", _drop("maps.gouda.m3"), "maps.gouda: space m3 has no pixels"),
    ("kitchen misses a square", _drop("maps.kitchen.f7"),
     "maps.kitchen: space f7 has no pixels"),
    ("two spaces on one pixel", _set("maps.kitchen.b1", [0]),
     "maps.kitchen.b1: pixel 0 is already maps.kitchen.a1"),
    ("a space the rules lack", _set("maps.gouda.attic", [60]),
     "maps.gouda.attic: no such space in rules/gouda.json"),
    ("unknown game", _set("maps.chess", {"a1": [0]}),
     "maps.chess: unknown game (no rules/chess.json)"),
    ("die on a space", _set("die", [7, 8, 23, 24, 29]),
     "maps.gouda.m3: pixel 29 is already die[4]"),
    ("seat past the count", _set("seats", [63, 64]), "seats[1]: pixel 64 is past led.count 64"),
    ("status on a seat", _set("status", 63), "status: pixel 63 is already seats[0]"),
    ("meter on the die", _set("meter", [6, 7]), "meter[1]: pixel 7 is already die[0]"),
    ("a pixel that is no number", _set("maps.gouda.jug", [2, "3"]),
     "maps.gouda.jug: expected a pixel number, got '3'"),
    ("button pin twice", _set("buttons.roll", 10), "buttons.roll: pin 10 is already buttons.prev"),
    ("button on the LED pin", _set("buttons.ok", 2), "buttons.ok: pin 2 is already led.pin"),
    ("a button missing", _drop("buttons.roll"), "buttons.roll: missing"),
    ("no budget", _set("led.budget_ma", 0), "led.budget_ma: expected a positive number of mA"),
]
IDS = [m[0] for m in MISTAKES]


def test_every_profile_passes():
    result = hardware.check_all()
    assert set(result) >= {"pico", "esp32", "circuitpython"}
    assert result == {name: [] for name in result}


@pytest.mark.parametrize("what, edit, message", MISTAKES, ids=IDS)
def test_the_host_names_the_field(what, edit, message):
    errors = hardware.check_profile(mutate(edit), "pico")
    assert any(e.startswith(message) for e in errors), errors


def test_host_only_checks():
    p = mutate(_set("led.budget_ma", 2500))
    assert "supply.amps: 2 A cannot feed led.budget_ma 2500" in hardware.check_profile(p, "pico")
    p = mutate(_set("platform", "avr"))
    assert any(e.startswith("platform:") for e in hardware.check_profile(p, "pico"))
    assert any(e.startswith("name:") for e in hardware.check_profile(PICO, "other"))
    p = mutate(_set("led.order", "BGR"))  # adafruit's library has it, MicroPython's backend not
    assert "led.order: expected one of GRB, RGB, BRG, RBG, got 'BGR'" in \
        hardware.check_profile(p, "pico")


@pytest.mark.board
def test_the_board_gives_the_same_messages_at_boot(tmp_path):
    # One VM run checks every mutated profile, one line of the file at a time, with the
    # board's own check and the rule tables it reads from its flash.
    lines = tmp_path / "profiles.jsonl"
    lines.write_text("".join(json.dumps(mutate(edit)) + "\n" for _, edit, _ in MISTAKES))
    out = run_mp("""
import json, gc
from cheesefw import profile_check
for line in open(%r):
    print(json.dumps(profile_check.check(json.loads(line))))
    gc.collect()
""" % str(lines))
    got = [json.loads(line) for line in out.strip().split("\n")]
    assert len(got) == len(MISTAKES)
    for (what, edit, message), errors in zip(MISTAKES, got, strict=True):
        assert any(e.startswith(message) for e in errors), (what, errors)
        # The host runs the board's check first: the same lines, in the same order.
        assert hardware.check_profile(mutate(edit))[:len(errors)] == errors


@pytest.mark.board
def test_power_on_refuses_a_bad_profile_on_the_console(tmp_path):
    # a board with the firmware at the root of its flash, beside its profile (main() then
    # answers the protocol with the fault: tests/test_flash_files.py)
    for part in ("rules", "cheesefw"):
        shutil.copytree(FIRMWARE / part, tmp_path / part)
    bad = mutate(_set("maps.gouda.m3", [29, 70]))
    (tmp_path / "profile.json").write_text(json.dumps(bad))
    out = run_mp("from cheesefw import app\nprint('started:', app.start())", cwd=tmp_path,
                 path=(tmp_path,))
    assert "profile.json: maps.gouda.m3: pixel 70 is past led.count 64" in out
    assert out.rstrip().endswith("started: None")  # no App, and no traceback


def test_cli_profile_check_exits_non_zero_with_the_messages(tmp_path, monkeypatch, capsys):
    for name in ("pico", "esp32"):
        shutil.copy(paths.PROFILES / (name + ".json"), tmp_path)
    esp = json.loads((tmp_path / "esp32.json").read_text())
    esp["buttons"]["ok"] = esp["led"]["pin"]
    (tmp_path / "esp32.json").write_text(json.dumps(esp))
    monkeypatch.setattr(paths, "PROFILES", tmp_path)
    assert cli.main(["profile", "check"]) == 1
    out, err = capsys.readouterr()
    assert "pico: ok" in out
    assert "esp32: buttons.ok: pin 13 is already led.pin" in err
    assert cli.main(["profile", "check", "pico"]) == 0
