"""Seeded randomness.

aiplay never uses global randomness. Every random choice comes from a
:class:`random.Random` that the caller passes in or that is built here from a
seed, so the same seed always gives the same game and the same move.
:class:`random.Random` is used rather than NumPy's generator because the
reference engines draw one number at a time, where it is several times faster.
"""

from __future__ import annotations

import random
from typing import Union

from aiplay.errors import InvalidOptionError

SeedLike = Union[int, random.Random, None]

_BRANCH_SALT = 0x9E3779B97F4A7C15


def make_rng(seed: SeedLike = None) -> random.Random:
    """Return a generator for ``seed``.

    An ``int`` seeds a new generator; a :class:`random.Random` is returned as
    it is (shared, not copied); ``None`` gives a generator seeded from the
    operating system, which is the only non-reproducible choice. Anything else
    raises :class:`~aiplay.errors.InvalidOptionError`.
    """
    if isinstance(seed, random.Random):
        return seed
    if seed is None:
        return random.Random()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError(f"seed must be an int, a random.Random or None, not {type(seed).__name__}")
    return random.Random(seed)


def branch(rng: random.Random, stream: int = 0) -> random.Random:
    """Draw one number from ``rng`` and return an independent child generator.

    Searchers use branches so that, say, the number of rollout draws never
    shifts the sequence of determinizations: each stream has its own generator.
    """
    return random.Random(rng.getrandbits(64) ^ (stream * _BRANCH_SALT))


def seed64(rng: random.Random) -> int:
    """A 64-bit seed drawn from ``rng``, for the native kernels' own generators."""
    return rng.getrandbits(64)
