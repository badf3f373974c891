"""Kuhn poker's kernel against its reference engine: determinize and split pots."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import aiplay


def test_native_kuhn_determinize_draws_the_opponents_card_uniformly():
    game = aiplay.load("kuhn_poker", backend="native")
    state = game.new_initial_state()
    state.apply_action(1)  # observer 0 holds card 1 ...
    state.apply_action(2)  # ... and seat 1 holds card 2, which seat 0 cannot see
    rng = random.Random(11)
    counts = Counter(state.determinize(0, rng).to_dict()["cards"][1] for _ in range(4000))
    assert set(counts) == {0, 2}
    assert abs(counts[0] - 2000) < 200


@pytest.mark.parametrize("name,options", [("kuhn_poker", {"players": 3})])
def test_native_returns_are_bit_identical(name, options):
    # The harness compares returns with a tolerance; the kernels promise equality,
    # split pots (halves, thirds) included.
    reference = aiplay.load(name, backend="reference", **options)
    native = aiplay.load(name, backend="native", **options)
    splits = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = aiplay.play_out(reference.new_initial_state(), rng)
        assert native.from_reference(state).returns() == state.returns()
        splits += sum(r > 0 for r in state.returns()) > 1
