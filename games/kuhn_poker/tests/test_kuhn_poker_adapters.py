"""Kuhn poker through the OpenSpiel adapter: the game mirrored, CFR solves it, its tensors are OpenSpiel's."""

from __future__ import annotations

import random

import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability, expected_game_score


@pytest.fixture(scope="module")
def registered():
    from aiplay.adapters import openspiel as spiel_adapter

    return spiel_adapter.register_all(include_hidden=True)


def test_openspiel_game_mirrors_the_aiplay_game(registered):
    kuhn = pyspiel.load_game("aiplay_kuhn_poker")
    assert kuhn.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kuhn.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kuhn.max_game_length() == 5
    s = kuhn.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    assert s.information_state_string(0) != s.information_state_string(1)  # each sees its own card


def test_openspiel_cfr_solves_kuhn_poker_through_the_adapter(registered):
    game = pyspiel.load_game("aiplay_kuhn_poker")
    solver = cfr.CFRSolver(game)
    for _ in range(150):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert exploitability.exploitability(game, policy) < 0.01
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])
    assert value[0] == pytest.approx(-1 / 18, abs=0.01)  # the game's value for the first player


@pytest.mark.parametrize("name", ["kuhn_poker"])
def test_openspiel_serves_the_poker_tensors_which_equal_its_own(registered, name):
    ours, theirs = pyspiel.load_game(f"aiplay_{name}"), pyspiel.load_game(name)
    assert ours.get_type().provides_information_state_tensor and ours.get_type().provides_observation_tensor
    assert ours.information_state_tensor_shape() == theirs.information_state_tensor_shape()
    assert ours.observation_tensor_shape() == theirs.observation_tensor_shape()
    rng = random.Random(4)
    for _ in range(30):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not a.is_terminal():
            for p in range(ours.num_players()):
                assert a.information_state_tensor(p) == b.information_state_tensor(p)
                assert a.observation_tensor(p) == b.observation_tensor(p)
            action = rng.choice([x for x, _ in a.chance_outcomes()] if a.is_chance_node() else a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
