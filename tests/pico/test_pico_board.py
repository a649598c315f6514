"""The emulated Pico: MicroPython's rp2 port on rp2040js, its USB CDC a serial port, its
buttons GPIO inputs, its LEDs read from the NeoPixel pin, its flash a file. Few and short:
the emulator runs several times slower than a Pico."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from engine_driver import choose_options
from flashing import append, firmware_copy, flash
from pico import PicoTable, play_until, skip_without_the_emulator
from vboard import VBoard

from cheeseboard.flash import image
from cheeseboard.paths import load_profile

# wall: the emulated chip keeps its own clock, which the host does not drive; a flash onto
# it waits on the wall's time.
pytestmark = [pytest.mark.board, pytest.mark.wall]

skip_without_the_emulator()


@pytest.fixture
def pico(tmp_path, stock_uf2):
    """Start emulated Picos: pico(flash image, uf2=...)."""
    boards = []

    def start(flash_image=None, uf2=stock_uf2, usb=None):
        board = VBoard(flash_image or tmp_path / ("pico%d.bin" % len(boards)), target="pico",
                       uf2=uf2, usb=usb)
        boards.append(board)
        return board

    yield start
    for board in boards:
        board.stop()


@pytest.fixture(scope="module")
def flashed_image(tmp_path_factory, stock_uf2):
    """A Pico's flash after `cheeseboard flash` onto MicroPython's own firmware."""
    image = tmp_path_factory.mktemp("pico") / "flashed.bin"
    board = VBoard(image, target="pico", uf2=stock_uf2)
    try:
        result = flash(board, profile="pico")
        assert result.outcome == "up", result.error
    finally:
        board.stop()
    return image


def test_mpremote_runs_code_and_keeps_files_over_a_power_cut(pico, tmp_path):
    board = pico()
    board.release_console()
    run = board.mpremote("exec", "import os; print(os.uname().sysname, sorted(os.listdir()))")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["rp2", "[]"]  # MicroPython's rp2 port, a new LittleFS
    (tmp_path / "note.txt").write_text("kept\n")
    assert board.mpremote("fs", "cp", str(tmp_path / "note.txt"), ":note.txt").returncode == 0
    board.power_cut()
    again = pico(board.flash_dir, uf2=None)  # power on: the flash as the chip left it
    again.release_console()
    run = again.mpremote("exec", "print(open('note.txt').read())")
    assert run.stdout == "kept\n\n", run.stderr


def test_led_frames_are_read_from_the_neopixel_pin(pico):
    board = pico()
    board.release_console()
    code = ("import machine, neopixel; n = neopixel.NeoPixel(machine.Pin(2), 64); "
            "n[0] = (255, 0, 0); n[1] = (0, 255, 0); n[63] = (1, 2, 3); n.write()")
    assert board.mpremote("exec", code).returncode == 0
    frame = board.link.wait_frame(0)
    # The GRB bytes on the wire, back in RGB: each pixel where the chain shows it.
    assert frame[:6] == bytes([255, 0, 0, 0, 255, 0]) and frame[-3:] == bytes([1, 2, 3])
    assert not any(frame[6:-3])




# On the board: the HAL's frame write (PIO and DMA) returns at once; while the frame is on the
# wire a timer keeps firing (interrupts stay on) and the CPU runs Python.
PIO_WRITE = """
import json, sys, time, machine
sys.path.insert(0, json.load(open('slot.json'))['active'])
from cheesefw import hal, profile_file
board = hal.open_board(profile_file.load_profile())
frame = bytearray(3 * board.pixel_count)
frame[0:3] = bytes((255, 0, 0)); frame[-3:] = bytes((1, 2, 3))
fired = [0]
def count(t):
    fired[0] += 1
timer = machine.Timer(freq=10000, callback=count)
wire_us = 30 * board.pixel_count
t0 = time.ticks_us()
board.show(frame)
write_us = time.ticks_diff(time.ticks_us(), t0)
while time.ticks_diff(time.ticks_us(), t0) < wire_us:
    pass
