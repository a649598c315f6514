"""`cheeseboard flash --firmware` of a tree it cannot build: one line naming the file and line,
the board left as it was, playing."""

import subprocess
import sys

import pytest
from flashing import firmware_copy

pytestmark = pytest.mark.board


def test_a_tree_with_a_syntax_error_is_one_line_naming_the_file_and_line(vboard, tmp_path):
    vboard.wait_protocol()
    bad = firmware_copy(tmp_path, change=lambda root: (root / "cheesefw" / "render.py").write_text(
        (root / "cheesefw" / "render.py").read_text() + "\ndef broken(:\n"))
    lines = (bad / "cheesefw" / "render.py").read_text().count("\n")
    vboard.release_console()
    try:
        with vboard.free_running():
            r = subprocess.run([sys.executable, "-m", "cheeseboard", "flash", "--port",
                                vboard.pty, "--firmware", str(bad)], capture_output=True,
                               text=True, timeout=120)
    finally:
        vboard.reopen_console()
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    said = r.stderr.strip().splitlines()
    assert said == ["cheeseboard: %s, line %d: SyntaxError: invalid syntax"
                    % (bad / "cheesefw" / "render.py", lines)], said
    assert vboard.wait_protocol(timeout=30)["slot"]["active"] == "slot_a"


def flash_firmware(vboard, tree):
    vboard.release_console()
    try:
        with vboard.free_running():
            return subprocess.run([sys.executable, "-m", "cheeseboard", "flash", "--port",
                                   vboard.pty, "--firmware", str(tree)], capture_output=True,
                                  text=True, timeout=120)
    finally:
        vboard.reopen_console()


def test_a_link_out_of_the_tree_is_refused_by_name_and_nothing_reaches_the_board(vboard,
                                                                                 tmp_path):
    vboard.wait_protocol()
    outside = tmp_path / "secret.txt"
    outside.write_text('{"not": "for the board"}')
    tree = firmware_copy(tmp_path)
    link = tree / "rules" / "passwd.json"
    link.symlink_to(outside)
    r = flash_firmware(vboard, tree)
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    said = r.stderr.strip().splitlines()
    assert said == ["cheeseboard: %s: a link to %s, outside the firmware tree: refused (copy "
                    "the file in)" % (link, outside)], said
    assert not list(vboard.flash_dir.rglob("passwd.json"))
    assert vboard.wait_protocol(timeout=30)["slot"]["active"] == "slot_a"


def test_a_folder_that_is_no_firmware_tree_is_said_so(vboard, tmp_path):
    vboard.wait_protocol()
    (tmp_path / "etc" / "deep").mkdir(parents=True)
    (tmp_path / "etc" / "deep" / "x.py").write_text("def f(:\n")
    r = flash_firmware(vboard, tmp_path / "etc")
    said = r.stderr.strip().splitlines()
    assert said == ["cheeseboard: %s: not a firmware tree (no cheesefw/app.py in it)"
                    % (tmp_path / "etc")], said
