"""Area 1851's SVG pictures over whole seeded random games: the move map, twins."""

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
    ({"players": 2, "block": 1}, (1,)),
    ({"players": 3, "block": 1}, (2,)),
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
    check_every_picture("area1851", options, seeds)


@pytest.mark.parametrize("options,seeds", CASES, ids=IDS)
def test_twins_the_viewer_cannot_tell_apart_give_the_same_picture(options, seeds):
    check_twins_look_alike("area1851", options, seeds)


def test_feats_show_only_to_their_owner():
    """Area 1851: face-down feats by name for their owner only."""
    state = _mid_game("area1851", {"players": 3}, 60)
    ref = reference_state(state)
    owner = next(p for p in range(3) if any(ref.players[p].down))
    ids = {f"p{owner}-feat-f{f}" for f, c in enumerate(ref.players[owner].down) if c}
    assert ids <= _targets(S.svg(state, owner)) and ids <= _targets(S.svg(state, None))
    assert not ids & _targets(S.svg(state, (owner + 1) % 3))
