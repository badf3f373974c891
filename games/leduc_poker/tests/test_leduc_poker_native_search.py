"""Leduc poker on the native ISMCTS: the tree is reused after the opponent's move."""

from __future__ import annotations

import aiplay
from aiplay.search import ISMCTSBot


def test_ismcts_tree_is_reused_after_the_opponents_move():
    game = aiplay.load("leduc_poker")
    state = game.new_initial_state()
    for action in (0, 3):  # the deal
        state.apply_action(action)
    bot = ISMCTSBot(iterations=4000, seed=2)
    first = bot.analyse(state)
    assert not first.counters["reused_tree"]
    state.apply_action(1)  # player 0 checks
    state.apply_action(2)  # player 1 raises: player 0 to act again
    second = bot.analyse(state)
    assert second.counters["reused_tree"]
    assert second.counters["reused_visits"] > 0
    no_reuse = ISMCTSBot(iterations=4000, seed=2, reuse_tree=False)
    no_reuse.analyse(state)
    assert not no_reuse.analyse(state).counters["reused_tree"]
