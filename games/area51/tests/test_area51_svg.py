"""Area 51 (its turn cap keeps its games short)'s SVG pictures over whole seeded random games: the move map, twins."""

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
    ({"players": 3, "max_turns": 30}, (1,)),
    ({"players": 2, "max_turns": 24}, (2,)),
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
    check_every_picture("area51", options, seeds)


@pytest.mark.parametrize("options,seeds", CASES, ids=IDS)
def test_twins_the_viewer_cannot_tell_apart_give_the_same_picture(options, seeds):
    check_twins_look_alike("area51", options, seeds)


def test_hidden_cards_are_not_in_another_seats_picture():
    """Area 51: a seat's hand shows by name to itself and as backs to the others."""
    game = aiplay.load("area51", players=3)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(aiplay.game.sample_chance_outcome(state, rng))
    ref = reference_state(state)
    own = _targets(S.svg(state, 0))
    other = _targets(S.svg(state, 1))
    hand = [f"p0-hand-t{t}" for t, c in enumerate(ref.hands[0]) if c]
    assert hand and set(hand) <= own and not set(hand) & other
