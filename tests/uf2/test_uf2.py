"""`cheeseboard uf2`: what is frozen, the cache's keys, UF2 blocks, and bad input refused in
one line with nothing half-written. The build itself (minutes the first time) is the one test
marked uf2, at the end."""

import shutil
import struct
from pathlib import Path
from types import SimpleNamespace

import installed
import pytest

from cheeseboard import cli, paths
from cheeseboard.flash import deploy
from cheeseboard.flash import image as images
from cheeseboard.uf2 import build, linker, manifest, source, uf2file
from cheeseboard.uf2.source import UF2Error

PICO = paths.load_profile("pico")


def uf2_blocks(payloads, family=uf2file.RP2040, start=uf2file.FLASH_START):
    """A UF2 file writing payloads (256 bytes each at most) from start, for family."""
    out = b""
    for i, payload in enumerate(payloads):
        header = struct.pack("<8I", *uf2file.MAGIC_START, uf2file.FLAG_FAMILY, start + 256 * i,
                             len(payload), i, len(payloads), family)
        data = payload.ljust(476, b"\0")
        out += header + data + struct.pack("<I", uf2file.MAGIC_END)
    return out


# --- what is frozen ---------------------------------------------------------------------------

def test_the_ports_boot_py_gives_way_to_the_one_that_keeps_the_journals_region(tmp_path):
    files, _ = manifest.frozen_files(PICO)
    path = manifest.stage(files, tmp_path / "pico")
    assert (tmp_path / "pico" / "_boot.py").read_bytes() == manifest.MOUNT.read_bytes()

    class Manifest:  # MicroPython's ManifestFile (tools/manifestfile.py), what the text uses
        def __init__(self):
            self.frozen = []

        def files(self):
            return self.frozen

        def include(self, path):  # the port's: its _boot.py among its modules
            self.frozen += [SimpleNamespace(target_path=n, ours=False)
                            for n in ("_boot.py", "rp2.py")]

        def module(self, name, base_path):
            self.frozen.append(SimpleNamespace(target_path=name, ours=True))

        def package(self, name, base_path):
            pass

    m = Manifest()
    exec(path.read_text(), {"include": m.include, "module": m.module, "package": m.package})
    boots = [f for f in m.frozen if f.target_path == "_boot.py"]
    assert len(boots) == 1 and boots[0].ours
    assert any(f.target_path == "rp2.py" and not f.ours for f in m.frozen)


def test_stage_freezes_the_package_the_loader_and_the_board_files(tmp_path):
    files, about = manifest.frozen_files(PICO)
    path = manifest.stage(files, tmp_path / "pico")
    text = path.read_text()
    assert text.splitlines()[2] == 'include("$(PORT_DIR)/boards/manifest.py")'
    assert "package(\"cheesefw\", base_path='%s')" % (tmp_path / "pico") in text
    for name in ("boot.py", "frozen_firmware.py", "frozen_files.py"):
        assert "module('%s'" % name in text
    staged = tmp_path / "pico"
    assert (staged / "cheesefw" / "app.py").read_bytes() == (
        paths.FIRMWARE / "cheesefw" / "app.py").read_bytes()
    assert (staged / "boot.py").read_bytes() == manifest.BOOTSTRAP.read_bytes()
    namespace = {}
    exec((staged / "frozen_files.py").read_text(), namespace)
    assert set(namespace["LOADER"]) == {"boot.py", "main.py", "recover.py"}
    assert namespace["LOADER"]["main.py"] == (paths.FIRMWARE / "main.py").read_bytes()
    home = namespace["HOME_FILES"]
    assert "profile.json" in home and "rules/gouda.json" in home and "schemas/gouda.json" in home
    assert not any(p.startswith("cheesefw/") for p in home)  # the code is frozen, not copied
    assert about["frozen"] and about["profile"] == "pico" and set(about["files"]) == set(home)
    firmware = {}
    exec((staged / "frozen_firmware.py").read_text(), firmware)
    assert firmware["BUILD"] == about["build"] and firmware["HOME"] == "/frozen/"


