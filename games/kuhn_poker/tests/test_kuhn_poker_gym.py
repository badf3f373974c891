"""The Gymnasium environment on kuhn_poker: an illegal action loses (or raises) and leaves the position."""

from __future__ import annotations

import pytest

from aiplay.adapters.gym import AiplayGymEnv
from aiplay.errors import IllegalActionError, InvalidOptionError


def test_an_illegal_action_loses_or_raises_and_leaves_the_position():
    e = AiplayGymEnv("kuhn_poker")
    e.reset(seed=0)
    before = e.state.to_json()
    illegal = e.game.num_distinct_actions  # both Kuhn actions are legal at the start: one past the space
    observation, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (e.game.min_utility, True, True)
    assert e.state.to_json() == before
    with pytest.raises(InvalidOptionError, match="reset"):
        e.step(0)
    strict = AiplayGymEnv("kuhn_poker", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(99)
    with pytest.raises(IllegalActionError):
        strict.step("call")
