"""`cheeseboard uf2`: MicroPython for a Pico with the cheeseboard firmware frozen in, as one UF2.

    source.py    the MicroPython source (a clone given, or the one in ../shared/third_party)
    manifest.py  what is frozen: the firmware's package, its tables, profile and loader
    build.py     picotool, mpy-cross and the firmware built, each cached by its inputs
    uf2file.py   a UF2 file's blocks read and checked (an RP2040's, or not)
    command.py   the subcommand
"""

from cheeseboard.uf2.build import build_uf2
from cheeseboard.uf2.source import UF2Error

__all__ = ["UF2Error", "build_uf2"]
