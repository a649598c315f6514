"""Gatenkaas, one test per rule sentence of the rulebook (docs/rules.md maps them).

Positions are real games: the deal's chance outcomes are chosen (so the hands are the test's),
then placements are legal actions. Card ids: 0 the start card, 1..4 the cat cards, 5..28 the
mouse cards in the table's order. The start card lies on g6..i7 (16x12 grid, a1 top left):

    g6 green  h6 .  i6 purple
    g7 yellow h7 .  i7 red
"""

import copy
import json
from pathlib import Path

import pytest
from gatenkaas_model import Model, cells, lcg

from cheesefw.games import CHANCE, TERMINAL, gatenkaas
from cheesefw.games.gatenkaas import DISCARD, OUT, PILE, REMOVED, TABLE, placement

ROOT = Path(__file__).resolve().parents[2]
RULES = json.loads((ROOT / "firmware/rules/gatenkaas.json").read_text())
COLS = RULES["grid"]["cols"]
CATS = (1, 2, 3, 4)


def dealt(hands, first=0, rules=RULES):
    """A game just after the deal: seat s holds hands[s]; `first` starts (by lot)."""
    n = len(hands)
    s = gatenkaas.State(rules, {"players": n})
    for k in range(5):
        for seat in range(n):
            s.apply_action(hands[seat][k])
    assert s.phase == "lot"
    s.apply_action(first)
    return s


