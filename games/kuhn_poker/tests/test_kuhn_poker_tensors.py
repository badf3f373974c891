"""Kuhn poker's tensors (issue 24): OpenSpiel's own, every field of the seat's view decodable, the kernel's
the same as the encoding's."""

from __future__ import annotations

import pytest

import aiplay
from aiplay.testing.tensor_checks import (
    action_pairs, check_kernel_tensors_match_encoding, check_tensors_equal_openspiel, named, one_hot_index,
    random_game_states, tensor_parts,
)

pytest.importorskip("pyspiel")  # the comparison with OpenSpiel's tensors needs the compare extra
from aiplay.games.kuhn_poker.rules import card_name

POKER_OPTIONS = [("kuhn_poker", {}), ("kuhn_poker", {"players": 3}), ("kuhn_poker", {"players": 5})]

ENGINES = ["reference", "native"]


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("name,options", POKER_OPTIONS)
def test_poker_tensors_equal_openspiel_s_element_for_element(name, options, backend):
    pytest.importorskip("pyspiel")  # the comparison with OpenSpiel's tensors needs the compare extra
    check_tensors_equal_openspiel(name, options, backend, games=150, seed=len(options))


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("name", ["kuhn_poker"])
def test_every_field_of_the_seat_s_view_decodes_from_its_tensors(name, backend):
    game = aiplay.load(name, backend=backend, players=3)
    for state, _ in random_game_states(game, 60, seed=2):
        for p in range(game.num_players):
            view = state.view(p)  # documented in docs/views/<game>.md: cards by name
            info = tensor_parts(game, "information_state", state.information_state_tensor(p))
            seen = tensor_parts(game, "observation", state.observation_tensor(p))
            assert one_hot_index(info["player"]) == p == one_hot_index(seen["player"])
            seats = view["seats"]
            assert named(one_hot_index(info["private_card"]), lambda c: card_name(c, game.num_cards)) == seats[p]["card"]
            assert [0 if a == 0 else 1 for a in action_pairs(info["betting"])] == [
                0 if b == "pass" else 1 for b in view["betting"]]
            assert seen["pot_contribution"].tolist() == [s["stake"] for s in seats]
            assert sum(s["stake"] for s in seats) == view["pot"]


@pytest.mark.parametrize("name,options", POKER_OPTIONS)
def test_the_kernels_write_the_same_tensors_as_the_encoding(name, options):
    check_kernel_tensors_match_encoding(name, options)
