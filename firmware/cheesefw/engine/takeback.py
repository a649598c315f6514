"""Taking a move back (a long press of prev, cheesefw.engine.play): the game rebuilt from its
first moves. Imported at the first takeback of a game, or at a resume whose journal holds one,
so that a game nobody takes back keeps this code's heap and names for play."""

from cheesefw import const

_TAKEBACKS_LOGGED = const(16)  # the takebacks the log remembers (the latest)


def press(play, now):
    """The last person's move of play taken back (play has checked that one may go back now);
    True (redraw). Without the heap to rebuild the game, refused: the game goes on as it was."""
    to = play.undo[-1]
    try:  # (the game is rebuilt beside the one in play, which stays until it is whole)
        replay(play, to)
    except MemoryError:
        return play._refuse(now)
    play.journal.append({"takeback": to})
    play.reveal = None
    play._advance(now)
    return True


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
