"""Letting go of modules: a board carries only what it plays (a game's code after the game, a
table check's after the check, the menu's during a game)."""

import sys


def forget(*names, keep=(), on_host=False):
    """Drop the modules named (a name ending in "." drops every module under it), but those in
    keep, from sys.modules and from their package, so that the next gc.collect() frees their
    code. On CPython only with on_host: the host runs many games in one process, and its tests
    hold the game modules they imported."""
    if not on_host and sys.implementation.name != "micropython":
        return
    for name in [m for m in sys.modules if m not in keep and _named(m, names)]:
        del sys.modules[name]
        package, _, attribute = name.rpartition(".")
        try:
            delattr(sys.modules[package], attribute)
        except (KeyError, AttributeError):
            pass


def _named(module, names):
    for name in names:
        if module == name or (name.endswith(".") and module.startswith(name)):
            return True
    return False
