"""Kuhn poker on the native ISMCTS: holding the king, it calls a bet."""

from __future__ import annotations

import pytest

import aiplay
from aiplay.search import ISMCTSBot


@pytest.mark.parametrize("variant", ["so", "mo"])
def test_native_ismcts_calls_with_the_king(variant):
    game = aiplay.load("kuhn_poker")
    for seed in range(3):
        state = game.new_initial_state()
        for action in (2, 0, 0, 1):  # K to player 0, J to player 1, pass, bet
            state.apply_action(action)
        assert ISMCTSBot(iterations=3000, seed=seed, variant=variant).choose(state) == 1
