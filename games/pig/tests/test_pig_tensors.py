"""Pig's observation tensor (issue 24): OpenSpiel's own."""

from __future__ import annotations

import pyspiel
import pytest

import aiplay
from aiplay.errors import UnsupportedError
from aiplay.testing.tensor_checks import random_game_states

ENGINES = ["reference", "native"]

PIG_OPTIONS = [{}, {"players": 3, "winscore": 15, "diceoutcomes": 4}, {"piglet": True, "winscore": 8}]


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("options", PIG_OPTIONS)
def test_pig_observation_tensor_equals_openspiel_s(options, backend):
    game = aiplay.load("pig", backend=backend, **options)
    spiel = pyspiel.load_game("pig", options)
    assert game.observation_tensor_shape() == (spiel.observation_tensor_size(),)  # OpenSpiel's rows, flattened
    for state, moves in random_game_states(game, 20, seed=3):
        theirs = spiel.new_initial_state()
        for action in moves:
            theirs.apply_action(action)
        for p in range(game.num_players):
            assert state.observation_tensor(p).tolist() == theirs.observation_tensor(p), (moves, p)
    with pytest.raises(UnsupportedError, match="information state"):  # as in OpenSpiel: observation only
        game.new_initial_state().information_state_tensor(0)