timer.deinit()
print(type(board).__module__, write_us, wire_us, fired[0])
"""


def test_frames_go_out_by_pio_while_the_chip_runs_on(flashed_image, pico, tmp_path):
    image = tmp_path / "pio.bin"
    shutil.copy(flashed_image, image)
    board = pico(image, uf2=None)
    board.wait_protocol(timeout=60)
    board.release_console()
    run = board.mpremote("exec", PIO_WRITE)
    assert run.returncode == 0, run.stderr
    module, write_us, wire_us, fired = run.stdout.split()
    assert module == "cheesefw.hal.rp2"
    # handed to the DMA, not bit-banged (which takes the whole wire time and more): half of it
    # at most, with the timer's callbacks that fall meanwhile and a cold flash cache
    assert int(write_us) < int(wire_us) // 2
    assert int(fired) >= int(wire_us) // 100 * 3 // 4  # a 10 kHz timer fired all along
    # The frame is decoded from the pin and reaches the link after the board has said it is done
    # (on a busy machine, later still): until then the last frame is the menu's, from before.
    board.link.wait_for(lambda link: (link.frame or b"")[:3] == bytes([255, 0, 0]), 60,
                        "the frame written by PIO, read from the pin")
    event = board.link.frame_event
    frame = board.link.frame
    assert frame[-3:] == bytes([1, 2, 3])
    assert not any(frame[3:-3])
    # The PIO's own bit time on the chip's clock: 1.25 us a bit, first rise to last fall
    # (the last bit, a 1, high for 750 ns).
    bits = 24 * event["pixels"]
    assert event["wire_ns"] == (bits - 1) * 1250 + 750


def test_the_watchdog_resets_the_chip(pico):
    board = pico()
    board.release_console()
    run = board.mpremote("exec", "import machine; machine.WDT(timeout=300)")
    assert run.returncode == 0, run.stderr
    # nobody feeds it: the chip resets (perhaps before mpremote has let go of the port)
    board.link.wait_for(lambda s: any(e.get("ev") == "watchdog" for e in s.events), 60,
                        "the watchdog's reset")
    board.link.wait_for(lambda s: s.status()["boots"] == 2, 30, "the chip to start again")
    assert board.link.status()["watchdog_resets"] == 1
    run = board.mpremote("exec", "print(6 * 7)")  # and it runs MicroPython again
    assert run.stdout.strip() == "42", run.stderr


def test_flashed_onto_micropython_it_plays_gouda_by_buttons(flashed_image, pico, tmp_path):
    image = tmp_path / "play.bin"
    shutil.copy(flashed_image, image)
    board = pico(image, uf2=None)
    board.wait_protocol(timeout=60)
    table = PicoTable(board)
    menu = board.link.wait_frame(0, timeout=30)
    unix = VBoard(tmp_path / "unix")  # the same firmware on the unix port's virtual board
    try:  # the menu read from the pin is the frame the firmware wrote, byte for byte
        assert menu == unix.link.wait_frame(0, timeout=30)
    finally:
        unix.stop()
    choose_options(table, "gouda", {"players": 2})
    start = table.state()
    assert start["mode"] == "play" and start["game"] == "gouda"
    # the board's LEDs, read from the pin, leave the menu (the frame comes after the state's reply)
    board.link.wait_for(lambda link: link.frame != menu, 30, "a frame other than the menu's")
    before = play_until(table, start["moves"] + 3)  # place the mice, roll, move: first turns
    assert before["moves"] > start["moves"]
    moves = board.request("log", **{"from": 0})["moves"]
    # a power cut in the middle of a move: the press, and the power goes at once
    board.link.press("ok", hold_ms=table.PRESS_MS)
    board.link.send(op="power_cut")
    board.link.wait_for(lambda s: not s.status()["on"], 30, "the power off")
    board.stop()
    again = pico(image, uf2=None)
    again.wait_protocol(timeout=60)
    resumed = again.request("state")["state"]
    assert resumed["game"] == "gouda" and resumed["moves"] in (before["moves"],
                                                               before["moves"] + 1)
    assert again.request("log", **{"from": 0})["moves"][:len(moves)] == moves


def test_a_waiting_board_reads_every_short_press(flashed_image, pico, tmp_path):
    # Presses of 40 ms of the chip's clock at the menu: a waiting board reads its buttons every
    # tick (10 ms), so each press is seen on three ticks at least, and counts once. (Its quiet
    # ticks once asked the heap how full it was, 8.4 ms each, and came 18 ms apart: 11 of 100
    # such presses counted.)
    image = tmp_path / "presses.bin"
    shutil.copy(flashed_image, image)
    board = pico(image, uf2=None)
    board.wait_protocol(timeout=60)
    board.link.wait_frame(0, timeout=30)
    table = PicoTable(board)
    menu = table.state()
    games = menu["choices"]
    first = games.index(menu["value"])
    seen = []
    for _ in range(8):
        table.press("next")
        seen.append(table.state()["value"])
    assert seen == [games[(first + i) % len(games)] for i in range(1, 9)], (first, seen)


def test_the_frozen_uf2_boots_to_the_menu_and_plays(tmp_path, frozen_uf2):
    image = tmp_path / "frozen.bin"
    board = VBoard(image, target="pico", uf2=frozen_uf2)
    try:
        hello = board.wait_protocol(timeout=60)
        assert hello["platform"] == "rp2" and hello["profile"] == "pico"
        board.link.wait_frame(0, timeout=60)  # the menu, on the pin
        table = PicoTable(board)
        choose_options(table, "gouda", {"players": 2})
        start = table.state()
        before = play_until(table, start["moves"] + 2)
        assert start["game"] == "gouda" and before["moves"] > start["moves"]
        moves = board.request("log", **{"from": 0})["moves"]
        board.link.press("ok", hold_ms=table.PRESS_MS)  # and the power goes at once
        board.link.send(op="power_cut")
        board.link.wait_for(lambda s: not s.status()["on"], 30, "the power off")
    finally:
        board.stop()
    # The journal is in the flash's last 64 KB, which the UF2's _boot.py keeps out of the
    # filesystem (uf2/frozen_mount.py): its header at the region's first byte
    region = image.read_bytes()[2 * 1024 * 1024 - 64 * 1024:]
    assert b'"game": "gouda"' in region.split(b"\n")[0]
    again = VBoard(image, target="pico", uf2=None)
    try:
        again.wait_protocol(timeout=60)
        resumed = again.request("state")["state"]
        assert resumed["game"] == "gouda" and resumed["moves"] in (before["moves"],
                                                                   before["moves"] + 1)
        assert again.request("log", **{"from": 0})["moves"][:len(moves)] == moves
    finally:
        again.stop()


def test_a_flash_onto_the_frozen_firmware_sees_its_trial_through(tmp_path, frozen_uf2):
    # The trial (every game imported, every table read, the main loop run for a while, a
    # reset) takes the emulated chip seconds, and the wall several times as long on a busy
    # machine: the tool waits for as long as the board shows it is at it.
    image = tmp_path / "trial.bin"
    board = VBoard(image, target="pico", uf2=frozen_uf2)
    steps = []
    try:
        assert board.wait_protocol(timeout=60)["slot"]["active"] == "frozen"
        result = flash(board, profile="pico", step=steps.append)
        assert "trial" in steps and result.outcome == "up", result.error
        state = board.request("hello")["slot"]
        assert state["active"] == result.slot and state["previous"] == "frozen"
        assert not state.get("trial")
        # the flashed firmware keeps its journal in the region the UF2's _boot.py left, too
        board.link.wait_frame(0, timeout=60)
        choose_options(PicoTable(board), "gouda", {"players": 2})
    finally:
        board.stop()
    region = image.read_bytes()[2 * 1024 * 1024 - 64 * 1024:]
    assert b'"game": "gouda"' in region.split(b"\n")[0]


# On the board: the active slot's files against its manifest, byte for byte (SHA-256).
CHECK_SLOT = """
import json, hashlib, binascii
slot = json.load(open('slot.json'))['active']
manifest = json.load(open(slot + '/manifest.json'))
def sha(path):
    return binascii.hexlify(hashlib.sha256(open(path, 'rb').read()).digest()).decode()
