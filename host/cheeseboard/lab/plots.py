"""The lab's figures (matplotlib, no display): win rates with their 95 % intervals, the
length of games as histograms, and the comparison of two rule sets; each as PNG and SVG."""

FORMATS = ("png", "svg")
# One colour per rule set in every figure: this table's, and the one it is compared against
THIS, THAT = "#e08a1e", "#8e44ad"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: no window, no display needed
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "cheeseboard"  # the same SVG for the same figures
    return plt


def _save(plt, fig, out, name):
    paths = []
    for fmt in FORMATS:
        path = out / ("%s.%s" % (name, fmt))
        fig.savefig(path, dpi=110, bbox_inches="tight",
                    metadata={"Date": None} if fmt == "svg" else None)
        paths.append(path)
    plt.close(fig)
    return paths


def _legend(ax):
    """The legend under the axes, where it hides no bar."""
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2,
              frameon=False)


def _bars(ax, labels, rates, colour, offset=0.0, width=0.8, label=None):
    xs = [i + offset for i in range(len(rates))]
    values = [100 * (r["rate"] or 0) for r in rates]
    # (at a rate of 0 or 1 rounding can put the bound a hair the wrong side of it)
    err = [[max(0.0, 100 * ((r["rate"] or 0) - (r["low"] or 0))) for r in rates],
           [max(0.0, 100 * ((r["high"] or 0) - (r["rate"] or 0))) for r in rates]]
    ax.bar(xs, values, width, yerr=err, capsize=4, color=colour, label=label)


def write_all(report, out, records, other=None, other_records=None):
    """Every figure of a report into folder out; the paths written."""
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator

    paths = []
    title = "%s, %d games" % (report["game"], report["games"])
    # Win rates: per seat (with the fair share), and per kind of player when kinds differ.
    kinds = report["kinds_won"]
    cols = 2 if len(kinds) > 1 else 1
    fig, axes = plt.subplots(1, cols, figsize=(5 * cols, 3.6), squeeze=False)
    ax = axes[0][0]
    seats = report["seats"]
    _bars(ax, [s["name"] for s in seats], seats, THIS, label=report["rules"])
    ax.axhline(100 / len(seats), color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(range(len(seats)), [s["name"] for s in seats])
    ax.set_ylabel("games won, % (95 % CI)")
    ax.set_title("wins per seat")
    _legend(ax)
    if cols == 2:
        ax = axes[0][1]
        names = list(kinds)
        _bars(ax, names, [kinds[k] for k in names], "#2f7fc1")
        ax.set_xticks(range(len(names)), names)
        ax.set_title("wins per kind of player")
    fig.suptitle(title)
    paths += _save(plt, fig, out, "winrates")
    # Lengths: turns and minutes at a table, as histograms.
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for ax, key, label in ((axes[0], "turns", "turns"), (axes[1], "minutes", "minutes at a table")):
        values = [r[key] for r in records] + [r[key] for r in other_records or ()]
        bins = _bins(values, key == "turns")
        ax.hist([r[key] for r in records], bins=bins, color=THIS, alpha=0.8,
                label=report["rules"])
        if other_records:
            ax.hist([r[key] for r in other_records], bins=bins, color=THAT, alpha=0.5,
                    label=report["compare"]["label"])
            _legend(ax)
        ax.set_xlabel(label)
        ax.set_ylabel("games")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # a count of games: no 2.5
    fig.suptitle(title + ": length of a game")
    paths += _save(plt, fig, out, "lengths")
    if other is not None:
        fig, ax = plt.subplots(figsize=(6, 3.6))
        _bars(ax, None, seats, THIS, -0.2, 0.4, report["rules"])
        _bars(ax, None, other["seats"], THAT, 0.2, 0.4, report["compare"]["label"])
        ax.set_xticks(range(len(seats)), [s["name"] for s in seats])
        ax.set_ylabel("games won, % (95 % CI)")
        _legend(ax)
        ax.set_title("%s: two rule sets on the same seeds" % report["game"])
        paths += _save(plt, fig, out, "comparison")
    return paths


def _bins(values, whole):
    """About 40 bins over the values; for whole numbers, edges between them, equally wide."""
    lo, hi = min(values), max(values)
    if not whole:
        return 40 if hi > lo else 1
    step = max(1, -(-(hi - lo + 1) // 40))
    return [lo - 0.5 + step * i for i in range((hi - lo) // step + 2)]
