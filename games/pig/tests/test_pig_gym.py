"""The Gymnasium environment on pig: opponents given every way, bad arguments, and a game over before the agent moves."""

from __future__ import annotations

import pytest

from aiplay.adapters.gym import AiplayGymEnv, env
from aiplay.errors import InvalidOptionError, InvalidPlayerError, UnknownGameError
from aiplay.search import make_bot


def test_opponents_are_specifications_bots_or_one_per_seat():
    e = env("pig", players=3, winscore=10, seat=2, opponents=["random", {"kind": "heuristic"}])
    e.reset(seed=1)
    assert [type(b).__name__ for b in e.unwrapped._bots.values()] == ["RandomBot", "HeuristicBot"]
    bot = make_bot("mcts", iterations=20, seed=3)
    e = env("pig", winscore=10, opponents=bot)
    e.reset(seed=1)
    assert e.unwrapped._bots[1] is bot
    with pytest.raises(InvalidOptionError, match="2 given for the 1 other seat"):
        AiplayGymEnv("pig", opponents=["random", "random"])
    with pytest.raises(InvalidOptionError, match="unknown bot"):
        AiplayGymEnv("pig", opponents="no_such_bot")
    with pytest.raises(InvalidOptionError, match="opponents"):
        AiplayGymEnv("pig", opponents=3)
    with pytest.raises(InvalidPlayerError):
        AiplayGymEnv("pig", seat=2)
    with pytest.raises(InvalidOptionError, match="illegal"):
        AiplayGymEnv("pig", illegal="ignore")
    with pytest.raises(UnknownGameError):
        env("no_such_game")


def test_a_game_over_before_the_agent_moves_ends_at_the_next_step():
    e = AiplayGymEnv("pig", seat=1, winscore=1)  # seat 0 wins with any first roll but a 1
    for seed in range(20):
        observation, info = e.reset(seed=seed)
        if e.state.is_terminal():
            break
    else:
        pytest.fail("no seed let seat 0 win before seat 1 moved")
    assert not observation["action_mask"].any()
    observation, reward, terminated, truncated, info = e.step(0)
    assert terminated and reward == e.state.returns()[1] == -1.0
