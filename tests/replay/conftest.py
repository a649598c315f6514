import sys
from pathlib import Path

# The replay's tests play random games with takebacks as the engine's tests do (their
# takeback_games, in tests/engine).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