bad = [r for r, (n, h) in manifest['files'].items() if sha(slot + '/' + r) != h]
print(manifest['build'], len(manifest['files']), bad)
"""


def test_an_update_sends_the_module_changed_and_copies_the_rest_on_the_board(
        flashed_image, pico, tmp_path):
    # The rest is copied from the running slot on the board: a block erased a file, seconds
    # on the emulated chip, longer than the host waits in silence; the board says "." a file.
    image = tmp_path / "update.bin"
    shutil.copy(flashed_image, image)
    board = pico(image, uf2=None)
    board.wait_protocol(timeout=60)
    new_firmware = firmware_copy(tmp_path, change=lambda root: append(
        root / "cheesefw" / "render.py", "\nUPDATED = 3\n"))
    result = flash(board, new_firmware, profile="pico")
    assert result.outcome == "up", result.error
    assert result.plan.upload == ["cheesefw/render.mpy"] and len(result.plan.copy) > 20
    state = board.request("hello")["slot"]
    assert state["active"] == "slot_b" and state["build"] == image_build(new_firmware)


def test_a_flash_cut_midway_leaves_a_whole_firmware(flashed_image, pico, tmp_path):
    image = tmp_path / "cut.bin"
    shutil.copy(flashed_image, image)
    usb = tmp_path / "usb-Raspberry_Pi_Pico-if00"  # the board's port, by its USB ids
    board = pico(image, uf2=None, usb=usb)
    old = board.wait_protocol(timeout=60)["slot"]["build"]
    new_firmware = firmware_copy(tmp_path, change=lambda root: append(
        root / "cheesefw" / "app.py", "\nUPDATED = 2\n"))
    board.release_console()
    cmd = [sys.executable, "-m", "cheeseboard", "flash", "--port", str(usb), "--force",
           "--firmware", str(new_firmware)]
    flashing = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        sent = board.link.status()["bytes_in"]
        board.link.wait_for(lambda s: s.status()["bytes_in"] > sent + 40_000, 120,
                            "the upload half-way")
        board.power_cut()  # the USB port vanishes with it
        again = pico(image, uf2=None, usb=usb)  # plugged in again: the tool finds it back
        _, err = flashing.communicate(timeout=120)
    finally:
        flashing.kill()
    assert "Traceback" not in err and flashing.returncode != 0, err
    assert "the flash was interrupted" in err and "; flash again" in err, err
    again.wait_protocol(timeout=60)  # the firmware comes up and answers
    again.release_console()
    run = again.mpremote("exec", CHECK_SLOT)
    assert run.returncode == 0, run.stderr
    build, files, bad = run.stdout.split(None, 2)
    assert build in (old, image_build(new_firmware)), run.stdout  # the old or the new
    assert "build %s" % build in err, err  # and the tool said which
    assert int(files) > 20 and bad.strip() == "[]", run.stdout  # whole, byte for byte


def image_build(firmware):
    return image.make(load_profile("pico"), firmware=firmware).build_id


def test_a_shipped_scenario_runs_on_the_emulated_pico(tmp_path, frozen_uf2):
    # Gouda's first turn, its presses, lights, states and the dice's colours, on the chip's own
    # clock (the runner builds, or finds cached, the same frozen UF2 as the fixture, and seeds
    # its die with the scenario's seed: the rolls are the unix-port board's).
    scenario = Path(__file__).parents[1] / "scenarios" / "gouda-first-turn.yaml"
    run = subprocess.run([sys.executable, "-m", "cheeseboard", "scenario", "run", "--target",
                          "pico", "--out", str(tmp_path), str(scenario)], capture_output=True,
                         text=True, timeout=900)
    assert run.returncode == 0 and run.stdout.startswith("PASS "), run.stdout + run.stderr
