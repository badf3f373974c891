"""The heuristic bot plays each game's own policy (a game's own policy is tested in its folder)."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay import InvalidOptionError
from aiplay.search import make_bot
from aiplay.testing.choose import pick_variant
from aiplay.testing.simulate import skip_chance


def test_a_game_without_a_policy_is_a_clear_error():
    name, options = pick_variant(heuristic=False, short=True)
    state = skip_chance(aiplay.load(name, **options).new_initial_state(), random.Random(0))
    with pytest.raises(InvalidOptionError, match="no heuristic policy"):
        make_bot("heuristic").choose(state)
