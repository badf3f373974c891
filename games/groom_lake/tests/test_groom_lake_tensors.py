"""Groom Lake's view tensors (issue 24): a tensor that is not one of its views is refused."""

from __future__ import annotations

import pytest

import aiplay
from aiplay.testing.tensor_checks import tensor_parts

ENGINES = ["reference", "native"]


def test_decode_refuses_what_is_not_a_view_tensor():
    from aiplay.errors import InvalidStateError
    from aiplay.views.viewtensors import decode

    game = aiplay.load("groom_lake", players=3)
    tensor = game.new_initial_state().observation_tensor(0)
    with pytest.raises(InvalidStateError, match="entries"):
        decode(game, tensor[:-1])
    broken = tensor.copy()
    tensor_parts(game, "observation", broken)["step"][:] = 0  # the step's one-hot emptied (views into broken)
    with pytest.raises(InvalidStateError, match="step"):
        decode(game, broken)
