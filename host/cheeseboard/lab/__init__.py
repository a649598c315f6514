"""The balance lab: many games of a game module on CPython, played by the board's players or by
random ones, across local processes or a Dask cluster, summed up as a report with plots.

- runner.py: one game, and a batch of games, from a plain spec (what an executor sends)
- sweep.py: the games split into batches and mapped over an executor (processes, Dask)
- stats.py: rates with their intervals, comparisons, distributions
- report.py: report.json, games.csv and the text summary; plots.py: the figures
- command.py: `cheeseboard lab GAME`
"""
