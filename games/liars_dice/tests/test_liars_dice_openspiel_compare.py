"""Liar's Dice against OpenSpiel itself, step by step.

The engines claim to define the game exactly as OpenSpiel's ``liars_dice`` does.
Random action sequences are played in both side by side (reference engine): at every
step the player to act, the legal actions, the chance outcomes and their probabilities,
terminality and every player's information state string must agree; at the end, so must
the returns. Then both engines' tensors, ``str`` (OpenSpiel's ``ToString``) and action
names are compared too. OpenSpiel 2.0.2 accepts two players only, so three and four
players are checked against the reference engine alone (the differential tests).
"""

from __future__ import annotations

import random
from typing import Any, Dict

import pytest

pyspiel = pytest.importorskip("pyspiel")

import aiplay  # noqa: E402  (after the skip: only about OpenSpiel)
from aiplay.testing.openspiel_agreement import (  # noqa: E402
    check_option_defaults, check_properties, play_side_by_side,
)
from aiplay.testing.simulate import random_action  # noqa: E402

# (parameters, number of random playouts): every face count and dice count the options allow
# somewhere, both bidding rules.
CASES = [
    ({}, 1000),
    ({"numdice": 2}, 500),
    ({"numdice": 3}, 300),
    ({"numdice": 5, "dice_sides": 8}, 200),
    ({"numdice": 2, "dice_sides": 2}, 300),
    ({"numdice": 3, "dice_sides": 4}, 300),
    ({"bidding_rule": "reset-quantity"}, 500),
    ({"numdice": 3, "bidding_rule": "reset-quantity"}, 300),
    ({"numdice": 4, "dice_sides": 3, "bidding_rule": "reset-quantity"}, 200),
]
IDS = [",".join(f"{k}={v}" for k, v in p.items()) or "defaults" for p, _ in CASES]


@pytest.mark.parametrize("params, games", CASES, ids=IDS)
def test_random_playouts_match_openspiel(params: Dict[str, Any], games: int) -> None:
    for seed in range(games):
        play_side_by_side("liars_dice", params, seed, True)


@pytest.mark.parametrize("params, games", CASES, ids=IDS)
def test_game_properties_match_openspiel(params: Dict[str, Any], games: int) -> None:
    check_properties("liars_dice", params)
    spiel = pyspiel.load_game("liars_dice", params)
    game = aiplay.load("liars_dice", **params)
    # OpenSpiel's length counts decisions only; ours counts the rolls too.
    assert game.max_game_length == spiel.max_game_length() + spiel.max_chance_nodes_in_history()


def test_option_names_and_defaults_match_openspiel() -> None:
    check_option_defaults("liars_dice")


def test_openspiel_refuses_three_players_so_only_two_are_compared() -> None:
    # If a later OpenSpiel accepts more players, the comparisons above should grow to them.
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("liars_dice", {"players": 3})


@pytest.mark.parametrize("backend", ["reference", "native"])
@pytest.mark.parametrize("params", [{}, {"numdice": 3, "dice_sides": 4},
                                    {"numdice": 2, "bidding_rule": "reset-quantity"}],
                         ids=["defaults", "3x4", "reset-quantity"])
def test_tensors_text_and_names_equal_openspiel_s(params: Dict[str, Any], backend: str) -> None:
    game = aiplay.load("liars_dice", backend=backend, **params)
    spiel = pyspiel.load_game("liars_dice", params)
    assert game.information_state_tensor_shape() == tuple(spiel.information_state_tensor_shape())
    assert game.observation_tensor_shape() == tuple(spiel.observation_tensor_shape())
    rng = random.Random(len(params))
    checked = 0
    for _ in range(120):
        ours, theirs = game.new_initial_state(), spiel.new_initial_state()
        while True:
            for p in range(2):
                assert ours.information_state_tensor(p).tolist() == theirs.information_state_tensor(p), (theirs, p)
                assert ours.observation_tensor(p).tolist() == theirs.observation_tensor(p), (theirs, p)
                checked += 1
            assert str(ours.to_reference() if backend == "native" else ours) == str(theirs)
            if ours.is_terminal():
                break
            action = random_action(ours, rng)
            assert ours.action_to_string(action) == theirs.action_to_string(theirs.current_player(), action)
            ours.apply_action(action)
            theirs.apply_action(action)
    assert checked > 1000
