"""Kuhn poker's tensors (issue 24): OpenSpiel's own, every field of the seat's view decodable, the kernel's
the same as the encoding's."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import aiplay
from aiplay.errors import UnsupportedError
from aiplay.testing.simulate import random_action
from aiplay.views import tensors
from aiplay.games.kuhn_poker.rules import card_name

POKER_OPTIONS = [("kuhn_poker", {}), ("kuhn_poker", {"players": 3}), ("kuhn_poker", {"players": 5})]

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
@pytest.mark.parametrize("name,options", POKER_OPTIONS)
def test_poker_tensors_equal_openspiel_s_element_for_element(name, options, backend):
    game = aiplay.load(name, backend=backend, **options)
    spiel = pyspiel.load_game(name, options)
    assert game.information_state_tensor_shape() == tuple(spiel.information_state_tensor_shape())
    assert game.observation_tensor_shape() == tuple(spiel.observation_tensor_shape())
    checked = 0
    for state, moves in _states(game, 150, seed=len(options)):
        theirs = spiel.new_initial_state()
        for action in moves:
            theirs.apply_action(action)
        for p in range(game.num_players):
            ours = state.information_state_tensor(p)
            assert ours.dtype == np.float32 and ours.shape == game.information_state_tensor_shape()
            assert ours.tolist() == theirs.information_state_tensor(p), (moves, p)
            assert state.observation_tensor(p).tolist() == theirs.observation_tensor(p), (moves, p)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("name", ["kuhn_poker"])
def test_every_field_of_the_seat_s_view_decodes_from_its_tensors(name, backend):
    game = aiplay.load(name, backend=backend, players=3)
    for state, _ in _states(game, 60, seed=2):
        for p in range(game.num_players):
            view = state.view(p)  # documented in docs/views/<game>.md: cards by name
            info = _parts(game, "information_state", state.information_state_tensor(p))
            seen = _parts(game, "observation", state.observation_tensor(p))
            assert _card(info["player"]) == p == _card(seen["player"])
            seats = view["seats"]
            assert _named(_card(info["private_card"]), lambda c: card_name(c, game.num_cards)) == seats[p]["card"]
            assert [0 if a == 0 else 1 for a in _actions(info["betting"])] == [
                0 if b == "pass" else 1 for b in view["betting"]]
            assert seen["pot_contribution"].tolist() == [s["stake"] for s in seats]
            assert sum(s["stake"] for s in seats) == view["pot"]


@pytest.mark.parametrize("name,options", POKER_OPTIONS)
def test_the_kernels_write_the_same_tensors_as_the_encoding(name, options):
    game = aiplay.load(name, backend="native", **options)
    assert callable(getattr(game.kernel, "fill_tensor", None))  # the native path is taken
    for state, _ in _states(game, 40, seed=6):
        for p in range(game.num_players):
            for kind in ("information_state", "observation"):
                native = tensors._tensor(state, p, kind)
                from_dict = tensors._tensor(state, p, kind, native=False)
                assert native.dtype == np.float32 and np.array_equal(native, from_dict), (kind, p)