def test_stage_rewrites_only_what_changed_and_drops_what_went(tmp_path, monkeypatch):
    tree = tmp_path / "firmware"
    shutil.copytree(paths.FIRMWARE, tree)
    monkeypatch.setattr(paths, "FIRMWARE", tree)
    staged = tmp_path / "stage"
    before = manifest.frozen_files(PICO)[0]
    manifest.stage(before, staged)
    app = staged / "cheesefw" / "app.py"
    stamp = app.stat().st_mtime_ns
    (tree / "cheesefw" / "render.py").write_text(
        (tree / "cheesefw" / "render.py").read_text() + "\n# changed\n")
    (tree / "cheesefw" / "extra.py").write_text("X = 1\n")
    after = manifest.frozen_files(PICO)[0]
    manifest.stage(after, staged)
    assert app.stat().st_mtime_ns == stamp  # untouched: MicroPython's build keeps its .mpy
    assert manifest.files_hash(after) != manifest.files_hash(before)
    assert (staged / "cheesefw" / "extra.py").read_text() == "X = 1\n"
    (tree / "cheesefw" / "extra.py").unlink()
    manifest.stage(manifest.frozen_files(PICO)[0], staged)
    assert not (staged / "cheesefw" / "extra.py").exists()


def test_the_frozen_build_id_follows_the_code_and_the_profile():
    *_, home, _ = manifest.frozen_image(PICO)
    pico16 = manifest.frozen_image(paths.load_profile("pico16"))[1]["build"]
    assert manifest.frozen_image(PICO)[1]["build"] != pico16
    assert len(home) > 5


# --- the cache --------------------------------------------------------------------------------

