"""The balance lab: its figures on tiny tables whose answers are known by hand, the same report
whatever the number of jobs, the comparison of two tables, and the Dask path."""

import hashlib
import json
from pathlib import Path

import pytest

from cheeseboard import cli
from cheeseboard.lab import runner, stats, sweep

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = json.loads((ROOT / "firmware/rules/gouda.json").read_text())


def tiny_table(path, starts=1):
    """A two-player race of one mouse each, one all-green die, the table one step up.

    With one start space both mice share it: the first roll's one green goes to a mouse of the
    roller's choice, and that mouse wins. A random roller picks either: seat 0 wins half the
    games, exactly. A board player gives it to its own mouse: seat 0 always wins.
    With two start spaces a random player puts its mouse on either: apart (one chance in two),
    seat 0's first roll wins; together, half the time: seat 0 wins 3/4 of the games.
    """
    t = dict(SHIPPED)
    names = ["s", "t"][:starts]
    t["spaces"] = [[s, "start " + s, "top", "", i, 0] for i, s in enumerate(names)]
    t["spaces"].append(["top", "table", "", " ".join(names), 0, 2])
    t.update(start=names, top="top", lat=[], dice={"n": 1, "faces": ["green"]},
             players=[2, 2], mice_per_player=1,
             variants={"festival": {"cheese": 1}, "extra_cheese": {"top": 1}})
    path.write_text(json.dumps(t))
    return path


def lab(tmp_path, name, *args):
    out = tmp_path / name
    code = cli.main(["lab", *args, "--out", str(out)])
    assert code == 0
    return json.loads((out / "report.json").read_text()), out


def test_a_track_the_first_player_always_wins_comes_out_so(tmp_path):
    table = tiny_table(tmp_path / "tiny.json")
    report, out = lab(tmp_path, "first", "gouda", "--rules", str(table), "--games", "300",
                      "--players", "strong", "--jobs", "1")
    s0, s1 = report["seats"]
    assert (s0["wins"], s1["wins"]) == (300, 0) and report["games"] == 300
    assert s0["low"] > 0.98 and s0["high"] == 1.0  # Wilson: n = 300, no loss
    assert report["first_player"]["advantage"] == 0.5
    assert report["first_player"]["against_fair_share"]["significant"]
    assert report["lengths"]["rolls"]["min"] == report["lengths"]["rolls"]["max"] == 1
    assert report["rules_sha256"] == hashlib.sha256(table.read_bytes()).hexdigest()
    assert report["seed"] == 1 and report["options"]["players"] == 2
    rows = (out / "games.csv").read_text().splitlines()
    assert len(rows) == 301 and rows[0].startswith("game,seed,kinds,winners")
    for name in ("winrates", "lengths"):
        assert (out / (name + ".png")).read_bytes()[:4] == b"\x89PNG"
        assert b"<svg" in (out / (name + ".svg")).read_bytes()[:500]


def test_a_symmetric_game_gives_equal_seats_within_the_interval(tmp_path):
    table = tiny_table(tmp_path / "tiny.json")
    report, _ = lab(tmp_path, "fair", "gouda", "--rules", str(table), "--games", "400",
                    "--jobs", "1")
    for seat in report["seats"]:
        assert seat["low"] <= 0.5 <= seat["high"]  # the true rate is one half, exactly
        assert seat["wins"] + report["seats"][1 - seat["seat"]]["wins"] == 400


def test_two_tables_on_the_same_seeds_and_the_difference_is_significant(tmp_path, capsys):
    one = tiny_table(tmp_path / "one.json")
    two = tiny_table(tmp_path / "two.json", starts=2)
    report, out = lab(tmp_path, "cmp", "gouda", "--rules", str(one), "--against", str(two),
                      "--games", "400", "--jobs", "1")
    b = report["against"]["seats"][0]
    assert b["low"] <= 0.75 <= b["high"]  # the second table's answer by hand
    seat0 = report["compare"]["seats"][0]
    assert seat0["difference"] == pytest.approx(b["rate"] - report["seats"][0]["rate"])
    assert seat0["low"] < 0.25 < seat0["high"] and seat0["significant"]
    assert (out / "comparison.svg").exists() and (out / "games-against.csv").exists()
    # Printed as a person reads it: this table's figure against that one's, this less that
    a = report["seats"][0]
    printed = capsys.readouterr().out
    assert "(this table's figure, then that one's: this less that)" in printed
    assert "%s wins %.1f %% against %.1f %%: %+.1f points" % (
        a["name"].ljust(8), 100 * a["rate"], 100 * b["rate"],
        100 * (a["rate"] - b["rate"])) in printed, printed
    # One colour per table in every figure
    for name in ("winrates", "lengths", "comparison"):
        svg = (out / (name + ".svg")).read_text()
        assert "#e08a1e" in svg, name
        assert ("#8e44ad" in svg) == (name != "winrates"), name
        assert "#6a9f3a" not in svg


