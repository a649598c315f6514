"""The board's own player for Alles für die Katz (katz.py), following the rulebook's tips.

"strong" scores every legal move by the position it leaves:
- never into an empty can when another move avoids it (it is forced only when nothing else is);
- "Halte möglichst viele eigene Mäuse frei beweglich": count the mice it keeps free;
- "Blockiere die Mäuse deiner Mitspieler, lass ihnen aber genau eine frei": a tower top that
  covers others' mice, and a next player left with exactly one free mouse, score;
- "Ärgere dich nicht über eigene Blockaden": a covered mouse of ours counts no danger;
- "Brich möglichst spät zum Mauseloch auf": the fewer empty cans within a roll ahead of where a
  mouse stands, the better; the hole itself is safe;
- "Nutze das Kleeblatt gezielt": with the clover every count is scored, so it steps round cans.
"beginner" only keeps out of empty cans when it can, and otherwise plays at random.
Ties are broken by the random source: the same seed replays the same game.
"""

from cheesefw import const

_TRAP = const(-1000)  # landing in an empty can
_HOME = const(30)  # a mouse safe in the hole
_FREE = const(6)  # each mouse of ours still free to move
_COVER = const(4)  # each mouse of another player under our top mouse
_ONE_LEFT = const(8)  # the next player keeps exactly one free mouse: it must walk into the cans
_DANGER = const(3)  # per empty can within a roll ahead of a mouse of ours


def think(state, rng, level="strong"):
    """Yields after each move it judges (see games.decide); returns a legal action for the
    player to act in `state`."""
    legal = state.legal_actions()
    scores = []
    for a in legal:
        yield
        if level == "beginner":
            scores.append(_TRAP if _lands_in_can(state, a) else 0)
        else:
            scores.append((yield from _score(state, a)))
    best = max(scores)
    top = [legal[i] for i in range(len(legal)) if scores[i] == best]
    return top[rng.below(len(top))]


def _lands_in_can(state, action):
    t = state.track
    dest = t.place(action[0]) + action[1]
    return dest <= t.n and t.trap[dest] and not state.heights()[dest]


def _score(state, action):
    """How good the position after `action` is for the player making it (a generator: it
    yields after the move is made, and after the danger is counted)."""
    me = state.turn
    after = state.after_move(action)
    yield
    t = after.track
    score = 0
    if _lands_in_can(state, action):
        score += _TRAP
    score += _HOME * after.home_count(me)
    free = after.free_mice(me)
    score += _FREE * len(free)
    score -= danger(after, me)
    yield
    # Our mouse on top of others' mice blocks them.
    dest = min(t.n + 1, t.place(action[0]) + action[1])
    if dest <= t.n:
        for i in after.tower(dest)[:-1]:
            if i // after.m != me:
                score += _COVER
    nxt = (me + 1) % after.n
    if nxt != me:
        left = len(after.free_mice(nxt))
        if left == 1:
            score += _ONE_LEFT
    return score


def danger(state, player):
    """The empty cans a roll could end on, counted for each free mouse of `player` ("Eine
    blockierte Maus kann nicht in eine Falle laufen": a covered mouse is in no danger)."""
    t = state.track
    here = state.heights()  # a can is empty while nothing stands on it
    count = 0
    for i in state.free_mice(player):
        p = state.place[i]
        for q in range(p + 1, min(p + 6, t.n + 1)):
            if t.trap[q] and not here[q]:
                count += 1
    return _DANGER * count