@pytest.fixture
def fake_build(tmp_path, monkeypatch):
    """build_uf2 with every step recorded instead of run: the firmware step writes a small
    RP2040 UF2 into its build folder. A MicroPython tree of the right shape (no sources)."""
    tree = tmp_path / "micropython"
    (tree / "py").mkdir(parents=True)
    (tree / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR 28\n"
        "#define MICROPY_VERSION_MICRO 0\n")
    for marker in source.SUBMODULES.values():
        (tree / marker).parent.mkdir(parents=True, exist_ok=True)
        (tree / marker).write_text("")
    (tree / linker.PORT_SCRIPT).parent.mkdir(parents=True)
    (tree / linker.PORT_SCRIPT).write_text(PORT_SCRIPT)
    firmware = tmp_path / "firmware"
    shutil.copytree(paths.FIRMWARE, firmware)
    monkeypatch.setattr(paths, "FIRMWARE", firmware)
    monkeypatch.setenv("CHEESEBOARD_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(build, "toolchain", lambda: dict.fromkeys(build.TOOLS, "1.0"))
    monkeypatch.setattr(source, "picotool_source", lambda into: tmp_path)
    steps = []

    def run(cmd, step, env):
        steps.append(step)
        if step.startswith("firmware"):
            folder = next(a[6:] for a in cmd if a.startswith("BUILD="))
            (Path(folder) / "firmware.uf2").write_bytes(uf2_blocks([b"x" * 256] * 3))
            stack = "-DMICROPY_DEF_BOARD=MICROPY_ALLOC_GC_STACK_SIZE=%d" % build.GC_STACK_ENTRIES
            assert env["CMAKE_ARGS"].split()[0] == stack  # every variant's collector
            if "interpreter-in-flash" in step:
                assert "LINKER_SCRIPT" not in env["CMAKE_ARGS"]  # the port's own script
            else:
                script = env["CMAKE_ARGS"].split("MICROPY_BOARD_LINKER_SCRIPT=")[1]
                assert Path(script).read_text() == linker.sram_script(tree)
        if step.startswith("elf"):  # objcopy: the ELF beside the UF2
            Path(cmd[-1]).write_bytes(b"\x7fELF")

    monkeypatch.setattr(build, "run", run)
    return tree, firmware, steps


def test_nothing_changed_builds_nothing_and_a_module_rebuilds_only_the_firmware(fake_build):
    tree, firmware, steps = fake_build
    first = build.build_uf2("pico", tree)
    assert steps == ["picotool-cmake", "picotool", "mpy-cross", "firmware-frozen-pico",
                     "elf-frozen-pico"]
    assert uf2file.check_rp2040(first) and build.elf_of(first).exists()
    del steps[:]
    assert build.build_uf2("pico", tree) == first and steps == []
    (firmware / "cheesefw" / "render.py").write_text(
        (firmware / "cheesefw" / "render.py").read_text() + "\n# changed\n")
    changed = build.build_uf2("pico", tree)
    assert steps == ["firmware-frozen-pico", "elf-frozen-pico"] and changed != first
    del steps[:]
    stock = build.build_uf2("pico", tree, frozen=False)
    assert steps == ["firmware-stock", "elf-stock"] and stock not in (first, changed)


# The lines of MicroPython 1.28's ports/rp2/memmap_mp_rp2040.ld that place code (its .text;
# the exclusions on one line there)
PORT_SCRIPT = """\
    .text : {
        *(.init)
        /* Change for MicroPython... exclude gc.c, parse.c, vm.c from flash */
        *(EXCLUDE_FILE(*libgcc.a: *libc.a: *lib_a-mem*.o *libm.a:
                       *gc.c.obj *vm.c.obj *parse.c.obj) .text*)
        *(.fini)
    } > FLASH
"""


def test_a_failed_build_leaves_no_uf2(fake_build, monkeypatch, tmp_path, capsys):
    tree, _, _ = fake_build

    def fail(cmd, step, env):
        if step.startswith("firmware"):
            raise UF2Error("firmware-frozen-pico failed (error: boom): log")

    monkeypatch.setattr(build, "run", fail)
    out = tmp_path / "board.uf2"
    assert cli.main(["uf2", "--micropython", str(tree), "--out", str(out)]) == 1
    err = capsys.readouterr().err  # progress lines, then the one line of the error
    assert err.count("cheeseboard: ") == 1 and err.endswith("failed (error: boom): log\n")
    assert not out.exists() and not list(tmp_path.glob("*.part"))
    assert not list((tmp_path / "cache" / "uf2" / "out").glob("*"))


def test_the_command_writes_the_uf2_whole(fake_build, tmp_path, capsys):
    tree, _, _ = fake_build
    out = tmp_path / "board.uf2"
    assert cli.main(["uf2", "--micropython", str(tree), "--out", str(out)]) == 0
    assert uf2file.check_rp2040(out)
    assert "wrote %s" % out in capsys.readouterr().out


# --- UF2 blocks -------------------------------------------------------------------------------

def test_uf2_blocks_are_read_back_into_the_flash_image(tmp_path):
    data = uf2_blocks([b"a" * 256, b"b" * 256])
    start, image = uf2file.image(data)
    assert start == uf2file.FLASH_START and image == b"a" * 256 + b"b" * 256
    path = tmp_path / "ok.uf2"
    path.write_bytes(data)
    assert len(uf2file.check_rp2040(path)) == 2


@pytest.mark.parametrize("data, says", [
    (uf2_blocks([b"a"], family=0x1C5F21B0), "a UF2 for ESP32, not for a Pico (RP2040)"),
    (uf2_blocks([b"a"], family=0xE48BFF59), "RP2350"),
    (uf2_blocks([b"a"])[:-1], "not a whole number of 512-byte blocks"),
    (b"\0" * 512, "no UF2 magic numbers"),
    (uf2_blocks([b"a"], start=0), "below a Pico's flash"),
])
def test_a_uf2_for_another_board_is_refused_in_one_line(tmp_path, data, says):
    path = tmp_path / "other.uf2"
    path.write_bytes(data)
    with pytest.raises(uf2file.UF2FileError) as e:
        uf2file.check_rp2040(path)
    assert says in str(e.value) and "\n" not in str(e.value)


# --- bad input --------------------------------------------------------------------------------

def _tree(tmp_path, minor=28, leave_out=None):
    tree = tmp_path / "mp"
    (tree / "py").mkdir(parents=True)
    (tree / "py" / "mpconfig.h").write_text(
        "#define MICROPY_VERSION_MAJOR 1\n#define MICROPY_VERSION_MINOR %d\n"
        "#define MICROPY_VERSION_MICRO 0\n" % minor)
    for name, marker in source.SUBMODULES.items():
        if name != leave_out:
            (tree / marker).parent.mkdir(parents=True, exist_ok=True)
            (tree / marker).write_text("")
    return tree


@pytest.mark.parametrize("make, says", [
    (lambda tmp: _tree(tmp, minor=27), "is MicroPython 1.27.0; the firmware is built with 1.28"),
    (lambda tmp: _tree(tmp, leave_out="lib/pico-sdk"), "lacks the submodule lib/pico-sdk"),
    (lambda tmp: _tree(tmp, leave_out="lib/tinyusb"), "lacks the submodule lib/tinyusb"),
    (lambda tmp: tmp, "is not a MicroPython source tree"),
])
def test_a_wrong_micropython_is_refused_in_one_line(tmp_path, capsys, monkeypatch, make, says):
    monkeypatch.setenv("CHEESEBOARD_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "board.uf2"
    assert cli.main(["uf2", "--micropython", str(make(tmp_path)), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert not out.exists()


def test_without_a_micropython_it_says_what_it_needs(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(source.ENV, raising=False)
    monkeypatch.setattr(source, "THIRD_PARTY", tmp_path / "nothing")
    monkeypatch.setenv("CHEESEBOARD_CACHE", str(tmp_path / "cache"))
    assert cli.main(["uf2", "--out", str(tmp_path / "b.uf2")]) == 1
    err = capsys.readouterr().err
    assert "no MicroPython source to build from" in err and "--micropython" in err
    assert err.count("\n") == 1


def test_the_environment_variable_names_the_tree(tmp_path, monkeypatch):
    monkeypatch.setenv(source.ENV, str(_tree(tmp_path, minor=22)))
    with pytest.raises(UF2Error, match="1.22.0"):
        source.micropython()


@pytest.mark.parametrize("missing, says", [
    ("arm-none-eabi-gcc", "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi"),
    ("cmake", "apt-get install cmake"),
    ("g++", "apt-get install g++"),
])
def test_a_missing_toolchain_is_named_with_its_package(monkeypatch, missing, says):
    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: None if name == missing else real(name))
    with pytest.raises(UF2Error) as e:
        build.toolchain()
    assert says in str(e.value) and "`%s` is missing" % missing in str(e.value)


@pytest.mark.parametrize("name, data, says", [
    ("esp32.uf2", uf2_blocks([b"a"], family=0x1C5F21B0), "a UF2 for ESP32, not for a Pico"),
    ("pico.uf2", uf2_blocks([b"a"]), "which a Pico takes in BOOTSEL mode"),
    ("esp32.bin", b"\xe9\x03\x02\x20" + bytes(4092), "not a firmware tree"),
])
def test_flash_refuses_a_uf2_or_an_image_for_its_firmware_in_one_line(tmp_path, name, data,
                                                                       says):
    # Before any port is opened: there is none here, and the answer is the same with a board.
    (tmp_path / name).write_bytes(data)
    run = installed.run(tmp_path / "home", "flash", "--port", str(tmp_path / "no-port"),
                        "--firmware", str(tmp_path / name))
    installed.assert_clear_refusal(run, says)
    assert run.stderr.startswith("cheeseboard: ") and run.stderr.count("\n") == 1, run.stderr


def test_a_profile_for_another_board_is_refused(capsys):
    assert cli.main(["uf2", "--profile", "esp32"]) == 1
    assert "not a Pico's" in capsys.readouterr().err


# --- the build --------------------------------------------------------------------------------

@pytest.mark.uf2
def test_the_frozen_uf2_is_for_a_pico_and_carries_the_firmware(frozen_uf2, stock_uf2):
    blocks = uf2file.check_rp2040(frozen_uf2)
    _, image = uf2file.image(frozen_uf2.read_bytes())
    _, stock = uf2file.image(stock_uf2.read_bytes())
    assert len(blocks) == len(frozen_uf2.read_bytes()) // uf2file.BLOCK
    for name in (b"cheesefw/app.py", b"cheesefw/games/gouda.py", b"frozen_firmware.py",
                 b"frozen_files.py", b"boot.py", b"_boot.py", b"neopixel.py"):
        assert name in image, name
    about = manifest.frozen_image(PICO)[1]
    assert about["build"].encode() in image  # this checkout's firmware, not an older one
    assert b"cheesefw/app.py" not in stock and b"_boot.py" in stock
    assert len(image) > len(stock)


# --- flashing a board that runs the frozen firmware -------------------------------------------

class FakeLink:
    """A board running the frozen firmware, as the flash agent reports it: /frozen/ holds the
    frozen firmware's files, no slot is written yet."""

    def __init__(self, frozen_files):
        self.frozen = frozen_files

    def call(self, name, *args):
        if name == "listing":
            if args[0] == "frozen":
                return {p: [images.sha256(d)[:16], len(d)] for p, d in self.frozen.items()}
            return {}
        if name == "check":
            return []
        raise AssertionError(name)


def test_a_flash_onto_the_frozen_firmware_goes_into_a_slot_on_trial_with_it_to_go_back_to():
    image = images.make(PICO)
    _, about, home, loader = manifest.frozen_image(PICO)
    facts = {"state": {"active": "frozen", "previous": None, "build": about["build"]},
             "build": about["build"], "flash_free": 1 << 20,
             "loader": {p: images.sha256(d)[:16] for p, d in loader.items()}}
    plan = deploy.make_plan(FakeLink(home), image, facts)
    assert (plan.slot, plan.running) == ("slot_a", "frozen")  # switch(previous="frozen", trial)
    assert not plan.up_to_date and not plan.loader
    assert "rules/gouda.json" in plan.copy and "profile.json" in plan.copy  # not sent again
    assert "cheesefw/app.mpy" in plan.upload


def test_an_archive_is_unpacked_whole_once_or_not_at_all(tmp_path):
    import tarfile

    content = tmp_path / "content" / "micropython" / "py"
    content.mkdir(parents=True)
    (content / "mpconfig.h").write_text("x")
    archive = tmp_path / "mp.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        tar.add(tmp_path / "content" / "micropython", arcname="micropython")
    dest = tmp_path / "cache" / "micropython-1"
    tree = source.unpack(archive, dest, "micropython")
    assert (tree / "py" / "mpconfig.h").read_text() == "x"
    assert source.unpack(archive, dest, "micropython") == tree  # once
    with pytest.raises(UF2Error, match="expected a folder picotool/"):
        source.unpack(archive, tmp_path / "cache" / "picotool-1", "picotool")
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["micropython-1"]


class SilentWire:
    """A serial port on which the firmware's program says nothing (info then asks the raw REPL)."""

    timeout = 0.1
    in_waiting = 0

    def write(self, data):
        return len(data)

    def read(self, n):
        return b""

    def reset_input_buffer(self):
        pass


class InfoLink:
    """What `cheeseboard info` opens: a board that answers the agent's facts."""

    port = "/dev/ttyACM0"

    def __init__(self, facts):
        self.facts = facts
        self.wire = SilentWire()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def enter(self):
        pass

    def call(self, name, *args):
        assert name == "facts"
        return self.facts

    def restart(self):
        pass


@pytest.mark.parametrize("active, frozen, says", [
    ("frozen", True, ["firmware:  0.1.0 (build b1), frozen into MicroPython",
                      "frozen:    this one: a UF2 from `cheeseboard uf2`"]),
    ("slot_a", True, ["firmware:  0.1.0 (build b1)\n",
                      "frozen:    a firmware frozen into MicroPython (a `cheeseboard uf2` UF2): "
                      "the last to go back to"]),
    ("slot_a", False, ["frozen:    none (MicroPython's own firmware)"]),
])
def test_info_says_which_firmware_runs_and_whether_it_is_frozen(monkeypatch, capsys, active,
                                                                 frozen, says):
    from cheeseboard.flash import command as flash_cli

    facts = {"name": "micropython", "version": [1, 28, 0], "platform": "rp2", "mpy": 6 | 3 << 10,
             "machine": "Raspberry Pi Pico with RP2040", "state": {"active": active},
             "build": "b1", "firmware": "0.1.0", "profile": "pico", "frozen": frozen,
             "flash_free": 1 << 20, "flash_size": 1408 << 10, "heap_free": 200000}
    monkeypatch.setattr(flash_cli, "_open", lambda args: InfoLink(facts))
    assert cli.main(["info"]) == 0
    out = capsys.readouterr().out
    for line in says:
        assert line in out
