"""An independent model of the Gatenkaas table for the tests: a stack of cards per cell.

Written straight from the rulebook, sharing nothing with the firmware but the rule table: a
cell shows what the highest card that is not a hole there shows. Plain Python that both VMs
run (the MicroPython tests paste this file's text into their program).
"""


def faces(rules):
    """Face strings of every card by id: start, cats, mice (the table's order)."""
    return [rules["start"]["face"]] + rules["cats"] + rules["mice"]


def cells(rules, col, row, turn):
    """The (col, row) of each face cell, row by row, laid with `turn` clockwise quarters."""
    w, h = rules["card"]["width"], rules["card"]["height"]
    out = []
    for r in range(h):
        for c in range(w):
            x, y, cw, ch = c, r, w, h
            for _ in range(turn):
                x, y = ch - 1 - y, x
                cw, ch = ch, cw
            out.append((col + x, row + y))
    return out


class Model:
    def __init__(self, rules):
        self.rules = rules
        self.faces = faces(rules)
        self.stacks = {}  # (col, row) -> [(card, char)] bottom to top
        self.letters = "".join(c[0] for c in rules["colours"])

    def lay(self, card, col, row, turn):
        face = "".join(self.faces[card])
        for i, xy in enumerate(cells(self.rules, col, row, turn)):
            self.stacks.setdefault(xy, []).append((card, face[i]))

    def shows(self, xy):
        """(card, character) one sees at xy: a mouse letter or '.'; (-1, '') the bare table."""
        for card, ch in reversed(self.stacks.get(xy, [])):
            if ch != "o":
                return card, ch
        return -1, ""

    def seen_mice(self):
        """{(col, row): (card it is printed on, colour index)} of every mouse one sees."""
        out = {}
        for xy in self.stacks:
            card, ch = self.shows(xy)
            if ch and ch != ".":
                out[xy] = (card, self.letters.index(ch))
        return out

    def top(self, xy):
        stack = self.stacks.get(xy, [])
        return stack[-1][0] if stack else -1


def lcg(x):
    return (x * 1103515245 + 12345) & 0x3FFFFFFF


def play_checked(gk, rules, seed, players, choose=None):
    """Play one seeded game of module `gk`, checking the rulebook at every step against the
    Model; return the list of actions and outcomes. `choose(state, x)` picks a player's action
    (default: the LCG's pick among the legal ones)."""
    s = gk.State(rules, {"players": players})
    m = Model(rules)
    m.lay(0, rules["start"]["col"], rules["start"]["row"], rules["start"]["turn"])
    cats = len(rules["cats"])
    cols = rules["grid"]["cols"]
    x = seed
    steps = 0
    limit = players * rules["hand"] + 1 + 2 * len(m.faces)  # deal, lot, a play and a draw a card
    while not s.is_terminal():
        steps += 1
        assert steps <= limit, "the game did not end"
        x = lcg(x)
        if s.current_player() < 0:
            choices = [o for o, _ in s.chance_outcomes()]
        else:
            choices = s.legal_actions()
        a = choices[(x >> 10) % len(choices)] if choose is None or s.current_player() < 0 \
            else choose(s, x)
        placing = s.current_player() >= 0 and a < gk.DISCARD
        cheese_before = sum(s.cheese)
        if placing:
            card, turn, cell = a >> 10, (a >> 8) & 3, a & 255
            xys = cells(rules, cell % cols, cell // cols, turn)
            before = m.seen_mice()
            for xy in xys:
                assert not 1 <= m.top(xy) <= cats, "a card laid on a cat card"
            assert [xy for xy in xys if m.top(xy) >= 0], "a card touching no card"
            face = "".join(m.faces[card])
            fed = [before[xys[i]] for i in range(len(xys)) if face[i] == "o" and xys[i] in before]
        s.apply_action(a)
        if placing:
            m.lay(card, cell % cols, cell // cols, turn)
            after = m.seen_mice()
            blocked = len([xy for xy in before if after.get(xy) != before[xy]])
            if card > cats:
                assert 1 <= blocked <= 2, "a mouse card blocked %d mice" % blocked
            gained = len([k for _, k in fed if k < players])
            assert sum(s.cheese) - cheese_before == min(gained, 32 - cheese_before)
        where = s.to_dict()["where"]
        assert len(where) == len(m.faces) == 29, "cards not conserved"
        assert where.count(3) == rules["cats_out"].get(str(players), 0)
        assert where.count(1) == len(s.laid)
        assert sum(s.cheese) <= 32
    seen = m.seen_mice()
    for p in range(players):
        mice = len([xy for xy in seen if seen[xy][1] == p])
        assert s.points()[p] == s.cheese[p] + mice, "the score is not the recount"
    assert [c for c in range(29) if where[c] in (0,) or where[c] >= 4] == [], "cards left over"
    return list(s.history)
