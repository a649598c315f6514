import sys
from pathlib import Path

# Some engine tests set a game in a given position with that game's own test helpers (the LED
# language's extra-turn light, a Gouda position from test_gouda_rules): they are in tests/games.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
