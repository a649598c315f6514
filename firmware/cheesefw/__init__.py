"""cheeseboard firmware: the package copied onto the board next to main.py."""

VERSION = "0.1.0"
