"""Where the project's parts are: the firmware tree, the hardware profiles."""

import json
import shutil
import sys
from pathlib import Path

from cheeseboard import CheeseboardError

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
PROFILES = ROOT / "hardware" / "profiles"


class ProfileError(CheeseboardError):
    """A hardware profile is missing or malformed."""


def profile_names():
    return sorted(p.stem for p in PROFILES.glob("*.json"))


def load_profile(name):
    """The hardware profile called name (hardware/profiles/<name>.json) as a dict."""
    path = PROFILES / (name + ".json")
    if not path.exists():
        raise ProfileError(
            "no hardware profile %r: expected one of %s" % (name, ", ".join(profile_names()))
        )
    try:
        return json.loads(path.read_text())
    except ValueError as e:
        raise ProfileError("%s: not valid JSON: %s" % (path, e)) from None


def firmware_dir():
    if not (FIRMWARE / "main.py").exists():
        raise FileNotFoundError(
            "firmware not found at %s: run cheeseboard from a checkout of the project" % FIRMWARE
        )
    return FIRMWARE


def import_firmware(module):
    """A module of the firmware's `cheesefw` package, imported from firmware/ (the host runs the
    firmware's own checks and games on CPython; the installed host package does not carry it)."""
    import importlib

    folder = str(firmware_dir())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(module)


def command(name, package):
    """A command installed with this environment (beside its python), else on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if not found:
        raise FileNotFoundError("`%s` is missing: pip install %s" % (name, package))
    return found
