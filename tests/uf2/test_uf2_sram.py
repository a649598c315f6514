"""The UF2's interpreter, collector and parser in SRAM: the rp2 port's linker script fixed in
the build (and refused in one line when it is not 1.28's), the cache keyed on it, and the
built ELF read for where the functions landed (the tests marked uf2 build it)."""

import subprocess
from pathlib import Path

import pytest
from test_uf2 import PORT_SCRIPT, _tree, fake_build  # noqa: F401 (a fixture)

from cheeseboard import cli
from cheeseboard.uf2 import build, linker


def test_the_linker_script_names_the_objects_cmake_builds():
    tree = Path("/nonexistent")
    fixed = linker.sram_script_text(PORT_SCRIPT, tree / linker.PORT_SCRIPT)
    assert "*gc.c.o *vm.c.o *parse.c.o) .text*)" in fixed
    assert fixed.replace("*gc.c.o *vm.c.o *parse.c.o", "*gc.c.obj *vm.c.obj *parse.c.obj") == (
        PORT_SCRIPT)  # nothing else changed
    assert linker.sram_script_text(fixed, tree) == fixed  # a tree already fixed stays as it is
    assert "*lib_a-mem*.o" in fixed


@pytest.mark.parametrize("script", ["", PORT_SCRIPT.replace(" *vm.c.obj", ""),
                                    PORT_SCRIPT.replace("*parse.c.obj", "*xparse.c.obj")])
def test_a_linker_script_without_the_exclusions_is_refused_in_one_line(tmp_path, capsys,
                                                                      script):
    tree = _tree(tmp_path)
    (tree / linker.PORT_SCRIPT).parent.mkdir(parents=True)
    (tree / linker.PORT_SCRIPT).write_text(script)
    assert cli.main(["uf2", "--micropython", str(tree), "--out", str(tmp_path / "b.uf2")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "memmap_mp_rp2040.ld names no " in err, err
    assert not (tmp_path / "b.uf2").exists()


def test_a_uf2_built_before_the_interpreter_moved_to_sram_is_not_reused(request, monkeypatch):
    tree, _, steps = request.getfixturevalue("fake_build")
    recipe = build.RECIPE
    monkeypatch.setattr(build, "RECIPE", "2")  # the recipe that left it in flash
    before = build.build_uf2("pico", tree)
    monkeypatch.setattr(build, "RECIPE", recipe)
    del steps[:]
    after = build.build_uf2("pico", tree)
    assert after != before and steps == ["firmware-frozen-pico", "elf-frozen-pico"]
    del steps[:]  # and the linker script is an input of its own
    (tree / linker.PORT_SCRIPT).write_text(PORT_SCRIPT.replace("*gc.c.obj", "*gc.c.o"))
    assert build.build_uf2("pico", tree) == after and steps == []  # the same script made
    (tree / linker.PORT_SCRIPT).write_text(PORT_SCRIPT + "/* changed */\n")
    assert build.build_uf2("pico", tree) != after and steps == ["firmware-frozen-pico",
                                                                "elf-frozen-pico"]


def test_the_port_s_own_placement_is_a_uf2_of_its_own_for_a_benchmark(request, monkeypatch,
                                                                       capsys):
    tree, _, steps = request.getfixturevalue("fake_build")
    ours = build.build_uf2("pico", tree, frozen=False)
    monkeypatch.setenv(linker.PLACEMENT_ENV, "flash")
    del steps[:]
    baseline = build.build_uf2("pico", tree, frozen=False)
    assert baseline != ours and baseline.name.startswith("stock-interpreter-in-flash-")
    assert steps == ["firmware-stock-interpreter-in-flash", "elf-stock-interpreter-in-flash"]
    monkeypatch.setenv(linker.PLACEMENT_ENV, "rom")
    assert cli.main(["uf2", "--stock", "--micropython", str(tree)]) == 1
    assert "sram (the default) or flash" in capsys.readouterr().err


# The interpreter's loop, the collector's allocation and collection, and the parser
HOT = ("mp_execute_bytecode", "gc_alloc", "gc_collect_end", "gc_free", "mp_parse")


@pytest.mark.uf2
@pytest.mark.parametrize("which", ["frozen_uf2", "stock_uf2"])
def test_the_interpreter_the_collector_and_the_parser_run_from_sram(request, which):
    elf = build.elf_of(request.getfixturevalue(which))
    found = linker.symbols(elf, HOT + ("mp_call_function_n_kw", "__GcHeapStart"))
    assert {name: linker.region(found[name]) for name in HOT} == dict.fromkeys(HOT, "sram")
    assert linker.region(found["mp_call_function_n_kw"]) == "flash"  # the rest stays there
    # what SRAM gives them, the heap loses: about 12 KB of the RP2040's 256 KB
    heap = linker.SRAM[0] + 256 * 1024 - found["__GcHeapStart"]
    assert 200 * 1024 < heap < 245 * 1024, heap


@pytest.mark.uf2
@pytest.mark.parametrize("which", ["frozen_uf2", "stock_uf2"])
def test_the_collector_s_mark_stack_holds_the_entries_the_build_asks_for(request, which):
    # MicroPython's state (mp_state_ctx) holds the stack, 2 bytes an entry on an RP2040: 872
    # bytes in all with the port's 64 (1.28), 2 more for each entry past them
    elf = build.elf_of(request.getfixturevalue(which))
    table = subprocess.run(["arm-none-eabi-nm", "-S", str(elf)], capture_output=True,
                           text=True, check=True).stdout
    size = next(int(line.split()[1], 16) for line in table.splitlines()
                if line.endswith(" mp_state_ctx"))
    assert size == 872 + 2 * (build.GC_STACK_ENTRIES - 64), size
