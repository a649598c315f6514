"""cheeseboard host tool: flash, simulate and sync the cheeseboard."""

__version__ = "0.1.0"

# Ctrl-C while the command is still loading (Python's imports, the parser being built): one
# line, never a traceback.
NOT_STARTED = "cheeseboard: interrupted before it started; nothing was done"


class CheeseboardError(Exception):
    """What a command cannot do, in one line that says what to do instead. Each room raises its
    own kind (ProtocolError, FlashError, RulesError...); the CLI prints `cheeseboard: <message>`
    for every one of them and exits with status 1."""
