"""Putting firmware on a board: the image, its compiled files, the raw-REPL link, the agent."""
