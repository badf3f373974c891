"""Leduc poker's tensors (issue 24): OpenSpiel's own, every field of the seat's view decodable, the kernel's
the same as the encoding's."""

from __future__ import annotations

import pytest

import aiplay
from aiplay.testing.tensor_checks import (
    action_pairs, check_kernel_tensors_match_encoding, check_tensors_equal_openspiel, named, one_hot_index,
    random_game_states, tensor_parts,
)

POKER_OPTIONS = [("leduc_poker", {}), ("leduc_poker", {"players": 3}), ("leduc_poker", {"suit_isomorphism": True}),
                 ("leduc_poker", {"action_mapping": True}), ("leduc_poker", {"players": 4, "starting_player": 2})]

ENGINES = ["reference", "native"]


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("name,options", POKER_OPTIONS)
def test_poker_tensors_equal_openspiel_s_element_for_element(name, options, backend):
    pytest.importorskip("pyspiel")  # the comparison with OpenSpiel's tensors needs the compare extra
    check_tensors_equal_openspiel(name, options, backend, games=150, seed=len(options))


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("name", ["leduc_poker"])
def test_every_field_of_the_seat_s_view_decodes_from_its_tensors(name, backend):
    game = aiplay.load(name, backend=backend, players=3)
    for state, _ in random_game_states(game, 60, seed=2):
        for p in range(game.num_players):
            view = state.view(p)  # documented in docs/views/<game>.md: cards by name
            info = tensor_parts(game, "information_state", state.information_state_tensor(p))
            seen = tensor_parts(game, "observation", state.observation_tensor(p))
            assert one_hot_index(info["player"]) == p == one_hot_index(seen["player"])
            seats = view["seats"]
            assert named(one_hot_index(info["private_card"]), game.card_name) == seats[p]["card"]
            assert named(one_hot_index(info["public_card"]), game.card_name) == view["public_card"]
            # The tensor keeps calls (1) and raises (2); a fold ends the hand and shows in the view only
            # as the last action, which the returns (terminal) tell apart.
            rounds = view["betting"] + [[]] * (2 - len(view["betting"]))
            for r in (1, 2):
                decoded = [1 + a for a in action_pairs(info[f"round{r}"])]
                assert decoded == [{"call": 1, "raise": 2}[a] for a in rounds[r - 1] if a != "fold"]
            assert seen["pot_contribution"].tolist() == [s["chips_in"] for s in seats]
            assert sum(s["chips_in"] for s in seats) == view["pot"]


@pytest.mark.parametrize("name,options", POKER_OPTIONS)
def test_the_kernels_write_the_same_tensors_as_the_encoding(name, options):
    check_kernel_tensors_match_encoding(name, options)
