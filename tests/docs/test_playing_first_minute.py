"""docs/playing.md's first minute of each game says the board's own words in the order the
board says them: every quoted sentence of a game's paragraph is played on the engine (CPython,
its buttons) and found in what the board says, in the paragraph's order."""

import re
from pathlib import Path

import pytest
from engine_driver import CpuTable, MemoryBoard, load_profile

from cheesefw import words

DOC = Path(__file__).resolve().parents[2] / "docs" / "playing.md"
# A space's id in a quote stands for any: which one the board offers first is the die's
SPACE = re.compile(r"\b([a-h][1-8]|crl|crr|jug|m\d|f\d\d|pantry)\b")
SAYS = ("to choose:", "to roll", "looking at", "put ", "turn the card", "swap the cards",
        "the cat goes", "move ")


def quotes(title):
    """The board's sentences quoted in the paragraph that starts with **title**."""
    text = DOC.read_text()
    start = text.index("- **%s.**" % title)
    end = text.index("\n- **", start + 1)
    paragraph = " ".join(text[start:end].split())
    return [q for q in re.findall(r"`([^`]+)`", paragraph) if any(s in q for s in SAYS)]


def as_pattern(quote):
    return re.compile(SPACE.sub(lambda m: r"\w+", re.escape(quote).replace(r"\ ", " ")))


def played(game, moves=60):
    """Every line the board says in a game's first moves, a person at each seat: at each
    choice the next offer is seen too (then prev), and in Gouda a look at the pieces."""
    t = CpuTable(MemoryBoard(profile=load_profile("pico")))
    while t.state()["value"] != game:
        t.press("next")
    t.press("ok")
    while t.state()["mode"] == "menu":
        t.press("ok")
    said = []

    def say():
        said.extend(words.lines(t.state()))

    for _ in range(moves):
        s = t.state()
        if s["wait"] == "decide":
            say()
            t.press("next")
            say()
            t.press("prev")
            if game == "gouda":
                t.press("roll")
                say()
                t.press("ok")
            t.press("ok")
        elif s["wait"] == "roll":
            say()
            t.press("roll")
        elif s["wait"] == "over":
            break
        t.wait(500)
    return said


@pytest.mark.parametrize("game, title", [("gouda", "Gouda"), ("kitchen", "The kitchen"),
                                         ("kalle", "Kalle Kanalratte"),
                                         ("katz", "Alles für die Katz")])
def test_the_first_minute_quotes_the_board_in_the_order_it_says_them(game, title):
    said = played(game)
    at = 0
    wanted = quotes(title)
    assert len(wanted) >= 2, wanted
    for quote in wanted:
        pattern = as_pattern(quote)
        found = [i for i, line in enumerate(said) if pattern.search(line)]
        assert found, "docs/playing.md quotes %r; the board never says it" % quote
        if "looking at" in quote:  # a look, asked for at any choice: not in the order
            continue
        assert found[0] >= at, "docs/playing.md quotes %r after what the board says later" % (
            quote)
        at = found[0]  # (each the first time the board says it: a game says them again)
