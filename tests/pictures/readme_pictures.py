"""The README's pictures of the board in mid-play, made by `cheeseboard snapshot`.

    .venv/bin/python tests/pictures/readme_pictures.py      (rewrites docs/pictures/)

Each game's position is a journal (docs/pictures/GAME-journal.txt) made here by playing
the engine with its buttons on CPython; a virtual board boots from a flash with that
journal, resumes the game at its last move, and `cheeseboard snapshot` draws it.
test_readme_pictures.py fails when a picture is stale: when the drawing, the profile,
the game's moves or the firmware's painting have changed since it was made.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))
sys.path.insert(0, str(ROOT / "firmware"))

from engine_driver import CpuTable, MemoryBoard, choose_options  # noqa: E402

from cheeseboard import paths  # noqa: E402
from cheeseboard.flash import image  # noqa: E402

OUT = ROOT / "docs" / "pictures"
PROFILE = "pico"
# game: (menu options, the engine's seed, decisions before the picture)
POSITIONS = {
    "gouda": ({"players": 4}, 11, 90),
    "kitchen": ({}, 3, 14),
}


def journal(game):
    """The journal of a game in mid-play: the same bytes from the same firmware."""
    options, seed, decisions = POSITIONS[game]
    table = CpuTable(MemoryBoard(seed=seed))
    choose_options(table, game, options)
    made = 0
    while made < decisions:
        s = table.state()
        if s["wait"] == "roll":
            table.press("roll")
            table.wait(800)
        elif s["wait"] == "decide":
            for _ in range(made % 3 % max(1, s["choices"])):  # not always the first choice
                table.press("next")
            table.press("ok")
            made += 1
        else:
            table.wait(1000)
    return table.board.files["journal.txt"]


def frames(game, journal_bytes, span_ms=3000):
    """Every frame the firmware shows for this journal's position over span_ms (blinks and
    turns of crowded spaces included), after the power limiter."""
    from cheesefw import render

    board = MemoryBoard({"journal.txt": journal_bytes})
    table = CpuTable(board)
    limiter = render.PowerLimiter(board.profile["led"])
    out = set()
    for _ in range(span_ms // 10):
        table.wait(10)  # the engine's clock, as the board's main loop moves it
        table.engine.draw(table.frame)
        limited = render.new_frame(board.pixel_count)
        limiter.limit(table.frame, limited)
        out.add(bytes(limited))
    return out


def snapshot(game, journal_bytes):
    """Boot a virtual board on this journal and let `cheeseboard snapshot` draw it."""
    from cheeseboard.sim.control import SimLink

    with tempfile.TemporaryDirectory(prefix="cheeseboard-pictures-") as tmp:
        flash = Path(tmp) / "flash"
        image.write_to_folder(image.make(paths.load_profile(PROFILE)), flash)
        (flash / "journal.txt").write_bytes(journal_bytes)
        sock = Path(tmp) / "board.sock"
        sim = subprocess.Popen([sys.executable, "-m", "cheeseboard", "sim", "--headless",
                                "--profile", PROFILE, "--flash", str(flash), "--control",
                                str(sock), "--clock", "virtual"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            sim.stdout.readline()  # the console: the board is up
            link = SimLink(sock, virtual=True)  # (the board's clock: this link moves it)
            link.wait_frame(0, timeout=30)
            link.sleep(1.0)  # past the resume: the game's own frames
            link.close()
            subprocess.run([sys.executable, "-m", "cheeseboard", "snapshot", "--profile", PROFILE,
                            "--control", str(sock), "--game", game,
                            str(OUT / ("%s.svg" % game)), str(OUT / ("%s.png" % game))],
                           check=True, timeout=60)
        finally:
            sim.terminate()
            sim.communicate(timeout=20)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for game in POSITIONS:
        data = journal(game)
        (OUT / ("%s-journal.txt" % game)).write_bytes(data)
        snapshot(game, data)


if __name__ == "__main__":
    main()
