"""The firmware image: what `cheeseboard flash` puts on a board, file by file.

    boot.py, main.py   the loader, at the root of the flash (source: a board runs them
                       by name); they pick the active slot and roll back a bad update
    slot_a/, slot_b/   two slots, one active: the firmware's modules compiled to .mpy,
                       its default rule tables, the board's profile, manifest.json
    frozen/            on a board with a cheeseboard UF2: the frozen firmware's files (its
                       code is in MicroPython's own firmware), active when slot.json names it
    slot.json          which slot is active (written by the host and the loader)

The manifest names every file of the slot and the loader with its size and SHA-256,
the firmware version, and a build id (a hash of all of it): two images with the same
build id are the same bytes.
"""

import hashlib
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cheeseboard import paths
from cheeseboard.flash import build

LOADER = ("boot.py", "main.py", "recover.py")
SLOTS = ("slot_a", "slot_b")
FROZEN = "frozen"  # the firmware frozen into MicroPython by `cheeseboard uf2`: files in /frozen/
MANIFEST = "manifest.json"
STATE = "slot.json"
PROFILE = "profile.json"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


@dataclass
class Image:
    """A firmware build for one board: the loader's files, the slot's files and their
    manifest (paths relative to the root of the flash and to the slot)."""

    loader: dict[str, bytes]
    files: dict[str, bytes]
    manifest: dict = field(default_factory=dict)

    @property
    def build_id(self):
        return self.manifest["build"]

    def manifest_bytes(self):
        return json.dumps(self.manifest, separators=(",", ":"), sort_keys=True).encode()

    def payload_bytes(self):
        """The bytes a full flash must move: every file, the manifest too."""
        return (
            sum(map(len, self.loader.values()))
            + sum(map(len, self.files.values()))
            + len(self.manifest_bytes())
        )


def firmware_version(firmware):
    text = (Path(firmware) / "cheesefw" / "__init__.py").read_text()
    m = re.search(r'^VERSION = "([^"]+)"', text, re.M)
    if not m:
        raise build.BuildError('cheesefw/__init__.py: no VERSION = "..." line')
    return m.group(1)


def make(profile, arch=None, firmware=None, source=False):
    """Build the image of firmware/ (or another tree) for a board with this profile.

    arch is mpy-cross's -march (the board's architecture); source=True keeps the
    modules as .py (a board then compiles them at import: slower, and more heap).
    """
    firmware = Path(firmware) if firmware else paths.firmware_dir()
    build.check_tree(firmware)
    with tempfile.TemporaryDirectory(prefix="cheeseboard-build-") as tmp:
        if source:
            out = firmware
        else:
            build.build_tree(firmware, tmp, arch)
            out = Path(tmp)
        loader, files = {}, {}
        for f in sorted(out.rglob("*")):
            rel = f.relative_to(out).as_posix()
            skip = any(p.startswith(".") or p == "__pycache__" for p in f.relative_to(out).parts)
            if skip or f.is_dir() or f.suffix == ".pyc":
                continue
            (loader if rel in LOADER else files)[rel] = f.read_bytes()
    _check_loader(firmware, loader)
    files.update(_schemas())
    files[PROFILE] = json.dumps(profile, separators=(",", ":")).encode()
    image = Image(loader, files)
    listing = {p: [len(d), sha256(d)] for p, d in sorted(files.items())}
    loaders = {p: [len(d), sha256(d)] for p, d in sorted(loader.items())}
    whole = json.dumps([listing, loaders], sort_keys=True).encode()
    image.manifest = {
        "version": firmware_version(firmware),
        "build": sha256(whole)[:12],
        "profile": profile["name"],
        "arch": arch or "any",
        "files": listing,
        "loader": loaders,
    }
    return image


def layout(image, slot=SLOTS[0]):
    """{path from the root of the flash: bytes} of a board freshly flashed with the image,
    slot active (the virtual board's flash folder; the web board's first flash)."""
    files = dict(image.loader)
    for rel, data in image.files.items():
        files[slot + "/" + rel] = data
    files[slot + "/" + MANIFEST] = image.manifest_bytes()
    files[STATE] = json.dumps({"active": slot, "previous": None, "build": image.build_id}).encode()
    return files


def _schemas():
    """The games' JSON Schemas, for the board to check a table as strictly as the host
    (cheesefw/schema.py): schemas/<game>.json, without what only people read."""
    from cheeseboard.rules import check as rules

    out = {}
    for game in sorted(rules.games()):  # the games' only (the scenario files' is the host's)
        schema = rules.schema(game)
        for key in ("$schema", "title", "description"):
            schema.pop(key, None)
        out["schemas/%s.json" % game] = json.dumps(
            schema, separators=(",", ":"), sort_keys=True).encode()
    return out


def _check_loader(firmware, loader):
    """The loader is fixed: the one of the tool that flashes, whatever the firmware tree. It
    is what takes a board back from a bad firmware, shared by both slots and never on trial
    itself, so a tree's own boot.py or main.py (a hang there, say) could brick the board."""
    fixed = paths.firmware_dir()
    for name in LOADER:
        if loader.get(name) != (fixed / name).read_bytes():
            raise build.BuildError(
                "%s: not the loader this tool installs (%s): the loader is fixed, as it is "
                "what brings a board back from a bad firmware; put changes in cheesefw/"
                % (Path(firmware) / name, fixed / name))


def write_to_folder(image, flash_dir, slot=SLOTS[0]):
    """Lay the image out in a folder as a flashed board has it, with slot active.

    (The virtual board's flash folder, created without a flash over the wire.)
    """
    flash_dir = Path(flash_dir)
    for rel, data in layout(image, slot).items():
        dst = flash_dir / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
