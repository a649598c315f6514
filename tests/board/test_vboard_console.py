"""The virtual board's console behaves like a real board's, to mpremote and pyserial alike."""

import hashlib

import pytest

pytestmark = pytest.mark.board


def test_main_py_runs_at_power_on_and_answers_the_protocol(vboard):
    hello = vboard.wait_protocol()
    assert hello["profile"] == "pico"
    assert hello["platform"] == "linux"  # the MicroPython unix port, not CPython
    assert hello["firmware"]


def test_mpremote_fs_commands_work_unmodified(vboard, tmp_path):
    vboard.wait_protocol()
    vboard.release_console()
    src = tmp_path / "note.txt"
    src.write_bytes(b"cheese\n" * 100)
    r = vboard.mpremote("fs", "cp", str(src), ":note.txt", "+", "fs", "ls", "+",
                        "fs", "sha256sum", ":note.txt")
    assert r.returncode == 0, r.stderr
    assert "700 note.txt" in r.stdout  # ls shows sizes, as LittleFS does
    assert hashlib.sha256(src.read_bytes()).hexdigest() in r.stdout
    assert (vboard.flash_dir / "note.txt").read_bytes() == src.read_bytes()


def test_mpremote_exec_reports_errors_from_the_board(vboard):
    vboard.release_console()
    r = vboard.mpremote("exec", "print(6 * 7)")
    assert r.returncode == 0 and r.stdout.strip() == "42"
    r = vboard.mpremote("exec", "1/0")
    assert r.returncode != 0
    assert "ZeroDivisionError" in r.stdout + r.stderr


def test_a_copied_file_takes_effect_after_soft_reset(vboard, tmp_path):
    vboard.wait_protocol()
    vboard.release_console()
    module = tmp_path / "house.py"
    module.write_text("RULE = 'old'\n")
    assert vboard.mpremote("fs", "cp", str(module), ":house.py", "+",
                           "exec", "import house; print(house.RULE)").stdout.split()[-1] == "old"
    module.write_text("RULE = 'new'\n")
    r = vboard.mpremote("exec", "import house", "+", "fs", "cp", str(module), ":house.py", "+",
                        "exec", "import house; print('before', house.RULE)", "+",
                        "soft-reset", "+", "exec", "import house; print('after', house.RULE)")
    assert r.returncode == 0, r.stderr
    # Without a reboot the old module stays loaded; after soft-reset the new file runs.
    assert "before old" in r.stdout
    assert "after new" in r.stdout


def test_soft_reboot_from_the_friendly_repl_runs_main_py_again(vboard):
    first = vboard.wait_protocol()
    vboard.port.write(b"\r\x03")  # Ctrl-C stops main.py
    vboard.read_until(b">>> ")
    vboard.port.write(b"\x04")  # Ctrl-D at an empty friendly prompt
    out = vboard.read_until(b"soft reboot\r\n")
    assert b"MPY: soft reboot" in out
    assert vboard.wait_protocol()["firmware"] == first["firmware"]


def test_ctrl_c_interrupts_main_py_into_the_friendly_repl(vboard):
    vboard.wait_protocol()
    vboard.port.write(b"\x03")
    out = vboard.read_until(b">>> ")
    assert b"KeyboardInterrupt" in out
    assert b'Type "help()" for more information.' in out
    vboard.port.write(b"21 * 2\r")
    assert b"42\r\n" in vboard.read_until(b"42\r\n>>> ")


def test_soft_reboot_from_the_raw_repl_stays_in_the_raw_repl(vboard):
    vboard.wait_protocol()
    vboard.port.write(b"\r\x03\r\x01")
    vboard.read_until(b"raw REPL; CTRL-B to exit\r\n>")
    vboard.port.write(b"\x04")
    out = vboard.read_until(b"raw REPL; CTRL-B to exit\r\n>")
    assert b"OK\r\nMPY: soft reboot\r\n" in out
    # main.py did not start: the raw REPL still runs code.
    vboard.port.write(b"print('raw', 1 + 1)\x04")
    assert b"OKraw 2\r\n\x04\x04>" in vboard.read_until(b"\x04>")


def test_raw_paste_mode_with_flow_control(vboard):
    vboard.wait_protocol()  # up: the Ctrl-C stops the firmware, not the loader's boot.py
    vboard.port.write(b"\r\x03\r\x01")
    vboard.read_until(b"raw REPL; CTRL-B to exit\r\n>")
    vboard.port.write(b"\x05A\x01")
    head = vboard.read_until(b"R\x01", timeout=5)
    assert head.endswith(b"R\x01")
    window = int.from_bytes(vboard.port.read(2), "little")
    assert window > 0
    code = b"x = 0\n" + b"x += 1\n" * (window // 4) + b"print('sum', x)\n"
    sent = 0
    acks = 0
    while sent < len(code):
        chunk = code[sent:sent + window]
        vboard.port.write(chunk)
        sent += len(chunk)
        if sent < len(code):
            assert vboard.port.read(1) == b"\x01"  # the board asks for the next window
            acks += 1
    vboard.port.write(b"\x04")
    out = vboard.read_until(b"\x04>")
    assert acks >= 1
    assert out.startswith(b"\x04")  # end of data acknowledged
    assert b"sum %d\r\n\x04\x04>" % (window // 4) in out


def test_mpremote_reset_hard_resets_the_board(vboard):
    vboard.wait_protocol()
    boots = vboard.link.status()["boots"]
    vboard.release_console()
    assert vboard.mpremote("reset").returncode == 0
    vboard.link.wait_for(lambda s: s.status(timeout=5)["boots"] > boots + 1, timeout=15,
                         what="a hard reset")
    vboard.reopen_console()
    assert vboard.wait_protocol()["profile"] == "pico"


def test_blank_board_has_an_empty_flash_and_a_repl(make_vboard):
    board = make_vboard(blank=True)
    board.port.write(b"\r")
    board.read_until(b">>> ")
    board.release_console()
    r = board.mpremote("fs", "ls")
    assert r.returncode == 0
    assert r.stdout.strip() == "ls :"
