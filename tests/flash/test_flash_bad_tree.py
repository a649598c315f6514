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
