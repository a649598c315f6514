"""The terminal view's screen at 80x24, every game: each label whole (or shortened and said
what it stands for), the palette's colours by the names players read, nothing cut or wrapped."""

import pytest

from cheeseboard.paths import load_profile
from cheeseboard.pictures import picture
from cheeseboard.sim import view

GAMES = [("pico", "gouda"), ("pico", "kitchen"), ("pico", "kalle"), ("pico", "katz"),
         ("pico16", "gatenkaas")]
WORDS = ["gatenkaas, move 100: player 4, a hidden hand: hold roll down to see it (key p),",
         "  the card on offer pale where it would lie, the die's pips say which card;",
         "  then \u2190/\u2192 walk the cards and places, Enter lays it (unseen: refused)"]


def screen(profile, game, playing=True, vision=False):
    drawn = view.draw(None, profile, "board: on   console: /dev/pts/10   frames: 1000", game,
                      playing, WORDS, (80, 24), vision=vision)
    assert not drawn.endswith("(q quits)"), drawn  # the view itself, not the size it needs
    return [view.ANSI.sub("", line) for line in drawn.split("\r\n")]


@pytest.mark.parametrize("name, game", GAMES)
@pytest.mark.parametrize("playing", [True, False])
def test_every_label_is_whole_at_80x24(name, game, playing):
    profile = load_profile(name)
    lines = screen(profile, game, playing)
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    board = lines[1:1 + profile["matrix"]["height"]]
    cells = [cell for line in board for cell in line.split()]
    for region in picture.regions(profile, game):
        if region.key in " ".join(board):
            continue
        # Shortened to fit its cells: whole in its short form, and the screen says what for
        short = view.short_label(region.key)
        assert short in cells, "%s: the label %r is not on the screen whole" % (game, region.key)
        words = region.key.split()
        said = "%sN = %s N" % (short[0], words[0]) if words[-1].isdigit() else \
            "%s = %s" % (short, region.key)
        assert said in "\n".join(lines), (said, lines)


@pytest.mark.parametrize("name, game", GAMES)
def test_the_legend_names_colours_as_players_do_and_follows_the_vision_palette(name, game):
    profile = load_profile(name)
    table = picture.read_table(game)
    plain = "\n".join(view.legend(table, True))
    assert "cb:" not in plain and "player 1" in plain
    key = next((k[3:] for k in sorted(table["palette"])
                if k.startswith("cb:") and not k[3:].isdigit()), None)
    if key is None:
        return
    # With the colour-vision palette on, its colour shows under the plain name
    r, g, b = table["palette"]["cb:" + key]
    vision = "\n".join(view.legend(table, True, vision=True))
    assert "cb:" not in vision
    assert "\x1b[48;2;%d;%d;%dm  \x1b[0m %s" % (r, g, b, key) in vision
    assert screen(profile, game, vision=True)


@pytest.mark.parametrize("cols", [30, 45, 60])
def test_a_terminal_too_small_is_told_the_size_needed_in_lines_that_fit_it(cols):
    drawn = view.draw(None, load_profile("pico16"), "", "gatenkaas", True, WORDS, (cols, 10))
    lines = [view.ANSI.sub("", line) for line in drawn.split("\r\n")]
    assert all(len(line) <= cols for line in lines), lines
    said = " ".join(" ".join(lines).split())
    assert "this terminal is %dx10: the board's view needs at least 80x2" % cols in said
