"""The lab's results: the summary of a sweep (report.json), one CSV row per game, and the few
lines the command prints."""

import csv
import json

from cheeseboard.lab import stats

# How the seats of a game are called, where they have names.
SEAT_NAMES = {"kitchen": ("mice", "cat")}
LENGTHS = ("turns", "rolls", "choices", "minutes")


def seat_name(game, seat):
    """A seat as the board names it: its team, or "seat 1" for the first (the board's seat
    lights and words count from 1)."""
    names = SEAT_NAMES.get(game, ())
    return names[seat] if seat < len(names) else "seat %d" % (seat + 1)


def summarise(records, meta):
    """A sweep's records summed up; meta: game, seed, options, kinds, rotate, rules hash..."""
    n = meta["players"]
    games = len(records)
    wins = [0] * n
    kind_wins, kind_games = {}, {}
    for r in records:
        for seat in r["winners"]:
            wins[seat] += 1
        for seat, kind in enumerate(r["kinds"]):
            kind_games[kind] = kind_games.get(kind, 0) + 1
            kind_wins[kind] = kind_wins.get(kind, 0) + (seat in r["winners"])
    fair = 1 / n
    seats = []
    for seat in range(n):
        entry = {"seat": seat, "name": seat_name(meta["game"], seat)}
        entry.update(stats.rate(wins[seat], games))
        entry["against_fair_share"] = stats.versus(fair, wins[seat], games)
        seats.append(entry)
    first = dict(seats[0])
    first["advantage"] = first["rate"] - fair if games else None
    report = dict(meta)
    report.update({
        "games": games,
        "wins": wins,
        "no_winner": sum(1 for r in records if not r["winners"]),
        "seats": seats,
        "kinds_won": {k: stats.rate(kind_wins[k], kind_games[k]) for k in sorted(kind_games)},
        "first_player": first,
        "lengths": {key: stats.distribution([r[key] for r in records]) for key in LENGTHS},
    })
    powers = _powers(records, n)
    if powers:
        report["powers"] = powers
    return report


def _powers(records, n):
    """Per power: plays per game, and how often a player who played it won that game."""
    out = {}
    names = sorted({name for r in records for name in r["powers"]})
    for name in names:
        plays = players = won = 0
        for r in records:
            per_seat = r["powers"].get(name, [0] * n)
            plays += sum(per_seat)
            for seat in range(n):
                if per_seat[seat]:
                    players += 1
                    won += seat in r["winners"]
        entry = {"plays": plays, "per_game": plays / len(records)}
        entry["player_won"] = stats.rate(won, players)
        out[name] = entry
    return out


def compare(a, b, records_a, records_b):
    """Rule set b against rule set a on the same seeds: seat by seat, and the lengths."""
    seats = []
    for sa, sb in zip(a["seats"], b["seats"], strict=True):
        entry = {"seat": sa["seat"], "name": sa["name"], "a": sa["rate"], "b": sb["rate"]}
        entry.update(stats.two_rates(sa["wins"], sa["games"], sb["wins"], sb["games"]))
        seats.append(entry)
    lengths = {}
    for key in LENGTHS:
        lengths[key] = stats.two_means([r[key] for r in records_a], [r[key] for r in records_b])
    return {"seats": seats, "lengths": lengths}


def write_csv(path, records):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "seed", "kinds", "winners", "turns", "rolls", "choices", "actions",
                    "minutes", "powers"])
        for r in records:
            powers = " ".join("%s:%d" % (k, sum(v)) for k, v in sorted(r["powers"].items()))
            w.writerow([r["game"], r["seed"], " ".join(r["kinds"]),
                        " ".join(str(s) for s in r["winners"]), r["turns"], r["rolls"],
                        r["choices"], r["actions"], r["minutes"], powers])


def write_json(path, report):
    with open(path, "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
        f.write("\n")


def lines(report):
    """What the command prints: the answers, a few lines."""
    out = ["%s: %d games, seed %d, options %s, kinds %s%s" % (
        report["game"], report["games"], report["seed"], _options(report["options"]),
        ",".join(report["kinds"]), " (rotated)" if report["rotate"] else "")]
    for s in report["seats"]:
        out.append("  %-8s wins %s" % (s["name"], _rate(s)))
    if len(report["kinds_won"]) > 1:
        for kind, r in report["kinds_won"].items():
            out.append("  %-8s wins %s of its seats' games" % (kind, _rate(r)))
    fp = report["first_player"]
    fair = fp["against_fair_share"]
    out.append("  first player: %+.1f points over a fair share of %.1f %% (p = %.3g%s)" % (
        100 * fp["advantage"], 100 * fair["expected"], fair["p_value"],
        ", significant" if fair["significant"] else ""))
    t, m = report["lengths"]["turns"], report["lengths"]["minutes"]
    out.append("  length: %.1f turns (median %s, 10-90 %% %s-%s), %.1f minutes at a table"
               % (t["mean"], t["median"], t["p10"], t["p90"], m["mean"]))
    out += _power_lines(report, "  ")
    c = report.get("compare")
    if c:
        # (the report keeps that table less this one; a person reads this one against that)
        out.append("  %s against %s (this table's figure, then that one's: this less that):"
                   % (report["rules"], c["label"]))
        out += _power_lines(report["against"], "    ")
        for s in c["seats"]:
            if s["difference"] is None:
                continue
            out.append("    %-8s wins %.1f %% against %.1f %%: %+.1f points (%.1f..%.1f), "
                       "p = %.3g%s" % (s["name"], 100 * s["a"], 100 * s["b"],
                                       -100 * s["difference"], -100 * s["high"], -100 * s["low"],
                                       s["p_value"], ", significant" if s["significant"] else ""))
        for key in ("turns", "minutes"):
            d = c["lengths"][key]
            if d["difference"] is None:
                continue
            out.append("    %-8s %+.2f (%.2f..%.2f), p = %.3g%s" % (
                key, -d["difference"], -d["high"], -d["low"], d["p_value"],
                ", significant" if d["significant"] else ""))
    return out


def _power_lines(report, indent):
    return [indent + "power %-9s %.2f a game; its player won %s"
            % (name, p["per_game"], _rate(p["player_won"]))
            for name, p in report.get("powers", {}).items()]


def _rate(r):
    if r["rate"] is None:
        return "- (no games)"
    return "%5.1f %% (95 %% CI %.1f-%.1f, %d of %d)" % (
        100 * r["rate"], 100 * r["low"], 100 * r["high"], r["wins"], r["games"])


def _options(options):
    """The options as --option takes them again (short_game=false, where Python says False)."""
    return " ".join("%s=%s" % (key, str(value).lower())
                    for key, value in sorted(options.items())) or "(defaults)"
