"""sunken_city's bot presets (policy rollouts, expectimax leaf playouts) feed make_bot."""

from __future__ import annotations

import aiplay
from aiplay.search import make_bot
from aiplay.search.rollout import Rollout


def test_game_presets_feed_make_bot_and_explicit_options_win():
    game = aiplay.load("sunken_city", players=2)
    bot = make_bot("mcts", game=game, iterations=50)
    assert bot.rollout == Rollout("policy", cutoff=20)
    # An explicit option replaces only its own preset: the cutoff stays unless it is named too.
    assert make_bot("mcts", game=game, rollout="random").rollout == Rollout("random", cutoff=20)
    assert make_bot("mcts").rollout == Rollout("random")
    assert make_bot("expectimax", game=game).leaf_playout == 60
    assert make_bot("random", game=game).__class__.__name__ == "RandomBot"
