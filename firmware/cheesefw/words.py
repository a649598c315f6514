"""What the board is doing, in the words a player reads: the menu's step and value, whose turn
it is, the move on offer as a sentence, the roll, the end.

One source for every screen: the terminal view runs this module on the host (CPython) over the
board's protocol `state`, and the web page runs it in the firmware's own VM over
`App.scene.describe()`. A board never imports it while it plays (its names would cost the
heap): only a view asks for words.
"""

# Who sits in a seat, where the game names its sides (else "player N", numbered from 1 as the
# seat lights are).
_SIDES = {"kitchen": ("the mice", "the cat")}
# A menu value in words (the others as they are, underscores as spaces).
_VALUES = {"person": "a person", "board": "the board", "beginner": "the board (beginner)"}


def lines(state):
    """The lines that say what a board in this state is doing ([] for a state without
    words: a board that has not answered, a fault)."""
    if not state:
        return []
    state = state.get("state", state)
    mode = state.get("mode")
    if mode == "menu":
        return _menu(state)
    if mode == "play":
        return _play(state)
    return []


def text(state_json):
    """lines() of a state given as JSON, one line each (the web page's call: the page reads
    its board's state, and a replay's steps, as JSON)."""
    import json

    return "\n".join(lines(json.loads(state_json)))


def seat_name(game, seat):
    """A seat (from 0) as players call it: "the mice", or "player 2"."""
    sides = _SIDES.get(game)
    if sides and 0 <= seat < len(sides):
        return sides[seat]
    return "player %d" % (seat + 1)


def value(v):
    """A menu value or an option in words: yes/no, "the board", "extra cheese"."""
    if v is True or v is False:  # (not 1 or 0: a number stays a number)
        return "yes" if v else "no"
    if type(v) is str and v in _VALUES:
        return _VALUES[v]
    return str(v).replace("_", " ")


def _menu(s):
    step = s["step"]
    if step.startswith("seat") and step[4:].isdigit():
        seat = int(step[4:])
        name = seat_name(s.get("game"), seat)
        step = "seat %d" % (seat + 1) if name.startswith("player") else "seat %d (%s)" % (
            seat + 1, name)
    else:
        step = value(step)
    choices = list(s.get("choices", ()))
    if choices and all(type(c) is int for c in choices):
        choices = sorted(choices)
    said = "menu: %s = %s   (the choices: %s)" % (
        step, value(s["value"]), ", ".join(value(c) for c in choices))
    said = [said]
    refused = s.get("refused")
    if refused:
        said.append("  refused: %s" % refused)
    if s.get("vision"):  # (roll switches it, in any step of the menu)
        said.append("  the colour-vision palette is on (Space turns it off)")
    return said


def _play(s):
    said = _playing(s)
    if s.get("why"):  # a takeback just refused: why, in place of the lines that follow
        return [said[0], "  not taken back: %s" % s["why"]]
    return said


