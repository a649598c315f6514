"""How the benchmarks print their figures: a table of name, figure, and what it is against."""


def print_table(title, rows, figure_width=14):
    width = max(len(title), max(len(r[0]) for r in rows))
    print("%-*s  %*s  %s" % (width, title, figure_width, "figure", "against"))
    for name, fig, against in rows:
        print("%-*s  %*s  %s" % (width, name, figure_width, fig, against))
