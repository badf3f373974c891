"""Groom Lake's view tensors (issue 24): a tensor that is not one of its views is refused."""

from __future__ import annotations

import random

import numpy as np
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


def test_decode_refuses_what_is_not_a_view_tensor():
    from aiplay.errors import InvalidStateError
    from aiplay.views.viewtensors import decode

    game = aiplay.load("groom_lake", players=3)
    tensor = game.new_initial_state().observation_tensor(0)
    with pytest.raises(InvalidStateError, match="entries"):
        decode(game, tensor[:-1])
    broken = tensor.copy()
    _parts(game, "observation", broken)["step"][:] = 0  # the step's one-hot emptied (views into broken)
    with pytest.raises(InvalidStateError, match="step"):
        decode(game, broken)