def test_the_same_seed_gives_the_same_report_with_one_job_or_two(tmp_path):
    args = ["kitchen", "--games", "60", "--seed", "9", "--players", "strong,random"]
    one, out1 = lab(tmp_path, "j1", *args, "--jobs", "1")
    two, out2 = lab(tmp_path, "j2", *args, "--jobs", "2")
    assert one == two
    assert (out1 / "games.csv").read_bytes() == (out2 / "games.csv").read_bytes()
    assert one["kinds_won"]["strong"]["games"] == 60  # one seat of each game, turned each game
    assert one["seats"][0]["name"] == "mice" and one["rotate"]


def test_the_report_names_the_options_as_option_takes_them(tmp_path, capsys):
    report, _ = lab(tmp_path, "opts", "kitchen", "--games", "4", "--option", "short_game=true")
    said = capsys.readouterr().out.splitlines()[0]
    assert "options cat=player mice=player short_game=true," in said, said
    assert report["options"]["short_game"] is True  # the report's JSON keeps the value itself


def test_gouda_powers_are_counted_with_who_played_them(tmp_path):
    report, _ = lab(tmp_path, "pw", "gouda", "--option", "powers=true", "--option", "players=3",
                    "--players", "strong", "--games", "25", "--jobs", "1")
    powers = report["powers"]
    assert set(powers) <= {"cancel", "downgrade", "extra", "reroll", "transfer", "upgrade"}
    assert sum(p["plays"] for p in powers.values()) > 25
    assert report["options"] == {"players": 3, "placement": "together", "powers": True,
                                 "markers": 3, "festival": False, "extra_cheese": False}


def test_wilson_interval_and_two_rate_test_by_hand():
    r = stats.rate(50, 100)
    assert r["low"] == pytest.approx(0.4038, abs=1e-4) and r["high"] == pytest.approx(0.5962,
                                                                                     abs=1e-4)
    d = stats.two_rates(50, 100, 70, 100)
    assert d["difference"] == pytest.approx(0.2) and d["significant"]
    assert d["p_value"] == pytest.approx(0.00389, abs=1e-4)  # z = 2.887 on the pooled rate
    assert not stats.two_rates(50, 100, 52, 100)["significant"]


def test_batches_do_not_depend_on_the_jobs_and_seeds_on_the_game_only():
    assert sweep.batches(60) == [(0, 25), (25, 25), (50, 10)]
    assert runner.game_seed(3, 10) == runner.game_seed(3, 10) != runner.game_seed(3, 11)
    assert all(0 <= runner.game_seed(s, i) < 1 << 30 for s in range(5) for i in range(50))


def test_the_dask_path_gives_the_local_records(tmp_path):
    distributed = pytest.importorskip("dask.distributed",
                                      reason="Dask not installed (the lab-dask extra)")
    spec = {"game": "kitchen", "rules": json.loads((ROOT / "firmware/rules/kitchen.json")
                                                   .read_text()),
            "options": {}, "kinds": ["random"], "rotate": False, "seed": 4}
    local = sweep.run(spec, 30, jobs=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = sweep.run(spec, 30, dask=cluster.scheduler_address)
    assert remote == local and len(local) == 30


@pytest.mark.parametrize("game", ["kalle", "katz"])
def test_a_small_sweep_of_the_board_s_players(tmp_path, game):
    report, out = lab(tmp_path, game, game, "--games", "20", "--players", "strong,beginner",
                      "--jobs", "1")
    assert report["games"] == 20 and report["kinds"] == ["strong", "beginner"]
    assert report["options"] == {"players": 2}
    won = report["kinds_won"]
    # Measured (seed 1): 17 of 20 for the strong player in both games, 5 (kalle) and 3 (katz)
    # for the beginner.
    assert won["strong"]["wins"] > won["beginner"]["wins"]
    assert len((out / "games.csv").read_text().splitlines()) == 21


def test_a_seat_the_game_s_options_give_the_board_is_played_by_the_board():
    spec = {"game": "kitchen", "rules": json.loads((ROOT / "firmware/rules/kitchen.json")
                                                   .read_text()),
            "options": {"cat": "board"}, "kinds": ["random"], "rotate": False, "seed": 2}
    records = runner.play_batch(spec, 0, 4)
    assert [r["kinds"] for r in records] == [["random", "strong"]] * 4


def test_plots_name_seats_from_1_and_count_games_in_whole_numbers(tmp_path, monkeypatch):
    """As the board's seat lights and words do; a histogram of 4 games has no 2.5 games."""
    from cheeseboard.lab import plots

    figures = {}

    def keep(plt, fig, out, name):
        figures[name] = fig
        return []

    monkeypatch.setattr(plots, "_save", keep)
    report, _ = lab(tmp_path, "small", "gouda", "--option", "players=2", "--games", "4",
                    "--jobs", "1")
    assert [s["name"] for s in report["seats"]] == ["seat 1", "seat 2"]
    wins = figures["winrates"].axes[0]
    assert [t.get_text() for t in wins.get_xticklabels()] == ["seat 1", "seat 2"]
    for ax in figures["lengths"].axes:
        ticks = ax.get_yticks()
        assert len(ticks) > 1 and all(t == int(t) for t in ticks), ticks
