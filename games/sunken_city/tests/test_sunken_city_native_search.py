"""Sunken City on the native expectimax: a two-player constant-sum game searched with pruning."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.search import ExpectimaxBot


def positions(name, count, seed, **options):
    """Pairs (reference state, native state) of the same decision positions from a random game."""
    ref_game = aiplay.load(name, backend="reference", **options)
    native_game = aiplay.load(name, backend="native", **options)
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        for state in aiplay.random_walk(ref_game.new_initial_state(), rng):
            if len(pairs) == count:
                break
            if not (state.is_chance_node() or state.is_terminal()):
                pairs.append((state.clone(), native_game.from_reference(state)))
    return pairs


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_expectimax_prunes_two_player_constant_sum_without_changing_values(depth):
    # Sunken City's returns (and heuristic values) add up to 1: the native path
    # searches it as paranoid with Star2 pruning, the reference path as max^n.
    pairs = [(r, n) for r, n in positions("sunken_city", 400, seed=11, players=2)
             if len(r.legal_actions()) <= 12][::25][:5]
    assert len(pairs) == 5
    assert aiplay.load("sunken_city", players=2).constant_sum
    for ref, native in pairs:
        expected = ExpectimaxBot(depth=depth, backend="reference").analyse(ref)
        pruned = ExpectimaxBot(depth=depth, pruning="star2").analyse(native)
        plain = ExpectimaxBot(depth=depth, pruning="none").analyse(native)
        assert pruned.value == pytest.approx(expected.value, abs=1e-12)
        assert plain.value == pytest.approx(expected.value, abs=1e-12)
        assert pruned.counters["nodes"] <= plain.counters["nodes"]
