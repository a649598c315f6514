"""The board checks a rule table as strictly as the host: the same mutated tables, fed to the
host's `rules check` and to the board's own check (on the real MicroPython VM, the Pico's
heap), get the same verdict, both ways, for every game in GAMES; the board never crashes."""

import pytest
from table_mutations import board_verdicts, cases

from cheeseboard.rules.check import check_bytes

pytestmark = pytest.mark.board


@pytest.mark.parametrize("n,seed", [(300, 1), pytest.param(5000, 2, marks=pytest.mark.slow)])
def test_host_and_board_agree_on_every_mutated_table(tmp_path, n, seed):
    pairs = cases(n, seed)
    board = board_verdicts(pairs, tmp_path)
    crashes = [(g, d[:80], v) for (g, d), v in zip(pairs, board, strict=True)
               if v.startswith("CRASH")]
    assert not crashes, crashes[:5]
    disagree = []
    for (game, data), verdict in zip(pairs, board, strict=True):
        host = check_bytes(data, game)
        if (verdict == "ok") != (not host):
            disagree.append((game, data[:300], verdict, host[:2]))
    accepted = sum(v == "ok" for v in board)
    assert not disagree, "%d of %d disagree, e.g. %r" % (len(disagree), n, disagree[:3])
    assert 0 < accepted < n  # the mutations make both good and bad tables
