"""Pig's heuristic (hold at 20) as the heuristic bot plays it.

Moved from ``tests/test_heuristic_bot.py`` (the policy and the positions are this game's).
"""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.search import HeuristicBot, RandomBot


def play(game, bots, seed):
    state = aiplay.play_out(game.new_initial_state(), random.Random(seed),
                            choose=lambda s: bots[s.current_player()].choose(s))
    return state.returns()


@pytest.mark.parametrize("backend", ["reference", "native"])
def test_hold_at_20_beats_random_at_pig(backend):
    game = aiplay.load("pig", backend=backend, winscore=50)
    wins = 0
    for seed in range(60):
        seat = seed % 2
        bots = [RandomBot(seed=seed), RandomBot(seed=seed)]
        bots[seat] = HeuristicBot(seed=seed)
        wins += play(game, bots, seed)[seat] > 0
    assert wins >= 50


def test_hold_at_20_holds_at_20():
    game = aiplay.load("pig", backend="reference")
    state = game.state_from_dict({"scores": [0, 0], "turn_total": 20, "turn_player": 0,
                                  "rolling": False, "total_moves": 6})
    assert HeuristicBot().choose(state) == 1
    state = game.state_from_dict({"scores": [0, 0], "turn_total": 19, "turn_player": 0,
                                  "rolling": False, "total_moves": 6})
    assert HeuristicBot().choose(state) == 0
