"""The example game's tensors (issue 24): every field of the seat's view decodes from its tensor."""

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


@pytest.mark.parametrize("backend", ENGINES)
def test_every_field_of_the_template_s_view_decodes_from_its_tensor(backend):
    # The example game's tensors (games/_template/tensors.py): one slice per fact of the view.
    game = aiplay.load("template", backend=backend, players=3)
    assert game.observation_tensor_shape() == game.information_state_tensor_shape()
    for state, _ in _states(game, 30, seed=4):
        for p in range(game.num_players):
            view = state.view(p)
            tensor = state.information_state_tensor(p)
            assert np.array_equal(tensor, state.observation_tensor(p))
            parts = _parts(game, "information_state", tensor)
            assert _card(parts["player"]) == view["observer"] == p
            seats = view["seats"]  # docs/views/template.md: a card shows its value (id + 1)
            cards = [_card(parts[f"revealed{q}"]) for q in range(game.num_players)]
            cards[p] = _card(parts["own_card"])
            assert cards == [None if s["card"] is None else s["card"] - 1 for s in seats]
            assert _card(parts["dealt"]) == sum(c is not None for c in state.to_dict()["cards"])
            assert [parts[f"revealed{q}"].any() for q in range(game.num_players)] == [s["boosted"] for s in seats]
            assert [_card(parts[f"position{q}"]) for q in range(game.num_players)] == [s["position"] for s in seats]
            assert parts["moves"][0] == view["decisions_made"]
            assert bool(parts["rolling"][0]) == (view["phase"] == "rolling")
            # current_player follows from dealt, moves, rolling and positions (the rules' _current_player).
