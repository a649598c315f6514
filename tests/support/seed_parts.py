"""A long property check of `make test-slow` in parts that run side by side.

pytest-xdist gives each part to a worker of its own, so the longest checks no longer set the
set's end. Each part draws its games from its own share of the seeds: the parts together play
as many games as the check did in one piece, and never the same ones twice over.
"""

import pytest

PARTS = 4


def seed_of_part(seed, part, span):
    """The seed (in 0..span-1) that part `part` plays for the seed hypothesis drew."""
    return (seed + part * (span // PARTS)) % span


def slow_in_parts(test):
    """test(part, ...) as PARTS slow tests, one for each part."""
    return pytest.mark.slow(pytest.mark.parametrize("part", range(PARTS))(test))
