"""Pig's observation tensor (issue 24): OpenSpiel's own."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import aiplay
from aiplay.errors import UnsupportedError
from aiplay.testing.simulate import random_action
from aiplay.views import tensors

ENGINES = ["reference", "native"]


def _states(game, games, seed):
    """Every state of ``games`` seeded random games (chance nodes and the end included), with their moves."""
    rng = random.Random(seed)
    for _ in range(games):
        state, moves = game.new_initial_state(), []
        while True:
            yield state.clone(), list(moves)
            if state.is_terminal():
                break
            action = random_action(state, rng)
            state.apply_action(action)
            moves.append(action)


def _parts(game, kind, tensor):
    parts, start = {}, 0
    for part in tensors.slices(game, kind):
        parts[part.name] = tensor[start:start + part.size]
        start += part.size
    return parts


def _card(one_hot):
    hot = np.flatnonzero(one_hot).tolist()
    assert len(hot) <= 1
    return hot[0] if hot else None


def _named(card, name_of):
    """A decoded card id by the name the view gives it (None stays None)."""
    return None if card is None else name_of(card)


def _actions(bits):
    pairs = bits.reshape(-1, 2)
    return [int(np.flatnonzero(pair)[0]) for pair in pairs if pair.any()]


PIG_OPTIONS = [{}, {"players": 3, "winscore": 15, "diceoutcomes": 4}, {"piglet": True, "winscore": 8}]


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("options", PIG_OPTIONS)
def test_pig_observation_tensor_equals_openspiel_s(options, backend):
    game = aiplay.load("pig", backend=backend, **options)
    spiel = pyspiel.load_game("pig", options)
    assert game.observation_tensor_shape() == (spiel.observation_tensor_size(),)  # OpenSpiel's rows, flattened
    for state, moves in _states(game, 20, seed=3):
        theirs = spiel.new_initial_state()
        for action in moves:
            theirs.apply_action(action)
        for p in range(game.num_players):
            assert state.observation_tensor(p).tolist() == theirs.observation_tensor(p), (moves, p)
    with pytest.raises(UnsupportedError, match="information state"):  # as in OpenSpiel: observation only
        game.new_initial_state().information_state_tensor(0)
