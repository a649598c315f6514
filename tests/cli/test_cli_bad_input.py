"""Bad input that printed a traceback (or crashed the emulator) gets one line, `cheeseboard:
...` on stderr, and a non-zero exit: a log nested past the parser's depth, `uf2 --out` naming
a folder, `sim --uf2` naming a folder or a UF2 cut short, a relative `--flash` for the Pico."""

import struct
import subprocess
import sys

import pytest

from cheeseboard.pico import flash
from cheeseboard.uf2 import uf2file

DEEP = "[" * 5000 + "]" * 5000


def cheeseboard(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "cheeseboard", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def one_line(r, said):
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cheeseboard: ") and said in lines[0], lines


def uf2(count, numbers=None):
    """A UF2 for the Pico's flash: blocks numbered `numbers` (all of them by default), each
    saying the file has `count`."""
    out = b""
    for n in numbers if numbers is not None else range(count):
        head = struct.pack("<8I", *uf2file.MAGIC_START, uf2file.FLAG_FAMILY,
                           uf2file.FLASH_START + 256 * n, 256, n, count, uf2file.RP2040)
        out += head + bytes(476) + struct.pack("<I", uf2file.MAGIC_END)
    return out


@pytest.mark.parametrize("text, said", [
    ("# %s\n" % DEEP, "line 1: expected # {\"game\""),
    ('# {"game": "kitchen"}\n0: %s\n' % DEEP, "line 2: expected \"0: <move>\""),
])
def test_replay_of_a_log_nested_past_the_parser_is_one_line(tmp_path, text, said):
    (tmp_path / "deep.log").write_text(text)
    one_line(cheeseboard("replay", str(tmp_path / "deep.log")), said)


def test_uf2_out_naming_a_folder_is_one_line(tmp_path):
    one_line(cheeseboard("uf2", "--out", str(tmp_path)), "a folder; name the file to write")
    one_line(cheeseboard("uf2", "--out", str(tmp_path / "no" / "x.uf2")), "no folder")


@pytest.mark.parametrize("what, said", [("a folder", "cannot read it"),
                                        ("cut in half", "cut short or mixed: 4 blocks, its "
                                                        "header says 8")])
def test_sim_of_a_pico_refuses_a_uf2_it_cannot_take_in_one_line(tmp_path, what, said):
    if what == "a folder":
        path = tmp_path / "folder.uf2"
        path.mkdir()
    else:
        path = tmp_path / "half.uf2"
        path.write_bytes(uf2(8)[: 4 * 512])
    one_line(cheeseboard("sim", "--headless", "--target", "pico", "--flash",
                         str(tmp_path / "pf.bin"), "--uf2", str(path)), said)
    assert not (tmp_path / "pf.bin").exists()


@pytest.mark.parametrize("numbers, count, said", [
    (range(4), 8, "cut short or mixed: 4 blocks, its header says 8"),
    ([0, 1, 1, 3], 4, "cut short or mixed"),
])
def test_a_uf2_whose_blocks_do_not_cover_its_count_is_refused(tmp_path, numbers, count, said):
    path = tmp_path / "bad.uf2"
    path.write_bytes(uf2(count, numbers))
    with pytest.raises(uf2file.UF2FileError, match=said):
        uf2file.check_rp2040(path)
    with pytest.raises(flash.FlashImageError, match=said):
        flash.prepare(tmp_path / "pf.bin", path)
    path.write_bytes(uf2(count))  # whole: taken
    assert len(uf2file.check_rp2040(path)) == count


def test_a_relative_flash_image_is_taken_where_it_was_named(tmp_path, monkeypatch):
    # The emulator runs in a folder of its own: the image it opens is the absolute path.
    (tmp_path / "a.uf2").write_bytes(uf2(2))
    monkeypatch.chdir(tmp_path)
    path = flash.prepare("pf.bin", "a.uf2")
    assert path.is_absolute() and path == tmp_path / "pf.bin" and path.exists()
