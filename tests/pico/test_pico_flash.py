"""The emulated Pico's flash image: a UF2 laid on as a Pico in BOOTSEL mode takes it, and the
files it cannot take refused in one line."""

import struct
import subprocess
import sys

import pytest

from cheeseboard.pico import flash


def uf2(blocks, family=flash.RP2040_FAMILY):
    """A UF2 of (address, payload) blocks."""
    out = b""
    for n, (addr, payload) in enumerate(blocks):
        head = struct.pack("<8I", *flash.UF2_MAGIC[:2], flash.FLAG_FAMILY, addr, len(payload),
                           n, len(blocks), family)
        out += head + payload.ljust(476, b"\0") + struct.pack("<I", flash.UF2_MAGIC[2])
    return out


def test_a_uf2_is_laid_on_and_the_rest_of_the_flash_kept(tmp_path):
    image = tmp_path / "pico.bin"
    (tmp_path / "a.uf2").write_bytes(uf2([(0x10000000, b"\x01" * 256),
                                          (0x10000100, b"\x02" * 256)]))
    flash.prepare(image, tmp_path / "a.uf2")
    data = bytearray(image.read_bytes())
    assert len(data) == flash.FLASH_SIZE and data[:512] == b"\x01" * 256 + b"\x02" * 256
    assert data[512:] == b"\xff" * (flash.FLASH_SIZE - 512)  # erased, as a new chip's
    data[0x100000] = 0x42  # the filesystem's: kept when a UF2 is copied on again
    image.write_bytes(bytes(data))
    (tmp_path / "b.uf2").write_bytes(uf2([(0x10000000, b"\x03" * 256)]))
    flash.prepare(image, tmp_path / "b.uf2")
    data = image.read_bytes()
    assert data[:256] == b"\x03" * 256 and data[0x100000] == 0x42


@pytest.mark.parametrize("content, said", [
    (b"not a uf2", "is not a UF2 file"),
    (uf2([(0x10000000, b"x")])[:-4] + b"oops", "has no UF2 magic"),
    (uf2([(0x10000000, b"x")], family=0xE48BFF59), "is for another chip"),
    (uf2([(0x20000000, b"x")]), "outside a Pico's 2 MB flash"),
])
def test_a_file_that_is_not_a_pico_uf2_is_refused_and_no_image_is_left(tmp_path, content, said):
    (tmp_path / "bad.uf2").write_bytes(content)
    with pytest.raises(flash.FlashImageError, match=said):
        flash.prepare(tmp_path / "pico.bin", tmp_path / "bad.uf2")
    assert not (tmp_path / "pico.bin").exists()


def test_sim_refuses_what_a_pico_cannot_be_in_one_line(tmp_path):
    def sim(*args):
        return subprocess.run([sys.executable, "-m", "cheeseboard", "sim", "--headless",
                               "--target", "pico", *args], capture_output=True, text=True,
                              timeout=60)

    for args, said in [
        (["--flash", str(tmp_path / "none.bin")], "does not exist: give --uf2 PATH"),
        (["--profile", "esp32"], "is for esp32, not a Pico"),
        (["--flash", str(tmp_path / "x.bin"), "--heap", "100000"], "--heap is for the unix"),
    ]:
        run = sim(*args)
        assert run.returncode == 1 and run.stderr.startswith("cheeseboard: "), run.stderr
        assert said in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    (tmp_path / "small.bin").write_bytes(b"\xff" * 1024)
    run = sim("--flash", str(tmp_path / "small.bin"))
    assert "is not a Pico flash image" in run.stderr and run.returncode == 1
