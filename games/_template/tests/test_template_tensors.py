"""The example game's tensors (issue 24): every field of the seat's view decodes from its tensor."""

from __future__ import annotations

import numpy as np
import pytest

import aiplay
from aiplay.testing.tensor_checks import one_hot_index, random_game_states, tensor_parts

ENGINES = ["reference", "native"]


@pytest.mark.parametrize("backend", ENGINES)
def test_every_field_of_the_template_s_view_decodes_from_its_tensor(backend):
    # The example game's tensors (games/_template/tensors.py): one slice per fact of the view.
    game = aiplay.load("template", backend=backend, players=3)
    assert game.observation_tensor_shape() == game.information_state_tensor_shape()
    for state, _ in random_game_states(game, 30, seed=4):
        for p in range(game.num_players):
            view = state.view(p)
            tensor = state.information_state_tensor(p)
            assert np.array_equal(tensor, state.observation_tensor(p))
            parts = tensor_parts(game, "information_state", tensor)
            assert one_hot_index(parts["player"]) == view["observer"] == p
            seats = view["seats"]  # docs/views/template.md: a card shows its value (id + 1)
            cards = [one_hot_index(parts[f"revealed{q}"]) for q in range(game.num_players)]
            cards[p] = one_hot_index(parts["own_card"])
            assert cards == [None if s["card"] is None else s["card"] - 1 for s in seats]
            assert one_hot_index(parts["dealt"]) == sum(c is not None for c in state.to_dict()["cards"])
            assert [parts[f"revealed{q}"].any() for q in range(game.num_players)] == [s["boosted"] for s in seats]
            assert [one_hot_index(parts[f"position{q}"]) for q in range(game.num_players)] == [s["position"] for s in seats]
            assert parts["moves"][0] == view["decisions_made"]
            assert bool(parts["rolling"][0]) == (view["phase"] == "rolling")
            # current_player follows from dealt, moves, rolling and positions (the rules' _current_player).
