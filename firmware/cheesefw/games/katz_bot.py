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

_TRAP = -1000  # landing in an empty can
_HOME = 30  # a mouse safe in the hole
_FREE = 6  # each mouse of ours still free to move
_COVER = 4  # each mouse of another player under our top mouse
_ONE_LEFT = 8  # the next player keeps exactly one free mouse: it must walk into the cans
_DANGER = 3  # per empty can within a roll ahead of a mouse of ours


def choose(state, rng, level="strong"):
    """A legal action for the player to act in `state`."""
    legal = state.legal_actions()
    if level == "beginner":
        scores = [_TRAP if _lands_in_can(state, a) else 0 for a in legal]
    else:
        scores = [_score(state, a) for a in legal]
    best = max(scores)
    top = [legal[i] for i in range(len(legal)) if scores[i] == best]
    return top[rng.below(len(top))]


def _lands_in_can(state, action):
    t = state.track
    dest = t.place(action[0]) + action[1]
    return dest <= t.n and t.trap[dest] and not state.tower(dest)


def _score(state, action):
    """How good the position after `action` is for the player making it."""
    me = state.turn
    after = state.after_move(action)
    t = after.track
    score = 0
    if _lands_in_can(state, action):
        score += _TRAP
    score += _HOME * after.home_count(me)
    free = after.free_mice(me)
    score += _FREE * len(free)
    # Danger ahead: the empty cans a roll could end on, for each of our free mice ("Eine
    # blockierte Maus kann nicht in eine Falle laufen": a covered mouse is in no danger).
    for i in free:
        p = after.place[i]
        for k in range(1, 6):
            q = p + k
            if q <= t.n and t.trap[q] and not after.tower(q):
                score -= _DANGER
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
