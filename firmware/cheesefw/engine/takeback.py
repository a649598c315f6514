"""Taking a move back (a long press of prev, cheesefw.engine.play): the game rebuilt from its
first moves. Imported at the first long press of prev in a game, or at a resume whose journal
holds a takeback, so that a game nobody takes back keeps this code's heap and names for play."""

from cheesefw import const

_TAKEBACKS_LOGGED = const(16)  # the takebacks the log remembers (the latest)


# What the game may wait on for a move to go back (the die's tumble too: its roll is called off)
_MAY_GO_BACK = const(("decide", "roll", "rolling", "window", "bot"))


def press(play, now):
    """A long press of prev: the last person's move of play taken back, True (redraw); refused
    where the game waits on no one's choice or nothing may go back, and where the heap is too
    small to rebuild the game: the game then goes on as it was."""
    if not play.undo or play.wait not in _MAY_GO_BACK:
        return refuse(play, now)
    to = play.undo[-1]
    try:  # (the game is rebuilt beside the one in play, which stays until it is whole)
        replay(play, to)
    except MemoryError:
        return refuse(play, now, "not enough heap on this board to rebuild the game")
    play.journal.append({"takeback": to})
    play.reveal = None
    play._advance(now)
    return True


def refuse(play, now, why=None):
    """A long press of prev where nothing can go back: refused, and nothing changes (the press
    that began it walked back one choice, seat or space: it is walked forward again); play.why
    says why, in words, until the next press."""
    wait = play.wait
    if wait in ("decide", "react") and play.choices and not play._secret():
        play.cursor = (play.cursor + 1) % len(play.choices)
    elif wait == "seat":
        play.seat = (play.seat + 1) % play.players
    elif wait == "look":
        play.look = (play.look + 1) % len(play._occupied())
    elif wait == "hand" and play._hand():
        play.look = (play.look + 1) % len(play._hand())
    if why:
        play.why = why
    elif wait == "over":
        play.why = "the game is over"
    elif wait in ("react", "seat", "look", "hand"):
        play.why = "not while a choice is open: finish it or give it back first"
    else:  # (_move forgets what may go back at each roll, card turned or power played)
        play.why = "a roll or a card shown since the last move, or no move yet"
    return play._refuse(now)


def replay(play, to):
    """The game back to its first `to` moves (a takeback, played or replayed from the journal):
    a new state that replays the history's first moves (the contract makes the game a function
    of its actions, as a resume after a power cut relies on too)."""
    state = play.state
    again = play.module.State(play.tables(), play.options)
    for action in state.history:
        if len(again.history) == to:
            break
        again.apply_action(action)
    assert len(again.history) == to, "a takeback past the game's start"
    undo = play.undo
    while undo and undo[-1] >= to:
        undo.pop()
    play.takebacks.append([to, len(state.history) - to])
    if len(play.takebacks) > _TAKEBACKS_LOGGED:
        play.takebacks.pop(0)
    play.state = again
    play._is_secret_move = getattr(again, "is_secret", None)
    hidden = play.hidden  # (the moves past `to` are gone: their bits with them)
    for i in range(to, len(hidden) * 8):
        hidden[i >> 3] &= ~(1 << (i & 7))
