"""Leduc poker through the OpenSpiel adapter: its tensors are OpenSpiel's, and learners run on them as on
OpenSpiel's own Leduc poker."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import tabular_qlearner


@pytest.fixture(scope="module")
def registered():
    from aiplay.adapters import openspiel as spiel_adapter

    return spiel_adapter.register_all(include_hidden=True)


@pytest.mark.parametrize("name", ["leduc_poker"])
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


def _q_learning_run(game, episodes):
    """OpenSpiel's rl_environment (tensor observations) with its tabular Q-learners; the tensors seen."""
    np.random.seed(0)  # the learners' exploration draws from NumPy's global generator
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=1))
    agents = [tabular_qlearner.QLearner(p, env.action_spec()["num_actions"]) for p in range(2)]
    seen = []
    for _ in range(episodes):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            seen.append(tuple(step.observations["info_state"][player]))
            step = env.step([agents[player].step(step).action])
        for agent in agents:
            agent.step(step)
    return seen, agents


def test_openspiel_learners_on_tensors_run_on_aiplay_leduc_as_on_openspiel_s_own(registered):
    ours, agents = _q_learning_run(pyspiel.load_game("aiplay_leduc_poker"), 300)
    theirs, _ = _q_learning_run(pyspiel.load_game("leduc_poker"), 300)
    assert len(ours[0]) == 30 and len(ours) > 600
    assert ours == theirs  # the same seeded run, step for step: same tensors, so the same learning
    assert len(agents[0]._q_values) > 50  # it learned values for many information states
