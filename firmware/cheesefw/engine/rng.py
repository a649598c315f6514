"""The electronic die's random source: the same numbers on the board, in the simulator
and on CPython, so a seeded game replays identically everywhere.

MicroPython's `random` gives other numbers than CPython's for the same seed, and
on a 32-bit board small ints hold 31 bits, so this is a generator of our own
whose state and arithmetic stay within 30 bits: three Lehmer generators with
prime moduli below 2^15 (Wichmann-Hill), combined into 15-bit draws.
"""

from cheesefw import const

_M = const((30269, 30307, 30323))
_A = const((171, 172, 170))


class Rng:
    def __init__(self, seed):
        seed = int(seed) & 0x3FFFFFFF
        # Each part must be non-zero modulo its prime.
        self.s = [(seed >> (10 * i) & 0x3FF) % (m - 1) + 1 for i, m in enumerate(_M)]

    def bits15(self):
        """The next 15 random bits."""
        s = self.s
        s[0] = _A[0] * s[0] % _M[0]
        s[1] = _A[1] * s[1] % _M[1]
        s[2] = _A[2] * s[2] % _M[2]
        # Scale each part to 15 bits and mix; every product stays below 2^30.
        return ((s[0] << 15) // _M[0] ^ (s[1] << 15) // _M[1] ^ (s[2] << 15) // _M[2]) & 0x7FFF

    def below(self, n):
        """An unbiased integer in [0, n), for 1 <= n <= 32768 (rejection sampling)."""
        if not 1 <= n <= 0x8000:
            raise ValueError("below: expected 1..32768, got %r" % (n,))
        limit = 0x8000 - 0x8000 % n  # draws at or past this would favour small results
        while True:
            r = self.bits15()
            if r < limit:
                return r % n

    def choose(self, outcomes):
        """Pick from [(outcome, probability)] as a chance node gives them, exactly.

        Outcomes all alike (a fair die, a shuffled pile) are one draw of their number. Others
        are turned into whole weights over the smallest common denominator (a deck's 38 tiles
        left, some of a kind), so that each outcome is drawn exactly as often as its
        probability says.
        """
        first = outcomes[0][1]
        if len(outcomes) <= 1024:  # (a card drawn: no list of weights, 1.5 ms of a Pico)
            for _, p in outcomes:
                if p != first:
                    break
            else:
                return outcomes[self.below(len(outcomes))][0]
        weights = _weights([p for _, p in outcomes])
        r = self.below(sum(weights))
        for i in range(len(outcomes)):
            if r < weights[i]:
                return outcomes[i][0]
            r -= weights[i]
        raise AssertionError("weights exhausted")


def seed_after(seed, n):
    """The seed of a board's n-th game (from 0) since its power-on, on a board given a seed
    (`cheeseboard sim --seed`, or the `seed` request): the seed, then a fixed walk from it, so
    that each game gets the same seed as the last time the same test ran."""
    return (seed + n * 40503) & 0x3FFFFFFF


def _weights(probabilities):
    """Whole weights proportional to probabilities, over the smallest denominator that fits
    (each tried in turn)."""
    for d in range(1, 1025):
        weights = [p * d for p in probabilities]
        if all(abs(w - int(w + 0.5)) < 1e-6 for w in weights):
            return [int(w + 0.5) for w in weights]
    return [int(p * 0x8000 + 0.5) for p in probabilities]  # no small denominator: 15 bits
