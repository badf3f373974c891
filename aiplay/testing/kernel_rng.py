"""The native kernels' random stream, in Python.

Every kernel draws from one small generator, ``Rng`` in ``src_ext/kernel.pxd``
(splitmix64), through three helpers: ``rng_next`` (a 64-bit word),
``rng_uniform`` (a double in [0, 1)) and ``rng_below`` (an int in [0, n)).
:class:`KernelRandom` is a :class:`random.Random` that produces exactly the
same stream, so a game's Python ``heuristic_policy`` run with
``KernelRandom(seed)`` draws the same numbers as the kernel's C port run with
``kernel.policy_choice(state, seed)``: the two must then choose the same action
(``tests/test_policy_agreement.py`` checks it for every game).

The mapping from :class:`random.Random` methods to kernel draws:

* ``random()`` is ``rng_uniform``: one word, its top 53 bits scaled by 2**-53;
* ``_randbelow(n)`` is ``rng_below(n)``: one word, ``((word >> 32) * n) >> 32``
  (so ``randrange(n)``, ``randint``, ``choice``, ``shuffle`` and ``sample``,
  which Python builds on ``_randbelow``, draw like the kernel's
  ``rng_below``); ``choice(seq)`` draws once even when ``len(seq) == 1``, as
  ``rng_below(rng, 1)`` does;
* ``getrandbits(k)`` is the top ``k`` bits of one word for ``k <= 64`` (more
  words, high first, for larger ``k``).

The kernel's ``rng_below`` takes a C ``int``; for ``n >= 2**31``, which no
kernel draws, ``_randbelow`` uses the whole word, ``(word * n) >> 64`` (no
kernel counterpart, still one draw). Like ``rng_below`` it has a bias of at
most ``n / 2**32`` (resp. ``n / 2**64``), negligible for the small ranges of
playout policies: it is the kernel's behaviour, reproduced on purpose.
"""

from __future__ import annotations

import random
from typing import Any, Optional, Tuple

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB
_TWO_POW_53 = 1.0 / 9007199254740992.0
#: Above this bound ``rng_below`` (a C int) cannot be called: see the module docstring.
_MAX_KERNEL_BOUND = (1 << 31) - 1


def splitmix64(state: int) -> Tuple[int, int]:
    """One step of the kernel's ``rng_next``: ``(new state, output word)`` for a 64-bit ``state``."""
    state = (state + _GAMMA) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * _MUL1) & _MASK64
    z = ((z ^ (z >> 27)) * _MUL2) & _MASK64
    return state, z ^ (z >> 31)


class KernelRandom(random.Random):
    """A :class:`random.Random` whose draws are the kernel ``Rng``'s, number for number.

    ``KernelRandom(seed)`` starts where ``Rng rng; rng.s = seed`` does in C
    (``seed`` is taken modulo 2**64, as a ``uint64_t`` argument is). Only
    ``random``, ``_randbelow`` and ``getrandbits`` draw; every other method of
    :class:`random.Random` is built on them.
    """

    gauss_next: Optional[float]

    def __init__(self, seed: int = 0):
        self._s = 0
        super().__init__(seed)

    # -- state -------------------------------------------------------------------
    def seed(self, a: Any = 0, version: int = 2) -> None:  # type: ignore[override]
        """Restart the stream at kernel state ``a`` (an int, taken modulo 2**64; None means 0)."""
        if a is None:
            a = 0
        if isinstance(a, bool) or not isinstance(a, int):
            raise TypeError(f"KernelRandom seeds with an int, not {type(a).__name__}")
        self._s = a & _MASK64
        self.gauss_next = None

    def getstate(self) -> Tuple[Any, ...]:
        """The generator state: ``(the kernel's 64-bit word, the cached Gaussian or None)``."""
        return (self._s, self.gauss_next)

    def setstate(self, state: Tuple[Any, ...]) -> None:
        """Restore a state from :meth:`getstate`."""
        self._s, self.gauss_next = state

    # -- draws -------------------------------------------------------------------
    def next_word(self) -> int:
        """``rng_next``: the next 64-bit output word."""
        self._s, word = splitmix64(self._s)
        return word

    def random(self) -> float:
        """``rng_uniform``: a float in [0, 1) from the top 53 bits of one word."""
        return (self.next_word() >> 11) * _TWO_POW_53

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        """``rng_below(n)``: an int in [0, n) from one word by multiply-shift."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n <= _MAX_KERNEL_BOUND:
            return ((self.next_word() >> 32) * n) >> 32
        return (self.next_word() * n) >> 64

    def getrandbits(self, k: int) -> int:
        """``k`` random bits: the top ``k`` bits of one word (of several, high first, beyond 64)."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        words = -(-k // 64)
        value = 0
        for _ in range(words):
            value = (value << 64) | self.next_word()
        return value >> (64 * words - k)


__all__ = ["KernelRandom", "splitmix64"]
