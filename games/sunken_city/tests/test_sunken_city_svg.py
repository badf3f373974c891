"""Sunken City's SVG pictures over whole seeded random games: the move map."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.testing.pictures import check_every_picture, check_twins_look_alike, targets as _targets
from aiplay.testing.simulate import random_action
from aiplay.views import svg as S

#: (options, seeds): whole seeded random games.
CASES = [
    ({"players": 3}, (1,)),
    ({"players": 2}, (2,)),
]
IDS = ["-".join(f"{k}{v}" for k, v in opts.items()) for opts, _ in CASES]


def _mid_game(name, options, steps, seed=4):
    state = aiplay.load(name, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply_action(random_action(state, rng))
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    return state


@pytest.mark.parametrize("options,seeds", CASES, ids=IDS)
def test_every_state_and_viewer_parses_and_the_move_map_names_drawn_elements(options, seeds):
    check_every_picture("sunken_city", options, seeds)
