"""The emulated Pico as a player meets it: its terminal view, and a shipped scenario's presses
on the chip's own clock while other emulated chips share the cores. Few and slow."""

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest
import yaml
from pico import skip_without_the_emulator

pytestmark = [pytest.mark.board, pytest.mark.wall]

skip_without_the_emulator()

SCENARIOS = Path(__file__).parents[1] / "scenarios"


def test_the_terminal_view_starts_on_the_emulated_pico_and_shows_the_menu(tmp_path, frozen_uf2):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "cheeseboard", "sim", "--target", "pico", "--uf2", str(frozen_uf2),
         "--flash", str(tmp_path / "pico.bin")], stdin=slave, stdout=slave, stderr=slave,
        start_new_session=True)
    os.close(slave)
    output = []

    def read():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            output.append(data.decode("utf-8", "replace"))

    threading.Thread(target=read, daemon=True).start()
    try:
        deadline = time.monotonic() + 300  # the emulator boots at its own pace
        while time.monotonic() < deadline and proc.poll() is None:
            screen = "".join(output).split("\x1b[H\x1b[2J")[-1]
            # The menu's overlay, its keys, and a word on where its state can be asked
            if "keys now (menu)" in screen and re.search(r"frames: [1-9]", screen):
                break
            time.sleep(0.2)
        said = "".join(output)
        assert proc.poll() is None, said[-2000:]
        assert "Traceback" not in said, said[-2000:]
        screen = said.split("\x1b[H\x1b[2J")[-1]
        assert "keys now (menu)" in screen and "pico: " in screen, screen[-2000:]
        assert "cheeseboard state --words --port /dev/pts/" in screen, \
            re.sub(r"\x1b\[[0-9;]*m", "", screen)
        os.write(master, b"q")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


# Slow set: five emulated chips at once take a 2-core machine's every cycle for minutes, and
# beside the rest of the suite their boots outlast the scenario's timeout (make test-load).
@pytest.mark.slow
def test_a_shipped_scenario_keeps_every_press_on_five_emulated_picos_at_once(tmp_path,
                                                                             frozen_uf2):
    # Gouda's first turn, whole: eleven presses, a menu step that loads the game's module and
    # the game's start among them, and the seeded die's rolls, each run on its own chip while
    # five share the machine's cores.
    doc = yaml.safe_load((SCENARIOS / "gouda-first-turn.yaml").read_text())
    doc["steps"] = [step for step in doc["steps"] if "snapshot" not in step]  # (its picture
    # is the unix-port test's to compare: here the presses, lights and states count)
    files = []
    for i in range(5):
        files.append(tmp_path / ("first-turn-%d.yaml" % i))
        files[-1].write_text(yaml.safe_dump(doc))
    run = subprocess.run([sys.executable, "-m", "cheeseboard", "scenario", "run", "--target",
                          "pico", "--jobs", "5", "--out", str(tmp_path / "out"),
                          *map(str, files)], capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("PASS ") == 5, run.stdout
