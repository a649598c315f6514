"""Where the interpreter runs from: the rp2 port's linker script, fixed so that the bytecode
loop, the collector and the parser run from SRAM, and a reading of a built ELF's symbols.

The RP2040 runs code from flash through a 16 KB cache (XIP): a miss costs the core tens of
cycles, and the interpreter's loop alone is larger than the cache. MicroPython's rp2 port
means to keep py/vm.c, py/gc.c and py/parse.c in SRAM: its linker script
(memmap_mp_rp2040.ld) leaves them out of flash's .text by object file name, so that they fall
into .data, which the boot copies into SRAM. In 1.28 the names it gives are `*vm.c.obj`, while
CMake names the objects `vm.c.o`: nothing matches, and the three run from flash. The build
uses a copy of the script with the names fixed (the port takes a script by
MICROPY_BOARD_LINKER_SCRIPT); the MicroPython tree itself is left as it is. The cost is their
code's size (about 12 KB) taken from the heap, which ends where SRAM ends.
"""

import os
import re
import shutil
import subprocess

from cheeseboard.uf2.source import UF2Error

PORT_SCRIPT = "ports/rp2/memmap_mp_rp2040.ld"
# "flash": build with the port's own script, the three left in flash, as a benchmark's
# baseline (a UF2 of its own in the cache); unset or "sram": as the project ships it
PLACEMENT_ENV = "CHEESEBOARD_UF2_INTERPRETER"
IN_SRAM = ("gc.c", "vm.c", "parse.c")  # the port's own list: the sources it keeps out of flash
SRAM = (0x20000000, 0x20042000)  # the RP2040's striped SRAM and its two scratch banks
FLASH = (0x10000000, 0x11000000)  # flash as the XIP window maps it


def sram_script(tree):
    """The text of tree's RP2040 linker script with the exclusions naming the objects CMake
    builds (`vm.c.o`); one line when the script has no such exclusion to fix."""
    path = tree / PORT_SCRIPT
    try:
        text = path.read_text()
    except OSError as e:
        raise UF2Error("%s cannot be read (%s): the rp2 port's linker script"
                       % (path, e)) from None
    return sram_script_text(text, path)


def sram_script_text(text, path):
    """text (the script at path) with its exclusions fixed, or UF2Error naming what is missing."""
    for name in IN_SRAM:
        # The whole name: `*vm.c.obj` (or already `*vm.c.o`) before a blank or a bracket.
        text, found = re.subn(r"(?<=\s)\*%s\.o(?:bj)?(?=[\s)])" % re.escape(name),
                              "*%s.o" % name, text)
        if not found:
            raise UF2Error("%s names no %s object to keep out of flash: not the rp2 port's "
                           "script of MicroPython 1.28" % (path, name))
    return text


def interpreter_in_flash():
    """Whether $CHEESEBOARD_UF2_INTERPRETER asks for the port's own placement (a benchmark's
    baseline); one line for a value it does not know."""
    value = os.environ.get(PLACEMENT_ENV, "sram")
    if value not in ("sram", "flash"):
        raise UF2Error("$%s is %r: sram (the default) or flash (the port's own linker script, "
                       "for a benchmark's baseline)" % (PLACEMENT_ENV, value))
    return value == "flash"


def write_sram_script(tree, folder):
    """Write the fixed script into folder (rewritten only when its text changes, so that the
    firmware is not relinked for nothing) and return its path."""
    path = folder / "memmap_cheeseboard.ld"
    text = sram_script(tree)
    if not path.exists() or path.read_text() != text:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return path


def symbols(elf, names):
    """{name: address} for each of names that elf defines, read with arm-none-eabi-nm."""
    nm = shutil.which("arm-none-eabi-nm")
    if not nm:
        raise UF2Error("`arm-none-eabi-nm` is missing, which reading a firmware's symbols "
                       "needs: apt-get install binutils-arm-none-eabi")
    out = subprocess.run([nm, "--defined-only", str(elf)], capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in names:
            found[parts[2]] = int(parts[0], 16)
    return found


def region(address):
    """"sram", "flash" or "other" for an address on the RP2040."""
    if SRAM[0] <= address < SRAM[1]:
        return "sram"
    if FLASH[0] <= address < FLASH[1]:
        return "flash"
    return "other"