def model_of(s, rules=RULES):
    m = Model(rules)
    for a in s.laid:
        card, turn, cell = gatenkaas.unpack(a)
        m.lay(card, cell % COLS, cell // COLS, turn)
    return m


def every_spot(card, rules=RULES):
    """Every (turn, col, row) where `card` fits the grid, with the cells it covers."""
    w, h = rules["card"]["width"], rules["card"]["height"]
    for turn in range(4):
        cw, ch = (w, h) if turn % 2 == 0 else (h, w)
        for row in range(rules["grid"]["rows"] - ch + 1):
            for col in range(rules["grid"]["cols"] - cw + 1):
                yield turn, col, row, cells(rules, col, row, turn)


def blocks(m, card, xys):
    """How many seen mice `card` laid on xys blocks, per the model."""
    face = "".join(m.faces[card])
    seen = m.seen_mice()
    return len([i for i in range(len(xys)) if face[i] != "o" and xys[i] in seen])


def midgame(seed=3, players=3, plays=8):
    """A random game after some plays, at a player's turn."""
    s = gatenkaas.State(RULES, {"players": players})
    x = seed
    while len(s.laid) < plays + 1 or s.current_player() < 0:
        x = lcg(x)
        choices = [o for o, _ in s.chance_outcomes()] or s.legal_actions()
        s.apply_action(choices[(x >> 10) % len(choices)])
    return s


def refused(s, a):
    before = s.to_dict()
    with pytest.raises(ValueError, match="expected"):
        s.apply_action(a)
    assert s.to_dict() == before


# -- Setup ---------------------------------------------------------------------------------

def test_the_start_card_without_holes_lies_face_up_in_the_middle():
    s = gatenkaas.State(RULES, {"players": 2})
    assert s.laid == [placement(0, 6, 5, 0, COLS)] and s.where[0] == TABLE
    assert "o" not in "".join(RULES["start"]["face"])
    marks = dict(s.view()["marks"])
    assert [marks[c] for c in ("g6", "i6", "g7", "i7")] == ["0", "1", "2", "3"]
    assert marks["h6"] == marks["h7"] == "card0"


@pytest.mark.parametrize("players, removed", [(2, []), (3, [4]), (4, [])])
def test_with_3_players_one_cat_card_is_removed(players, removed):
    s = gatenkaas.State(RULES, {"players": players})
    assert [c for c in range(29) if s.where[c] == REMOVED] == removed
    outcomes = s.chance_outcomes()
    assert [c for c, _ in outcomes] == [c for c in range(1, 29) if c not in removed]


def test_the_rest_is_shuffled_into_a_pile_each_card_equally_likely():
    s = gatenkaas.State(RULES, {"players": 4})
    probabilities = {p for _, p in s.chance_outcomes()}
    assert probabilities == {1 / 28} and s.chance_is_roll() is False
    assert s.current_player() == CHANCE


def test_each_player_draws_5_cards_then_a_starting_player_by_lot():
    hands = [[5, 6, 7, 8, 9], [10, 11, 12, 13, 14], [15, 16, 17, 18, 19]]
    s = gatenkaas.State(RULES, {"players": 3})
    for k in range(5):
        for seat in range(3):
            s.apply_action(hands[seat][k])
    assert [s.hand(p) for p in range(3)] == hands
    assert s.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    s.apply_action(2)
    assert s.current_player() == 2


def test_a_card_is_dealt_or_drawn_only_from_the_pile():
    s = gatenkaas.State(RULES, {"players": 3})  # (3 players: the last cat card is out)
    s.apply_action(5)
    assert s.where[4] == REMOVED
    for a in (0, 4, 5, 29, -1, 5.0, True, "6", None):  # table, out, a hand, no card, no id
        refused(s, a)
    drawing = midgame(plays=2)
    drawing.apply_action(drawing.legal_actions()[0])
    assert drawing.phase == "draw"
    pile = drawing.pile()
    table = drawing.laid[-1] >> 10
    held = drawing.hand(0)[0]
    for a in (0, table, held, 29, 6.0):
        refused(drawing, a)
    for card in pile:  # each card of the pile, and nothing else, may come
        copy.deepcopy(drawing).apply_action(card)

# -- A turn: play one card, then draw one --------------------------------------------------

def test_play_one_card_then_draw_one_and_play_proceeds_clockwise():
    s = dealt([[5, 6, 7, 8, 9], [10, 11, 12, 13, 14], [15, 16, 17, 18, 19]], first=2)
    pile = len(s.pile())
    a = s.legal_actions()[0]
    s.apply_action(a)
    assert s.where[a >> 10] == TABLE and len(s.hand(2)) == 4
    assert s.current_player() == CHANCE and s.phase == "draw"
    s.apply_action(s.chance_outcomes()[0][0])
    assert len(s.hand(2)) == 5 and len(s.pile()) == pile - 1
    assert s.current_player() == 0  # clockwise: after the last seat, the first


def test_drawing_lapses_once_the_pile_is_empty_and_the_game_ends_with_the_hands():
    s = midgame(plays=1)
    while s.pile():
        choices = [o for o, _ in s.chance_outcomes()] or s.legal_actions()
        s.apply_action(choices[0])
    while not s.is_terminal():
        assert s.phase == "play"  # no draw any more
        held = sum(len(s.hand(p)) for p in range(3))
        s.apply_action(s.legal_actions()[0])
        assert sum(len(s.hand(p)) for p in range(3)) == held - 1
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    assert not [c for c in range(29) if s.where[c] == PILE and c]


# -- Playing a mouse card --------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_mouse_card_must_overlap_the_table_and_block_1_or_2_mice(seed):
    s = midgame(seed)
    m = model_of(s)
    legal = set(s.legal_actions())
    for card in [c for c in s.hand(s.player) if c not in CATS]:
        for turn, col, row, xys in every_spot(card):
            a = placement(card, col, row, turn, COLS)
            on = [xy for xy in xys if m.top(xy) >= 0]
            on_cat = [xy for xy in xys if m.top(xy) in CATS]
            want = bool(on) and not on_cat and 1 <= blocks(m, card, xys) <= 2
            if turn not in s.deck.turns[card]:  # the same picture as a lower turn
                assert a not in legal
            else:
                assert (a in legal) == want, (card, turn, col, row)


def test_placements_that_block_0_or_3_mice_or_touch_no_card_are_refused():
    s = midgame(2)
    m = model_of(s)
    kinds = {}
    for card in [c for c in s.hand(s.player) if c not in CATS]:
        for turn, col, row, xys in every_spot(card):
            if not [xy for xy in xys if m.top(xy) >= 0]:
                kinds.setdefault("no card", placement(card, col, row, turn, COLS))
            elif not [xy for xy in xys if m.top(xy) in CATS]:
                kinds.setdefault(blocks(m, card, xys), placement(card, col, row, turn, COLS))
    assert {"no card", 0, 3} <= set(kinds)
    for kind in ("no card", 0, 3):
        refused(s, kinds[kind])


def test_bad_actions_are_refused_with_the_state_unchanged():
    s = midgame(1)
    hand = s.hand(s.player)
    away = [c for c in range(5, 29) if c not in hand][0]
    legal = s.legal_actions()
    for a in (placement(away, 0, 0, 0, COLS), -1,
              DISCARD + hand[0], "g6", None, 1.0, (5, 0, 0, 0), [legal[0]], True):
        refused(s, a)
    refused(s, placement(hand[0], 14, 11, 0, COLS))  # it would leave the table (col 14..16)


def test_mice_seen_through_the_holes_feed_their_owners():
    s = dealt([[6, 9, 12, 13, 14], [15, 16, 17, 18, 19]])
    # Card 6 is "o.y / ..o": laid on g6 its holes lie on green (g6) and red (i7); it blocks
    # purple (i6) with its own yellow mouse.
    a = placement(6, 6, 5, 0, COLS)
    assert a in s.legal_actions()
    hint = s.hint(a)
    assert hint["text"].endswith("feeds 2")  # green at g6 (hole) and red at i7 (hole)
    s.apply_action(a)
    assert s.cheese == [1, 0]  # red is nobody's with 2 players; green is seat 0's
    marks = dict(s.view()["marks"])
    assert marks["g6"] == "0" and marks["i6"] == "2"  # green still seen; card 6's yellow on i6


def test_no_cheese_is_handed_out_once_the_32_pieces_are_gone():
    s = dealt([[6, 9, 12, 13, 14], [15, 16, 17, 18, 19]])
    s.cheese = [20, 12]
    s.apply_action(placement(6, 6, 5, 0, COLS))
    assert s.cheese == [20, 12]


# -- Playing a cat card ------------------------------------------------------------------------

def _find(predicate, seeds=range(40)):
    for seed in seeds:
        s = gatenkaas.State(RULES, {"players": 4})
        x = seed
        while not s.is_terminal():
            x = lcg(x)
            if s.current_player() >= 0:
                for a in s.legal_actions():
                    if predicate(s, a):
                        return s, a
            choices = [o for o, _ in s.chance_outcomes()] or s.legal_actions()
            s.apply_action(choices[(x >> 10) % len(choices)])
    raise AssertionError("no such position in the seeds")


def _blocked(s, a):
    card, turn, cell = gatenkaas.unpack(a)
    return blocks(model_of(s), card, cells(RULES, cell % COLS, cell // COLS, turn))


def test_a_cat_card_may_block_any_number_of_mice():
    _find(lambda s, a: a >> 10 in CATS and _blocked(s, a) >= 3)
    _find(lambda s, a: a >> 10 in CATS and _blocked(s, a) == 0)


def test_mice_seen_through_a_cat_cards_holes_escape_and_score():
    s, a = _find(lambda s, a: a >> 10 in CATS and [
        k for k in s.layout.seen_through(a >> 10, a & 255, (a >> 8) & 3) if k < 4])
    fed = s.layout.seen_through(a >> 10, a & 255, (a >> 8) & 3)
    before = list(s.cheese)
    s.apply_action(a)
    for k in range(4):
        assert s.cheese[k] - before[k] == fed.count(k)


def test_no_card_may_be_laid_on_a_cat_card():
    s, a = _find(lambda s, a: a >> 10 in CATS)
    s.apply_action(a)
    cat = set(cells(RULES, (a & 255) % COLS, (a & 255) // COLS, (a >> 8) & 3))
    while not s.is_terminal():
        if s.current_player() >= 0:
            for b in s.legal_actions():
                if b < DISCARD:
                    _, turn, cell = gatenkaas.unpack(b)
                    assert not cat & set(cells(RULES, cell % COLS, cell // COLS, turn))
        choices = [o for o, _ in s.chance_outcomes()] or s.legal_actions()
        s.apply_action(choices[-1])


def _tight_rules():
    rules = copy.deepcopy(RULES)
    rules["grid"] = {"cols": 6, "rows": 4}
    rules["start"].update(col=1, row=1)
    return rules


def test_a_cat_card_may_not_leave_the_following_players_unable_to_play():
    rules = _tight_rules()
    for seed in range(300):
        s = gatenkaas.State(rules, {"players": 2})
        x = seed
        while not s.is_terminal():
            if s.current_player() >= 0:
                for card in [c for c in s.hand(s.player) if c in CATS]:
                    for turn in s.deck.turns[card]:
                        for spot in [x for x in s.layout.over(turn) if x >= 0]:
                            a = (card * 4 + turn) * 256 + (spot >> 8)
                            if a not in s.legal_actions():  # refused: check it blocks the game
                                m = model_of(s, rules)
                                unplayed = [c for c in range(5, 29) if s.where[c] in (PILE,)
                                            or s.where[c] >= gatenkaas.HAND]
                                assert _can_go_on(m, unplayed, rules)
                                m.lay(card, (a & 255) % 6, (a & 255) // 6, turn)
                                assert not _can_go_on(m, unplayed, rules)
                                return
            x = lcg(x)
            choices = [o for o, _ in s.chance_outcomes()] or s.legal_actions()
            s.apply_action(choices[(x >> 10) % len(choices)])
    raise AssertionError("no cat card was ever refused")


def _can_go_on(m, cards, rules):
    for card in cards:
        for _, _, _, xys in every_spot(card, rules):
            on = [xy for xy in xys if m.top(xy) >= 0]
            if on and not [xy for xy in xys if m.top(xy) in CATS] and \
                    1 <= blocks(m, card, xys) <= 2:
                return True
    return False


# -- No card that can be laid, orientations ---------------------------------------------------

def test_a_player_with_no_card_that_can_be_laid_discards_one():
    s = dealt([[5, 6, 7, 8, 9], [10, 11, 12, 13, 14]])
    lay = s.layout
    for c in range(len(lay.seen)):  # as if every mouse on the table were covered
        lay.seen[c] = 0
        lay.grade[c] = min(lay.grade[c], 1)
    s._legal_at = -1
    assert s.legal_actions() == [DISCARD + c for c in (5, 6, 7, 8, 9)]
    assert s.hint(DISCARD + 7)["text"] == "discard card 7"
    s.apply_action(DISCARD + 7)
    assert s.where[7] == OUT and s.phase == "draw"


def test_the_four_quarter_turns_and_a_symmetric_face_offered_once():
    deck = gatenkaas.check_table(RULES)
    assert deck.turns[5] == bytes([0, 1, 2, 3])
    rules = copy.deepcopy(RULES)
    rules["mice"][0] = ["o.o", "g.g"]
    rules["mice"][1] = ["og.", ".go"]  # the same picture turned half round
    deck = gatenkaas.check_table(rules)
    assert deck.turns[5] == bytes([0, 1, 2, 3]) and deck.turns[6] == bytes([0, 1])
    # Turned a quarter clockwise, the top row (face cells 0..2) runs down the right column.
    assert deck.cells(0, 0, 1) == [1, COLS + 1, 2 * COLS + 1, 0, COLS, 2 * COLS]
    assert deck.cells(0, 0, 2) == [COLS + 2, COLS + 1, COLS, 2, 1, 0]
    s = dealt([[5, 6, 7, 8, 9], [10, 11, 12, 13, 14]])
    assert {gatenkaas.unpack(a)[1] for a in s.legal_actions()} == {0, 1, 2, 3}


# -- The end ------------------------------------------------------------------------------------

def test_points_are_cheese_plus_visible_mice_and_a_tie_goes_to_the_most_cheese():
    s = midgame(4, players=2, plays=1)
    s.phase = "over"
    seen = s.layout.count_seen(4)
    s.cheese = [5, 3]
    assert s.points() == [5 + seen[0], 3 + seen[1]]
    s.cheese = [seen[1] + 4, seen[0] + 4]  # equal points
    assert s.points()[0] == s.points()[1]
    most = [p for p in (0, 1) if s.cheese[p] == max(s.cheese)]
    assert s.winners() == most
    s.cheese = [seen[1] + 5, seen[0] + 4]
    assert s.winners() == [0]


# -- Hidden hands ---------------------------------------------------------------------------------

def test_no_hand_and_no_card_of_the_pile_reaches_the_view_or_a_hint():
    s = gatenkaas.State(RULES, {"players": 3})
    first = s.view()["marks"]
    while s.current_player() == CHANCE:
        outcomes = [o for o, _ in s.chance_outcomes()]
        assert len({repr(s.hint(o)) for o in outcomes}) == 1  # every card looks alike
        s.apply_action(outcomes[len(outcomes) // 2])
        assert s.view()["marks"] == first
    assert s.private() and not gatenkaas.State(RULES, {"hands": "open"}).private()
