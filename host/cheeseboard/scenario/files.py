"""The files a scenario names, each confined to the scenario's folder and bounded in size.

A scenario is a file a person may be handed (a bug report, a CI job's input): running it must
not read the host's own files into a board (`flash: /usr/share/doc`, `sync: /etc/passwd`) nor
write a snapshot elsewhere. So every path a scenario names is relative, has no `..`, and
resolves (links followed) inside the scenario's folder; a flash folder holds only files,
folders and links that stay inside it, no more than the board's filesystem holds. A shipped
rule table is named by its game (`sync: {shipped: gouda}`), not by a path into the package.
"""

import os
from pathlib import Path

from cheeseboard import paths

MAX_FLASH_ENTRIES = 4096  # files and folders in a flash folder: a board's flash holds dozens
MAX_FLASH_BYTES = 2048 * 1024  # without a profile's filesystem size: the largest board's


class Refused(Exception):
    """A path a scenario may not use: one line saying why (the caller names the key)."""


def inside(here, value):
    """here / value, when it names something under the folder here; Refused for a path that
    is absolute, climbs out with .., or leads out through a link."""
    name = Path(value)
    if name.is_absolute() or ".." in name.parts:
        raise Refused("expected a path under the scenario's folder (no leading / and no ..), "
                      "got %r" % (value,))
    path = here / name
    real = path.resolve()
    if not real.is_relative_to(here.resolve()):
        raise Refused("expected a path under the scenario's folder, got %r: a link out to %s"
                      % (value, real))
    return path


def table_file(here, value, max_bytes):
    """The path of a rule table to sync: a file under here (`value` a path), or the shipped
    table of a game (`value` {shipped: game}); Refused for anything else or a larger file."""
    if isinstance(value, dict):
        return shipped_table(value["shipped"])
    path = inside(here, value)
    if path.is_file() and path.stat().st_size > max_bytes:
        raise Refused("%r: expected a rule table of at most %d bytes, got %d"
                      % (value, max_bytes, path.stat().st_size))
    if path.exists() and not path.is_file():
        raise Refused("%r is not a file" % (value,))
    return path


def shipped_table(game):
    games = paths.import_firmware("cheesefw.games").GAMES
    path = paths.FIRMWARE / "rules" / ("%s.json" % game)
    if game not in games or not path.is_file():
        raise Refused("shipped: %r is not a game with a shipped table: expected one of %s"
                      % (game, ", ".join(games)))
    return path


def flash_folder(here, value, max_bytes):
    """The flash folder to resume from: a folder under here, holding only files, folders and
    links that stay inside it, at most MAX_FLASH_ENTRIES of them and max_bytes in all."""
    path = inside(here, value)
    if not path.is_dir():
        raise Refused("%s is not a folder" % path)
    root = path.resolve()
    entries = size = 0
    for folder, dirs, files in os.walk(path):  # (links are not followed: each is checked)
        for name in dirs + files:
            entry = Path(folder) / name
            entries += 1
            if entries > MAX_FLASH_ENTRIES:
                raise Refused("%r: expected a board's flash, at most %d files and folders"
                              % (value, MAX_FLASH_ENTRIES))
            if entry.is_symlink():
                if not entry.resolve().is_relative_to(root):
                    raise Refused("%r: %s is a link out of the folder, to %s"
                                  % (value, entry.relative_to(path), entry.resolve()))
            elif entry.is_file():
                size += entry.lstat().st_size
                if size > max_bytes:
                    raise Refused("%r: expected a board's flash, at most %d bytes (the "
                                  "board's filesystem), got more" % (value, max_bytes))
            elif not entry.is_dir():
                raise Refused("%r: %s is neither a file nor a folder"
                              % (value, entry.relative_to(path)))
    return path
