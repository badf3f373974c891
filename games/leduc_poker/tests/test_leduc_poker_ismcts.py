"""ISMCTS against random play at Leduc poker (its measured margin in chips).

Moved from ``tests/test_search_ismcts.py``.
"""

from __future__ import annotations

import random

import aiplay
from aiplay.search import ISMCTSBot, RandomBot


def play(game, bots, seed):
    """One game with seeded chance; returns the returns."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(aiplay.sample_chance_outcome(state, rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state.returns()


def test_beats_random_at_leduc_poker():
    game = aiplay.load("leduc_poker", backend="reference")
    games, total = 200, 0.0
    for i in range(games):
        seat = i % 2  # seats swapped: position effects cancel out
        bots = [None, None]
        bots[seat] = ISMCTSBot(iterations=200, seed=i)
        bots[1 - seat] = RandomBot(seed=50_000 + i)
        total += play(game, bots, seed=i)[seat]
    # Measured: about +1.5 chips a game (standard error about 0.3).
    assert total / games > 0.5, total / games
