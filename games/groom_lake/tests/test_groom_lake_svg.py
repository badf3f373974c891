"""Groom Lake's SVG pictures over whole seeded random games: the move map, twins."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.testing.pictures import check_every_picture, check_twins_look_alike, targets as _targets
from aiplay.testing.simulate import random_action
from aiplay.views import svg as S
from aiplay.views.hooks import reference_state

#: (options, seeds): whole seeded random games.
CASES = [
    ({"players": 3}, (1,)),
    ({"players": 5, "half_win": True}, (2,)),
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
    check_every_picture("groom_lake", options, seeds)


@pytest.mark.parametrize("options,seeds", CASES, ids=IDS)
def test_twins_the_viewer_cannot_tell_apart_give_the_same_picture(options, seeds):
    check_twins_look_alike("groom_lake", options, seeds)


def test_roles_and_feats_show_only_to_their_owner():
    """Groom Lake: a role is drawn for its seat only."""
    state = _mid_game("groom_lake", {"players": 3}, 40)
    ref = reference_state(state)
    alien = ref.roles.index(1)
    human = (alien + 1) % 3
    assert f"Player {alien} (you): Alien" in S.svg(state, alien)
    assert f"Player {alien}: Alien" not in S.svg(state, human) and f"Player {alien}: role ?" in S.svg(state, human)
    assert f"Player {alien}: Alien" in S.svg(state, None)
