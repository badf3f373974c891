"""Groom Lake and the searches' opponent model: a vote's ballots below the root, and its presets.

Moved from ``tests/test_search_opponents.py`` (the vote position and the presets are this game's).
"""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.search import make_bot
from aiplay.search.ismcts import ISMCTSBot


def _decision(game, seed: int = 3, moves: int = 2, word: str = ""):
    """A seeded position at least ``moves`` random moves in where a player is to move (and, with
    ``word``, may make a move whose name contains it)."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    played = 0
    while True:
        assert not state.is_terminal(), "the seeded game ended before the position wanted"
        player = state.current_player()
        if player < 0:
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if played >= moves and any(word in state.action_to_string(a) for a in state.legal_actions()):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        played += 1


@pytest.mark.parametrize("game_name,players,moves,word", [("groom_lake", 3, 30, "vote")])
def test_native_opponents_policy_is_seeded_and_changes_the_search(game_name, players, moves, word):
    game = aiplay.load(game_name, players=players)
    # Groom Lake: a turn that may call a vote, whose ballots are the others' decisions right below
    # the root (its other moves mostly meet a chance node first, where the two models agree).
    state = _decision(game, seed=0, moves=moves, word=word)
    analyses = [ISMCTSBot(iterations=400, seed=9, rollout="policy", rollout_cutoff=20,
                          opponents=opponents).analyse(state)
                for opponents in ("policy", "policy", "search")]
    visits = [[(s.action, s.visits) for s in a.stats] for a in analyses]
    assert visits[0] == visits[1]  # same seed, same search
    assert sum(v for _, v in visits[0]) > 0
    # A different model of the others spends the root's visits differently (a decision with
    # one sensible move aside: these positions have several).
    assert visits[0] != visits[2] or len(state.legal_actions()) == 1


def test_opponents_policy_in_the_game_presets_reaches_the_level_bot():
    game = aiplay.load("groom_lake", players=3)
    presets = game.bot_presets["ismcts"]
    assert presets.get("opponents") == "policy"
    bot = make_bot("level", game=game, level=7, seed=1)
    state = _decision(game, moves=0)
    bot.choose(state)
    assert bot._search.config.opponents == "policy"
