"""``aiplay.testing.kernel_rng.KernelRandom`` reproduces the kernels' ``Rng`` stream draw for draw."""

from __future__ import annotations

import random

import pytest

from aiplay._ext.kernel import rng_stream
from aiplay.errors import InvalidOptionError
from aiplay.testing.kernel_rng import KernelRandom, splitmix64

SEEDS = [0, 1, 12345, 2**63, 2**64 - 1]


def test_splitmix64_known_values():
    # splitmix64's published reference outputs for the seed 1234567.
    state = 1234567
    words = []
    for _ in range(3):
        state, word = splitmix64(state)
        words.append(word)
    assert words == [6457827717110365317, 3203168211198807973, 9817491932198370423]


@pytest.mark.parametrize("seed", SEEDS)
def test_words_floats_and_bounded_ints_match_the_kernel(seed):
    rng = KernelRandom(seed)
    assert [rng.next_word() for _ in range(200)] == rng_stream(seed, 200)
    rng = KernelRandom(seed)
    assert [rng.random() for _ in range(200)] == rng_stream(seed, 200, -1)
    for bound in (1, 2, 3, 6, 7, 100, 588, 2**31 - 1):
        rng = KernelRandom(seed)
        assert [rng.randrange(bound) for _ in range(200)] == rng_stream(seed, 200, bound), bound


def test_choice_and_getrandbits_draw_one_word_each():
    items = list("abcdefg")
    rng = KernelRandom(99)
    picks = [rng.choice(items) for _ in range(100)]
    assert picks == [items[i] for i in rng_stream(99, 100, len(items))]
    # A one-element choice still draws, as rng_below(rng, 1) does.
    rng = KernelRandom(5)
    rng.choice(["only"])
    assert rng.random() == rng_stream(5, 2, -1)[1]
    rng = KernelRandom(7)
    words = rng_stream(7, 3)
    assert [rng.getrandbits(64), rng.getrandbits(1), rng.getrandbits(40)] == [
        words[0], words[1] >> 63, words[2] >> 24]
    rng = KernelRandom(7)
    assert rng.getrandbits(100) == ((words[0] << 64) | words[1]) >> 28
    assert rng.getrandbits(0) == 0


def test_seed_state_and_errors():
    rng = KernelRandom(2**64 + 5)  # a uint64_t argument wraps
    assert rng.random() == KernelRandom(5).random()
    state = rng.getstate()
    first = [rng.random() for _ in range(5)]
    rng.setstate(state)
    assert [rng.random() for _ in range(5)] == first
    rng.seed(5)
    assert rng.getstate() == KernelRandom(5).getstate()
    assert isinstance(rng, random.Random)
    # Everything random.Random builds on the three draws stays in range and reproducible.
    a, b = KernelRandom(3), KernelRandom(3)
    deck_a, deck_b = list(range(20)), list(range(20))
    a.shuffle(deck_a)
    b.shuffle(deck_b)
    assert deck_a == deck_b and sorted(deck_a) == list(range(20)) and deck_a != list(range(20))
    assert 0 <= a.randrange(2**70) < 2**70  # beyond the kernel's int bound: whole-word multiply-shift
    with pytest.raises(TypeError):
        KernelRandom("seed")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        a.getrandbits(-1)
    with pytest.raises(InvalidOptionError, match="below"):
        rng_stream(1, 1, -2)