def _playing(s):
    game = s["game"]
    head = "%s, move %d: " % (game, s["moves"])
    turn = s.get("turn")
    who = seat_name(game, turn) if type(turn) is int and turn >= 0 else "?"
    wait = s.get("wait")
    if wait == "over":
        winners = ", ".join(seat_name(game, w) for w in s.get("winners") or ())
        return [head + "game over, winners: %s; Enter for the menu" % (winners or "none")]
    if wait in ("roll", "rolling"):
        roller = seat_name(game, s["roller"]) if "roller" in s else "the dice"
        if wait == "roll":
            return [head + "%s to roll (Space)" % roller]
        return [head + "%s: the dice are rolling" % roller]
    if wait == "decide" and s.get("private"):
        return [head + "%s, a hidden hand: hold roll down to see it (key p)," % who,
                "  the card on offer pale where it would lie, the die's pips say which card;",
                "  then \u2190/\u2192 walk the cards and places, Enter lays it (unseen: refused)"]
    if wait in ("decide", "react") and "offer" in s:
        count = "(one of %d)" % s.get("choices", 1)
        if s.get("private") is False:  # a hidden hand, seen while roll is held
            return [head + "%s's hand: %s %s" % (who, offer(s), count),
                    "  roll held: the card shows pale where it would lie, the die's grey pips",
                    "  say which; \u2190/\u2192 walk cards and places, Enter lays it, roll let go"
                    " hides it"]
        return [head + "%s to choose: %s %s" % (who, offer(s), count)]
    if wait == "bot":
        return [head + "the board is playing %s" % who]
    if wait == "window":
        return [head + "others may react: Enter, then choose your seat"]
    if wait == "seat":
        return [head + "which seat reacts? %s on offer" % seat_name(game, s.get("seat", 0))]
    if wait == "look":
        return [head + "looking at the pieces on %s (\u2190/\u2192 the other spaces); Space, "
                "Enter or Backspace goes back to %s's move" % (s.get("look", "?"), who)]
    return [head + "%s; waiting: %s" % (who, wait)]


def offer(s):
    """The move on offer as a sentence a player understands ("move your mouse from a4")."""
    game, a, text, phase = s["game"], s["offer"], s.get("text") or "", s.get("phase")
    said = _SENTENCES.get(game, _as_is)(a, text, phase, s)
    return said or _as_is(a, text, phase, s)


def _as_is(a, text, phase, s):
    return text if type(a) is int and text else flat(a)


def flat(v):
    if isinstance(v, (list, tuple)):
        return " ".join(flat(x) for x in v)
    return value(v)


def _gouda(a, text, phase, s):
    if isinstance(a, (list, tuple)):
        kind = a[0]
        if kind == "place":
            return "put your mice on %s" % a[1]
        if kind == "go" and text == "extra turn":
            return "take your extra turn from %s" % a[1]
        if kind == "go":
            return "roll for the mice on %s" % a[1]
        if kind == "move":
            return "move a mouse of %s %s to %s" % (seat_name("gouda", a[1]), text, a[2])
        if kind == "play":
            return "play your power: %s" % value(a[2])
        if kind == "space":
            return "move them to %s" % a[1]
        if kind == "dice":
            return "turn the dice to %d green, %d yellow, %d red" % (a[1], a[2], a[3])
    if a == "pass":
        return "let it pass"
    return None


def _kitchen(a, text, phase, s):
    if text == "no move":
        return "leave the mouse where it is" if phase in ("pick", "move") else "stay"
    if phase == "place":
        return "put the cat on %s" % a
    if phase == "pick":
        return "move your mouse from %s" % a
    if phase == "take":
        return "take the cheese from %s" % a
    if text == "cat":
        return "the cat goes to %s" % a
    if text == "mouse":
        return "to %s" % a
    return None


def _kalle(a, text, phase, s):
    if phase == "hide":
        return "hide the rat under %s" % a
    if phase == "place":
        return "put the guard on %s" % a
    if phase == "search":
        return "turn the card at %s" % a
    if phase == "guess":
        return "say the rat is under %s" % a
    if a == "keep":
        return "keep the cards as they lie"
    if a == "next":
        return "on to the next round"
    if isinstance(a, (list, tuple)):
        return "swap the cards at %s and %s" % (a[0], a[1])
    return None


def _katz(a, text, phase, s):
    if isinstance(a, (list, tuple)) and " to " in text:
        steps, to = text.split(" to ", 1)
        return "move your mouse from %s, %s %s, to %s" % (
            a[0], steps, "space" if steps == "1" else "spaces", to)
    return None


def _gatenkaas(a, text, phase, s):
    if text.startswith(("card ", "cat ")):
        return "lay " + text
    return text or None


_SENTENCES = {"gouda": _gouda, "kitchen": _kitchen, "kalle": _kalle, "katz": _katz,
              "gatenkaas": _gatenkaas}
