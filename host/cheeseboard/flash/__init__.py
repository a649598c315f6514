"""Putting firmware on a board: the image, its compiled files, the raw-REPL link, the agent."""

# Seconds without a byte, while the board owes one, that mean it is gone (`--silence`): here,
# where every command's parser reads it without loading what talks to a board.
SILENCE = 10.0
