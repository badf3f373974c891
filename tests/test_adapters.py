"""The PettingZoo and OpenSpiel adapters (issue 16), on every listed game and the template example."""

from __future__ import annotations

import dataclasses
import random
import warnings

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import cfr, exploitability, expected_game_score, mcts, tabular_qlearner
from pettingzoo.test import api_test, render_test, seed_test

import aiplay
from aiplay.adapters import openspiel as spiel_adapter
from aiplay.adapters.pettingzoo import AiplayAECEnv, env, raw_env
from aiplay.errors import IllegalActionError, InvalidOptionError
from aiplay.registry import games_available

GAMES = sorted(set(games_available()) | {"template"})  # the hidden example game too: the recipe's copy gets both adapters


# ---------------------------------------------------------------------------------------------------
# PettingZoo


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_passes(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning of api_test fails the test, except
        # the two that PettingZoo's own classic games (chess, go...) also give: a dict observation
        # with an action mask rather than a bare array.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env(name), num_cycles=100)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test_and_render_test_pass(name, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        seed_test(lambda: env(name), num_cycles=100)
        render_test(lambda render_mode=None: env(name, render_mode=render_mode))
    printed = capsys.readouterr().out
    assert printed.count("\n") >= 5  # human mode printed its five renders (and the steps between)
    e = raw_env(name, render_mode="ansi")
    e.reset(seed=0)
    assert e.render() == str(e.state)
    e = raw_env(name, render_mode="human")
    e.reset(seed=0)
    assert e.render() is None and capsys.readouterr().out == str(e.state) + "\n"


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "pig", "sunken_city",
                                  "area51", "area1851", "groom_lake"])
def test_pettingzoo_tensor_observations_pass_api_and_seed_tests(name, monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env(name, observation="tensor"), num_cycles=100)
        seed_test(lambda: env(name, observation="tensor"), num_cycles=100)
    e = raw_env(name, observation="tensor")
    e.reset(seed=2)
    tensor = e.observe("player_1")["observation"]
    expected = (e.state.observation_tensor(1) if name in ("pig", "sunken_city")
                else e.state.information_state_tensor(1))
    assert tensor.dtype == np.float32 and np.array_equal(tensor, expected)
    assert e.observation_space("player_1")["observation"].contains(tensor)
    # Every registered game has tensors now; an entry without an encoding stands for a new game.
    from aiplay import registry

    monkeypatch.setattr(registry.game_entry("template").reference, "tensor_encoding", None)
    with pytest.raises(InvalidOptionError, match="provides no tensor"):
        raw_env("template", observation="tensor")
    with pytest.raises(InvalidOptionError, match="observation="):
        raw_env("pig", observation="pixels")


def test_pettingzoo_max_cycles_test_does_not_apply():
    # PettingZoo's max_cycles_test drives the parallel API (every agent acts each cycle); the
    # aiplay games are turn-based (one agent acts at a time, and not in a fixed rotation: Pig's
    # roller goes on rolling), so, like PettingZoo's own classic games, the environments declare
    # themselves not parallelizable and take no max_cycles.
    e = raw_env("pig")
    assert e.metadata["is_parallelizable"] is False
    with pytest.raises(InvalidOptionError, match="max_cycles"):
        raw_env("pig", max_cycles=4)  # read as a game option, which Pig does not have


def test_pettingzoo_observations_are_the_seat_s_information_and_legal_moves():
    e = raw_env("leduc_poker")
    e.reset(seed=3)
    seen = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        player = int(agent.split("_")[1])
        text = bytes(observation["observation"]).rstrip(b"\0").decode()
        assert text == e.state.information_state_string(player)
        if terminated:
            assert reward == e.state.returns()[player]
            e.step(None)
            continue
        assert player == e.state.current_player()
        assert np.flatnonzero(observation["action_mask"]).tolist() == sorted(e.state.legal_actions())
        other = e.observe(f"player_{1 - player}")
        assert not other["action_mask"].any()  # not its turn
        seen += 1
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert seen >= 2 and e.agents == []


def _play(e, seed):
    e.reset(seed=seed)
    rng = random.Random(0)
    trace = []
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            trace.append((agent, reward))
            e.step(None)
            continue
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        trace.append((agent, action))
        e.step(action)
    return trace


def test_pettingzoo_reset_seed_fixes_the_chance_and_bad_moves_are_refused():
    e = raw_env("pig", winscore=15)
    assert _play(e, 7) == _play(e, 7)
    assert any(_play(e, s) != _play(e, 7) for s in range(3))
    rewards = {agent: r for agent, r in _play(e, 7)[-2:]}
    assert sorted(rewards.values()) == [-1.0, 1.0]
    e.reset(seed=1)
    before = e.state.to_json()
    with pytest.raises(IllegalActionError):
        e.step(99)
    assert e.state.to_json() == before
    small = AiplayAECEnv("sunken_city", observation_length=64)
    small.reset(seed=0)
    with pytest.raises(InvalidOptionError, match="observation_length=64"):
        small.observe("player_0")
    with pytest.raises(InvalidOptionError, match="render_mode"):
        AiplayAECEnv("pig", render_mode="rgb_array")
    assert isinstance(AiplayAECEnv("pig", render_mode="ansi").render(), str)


# ---------------------------------------------------------------------------------------------------
# OpenSpiel


@pytest.fixture(scope="module")
def registered():
    return spiel_adapter.register_all(include_hidden=True)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_test_passes(registered, name):
    assert f"aiplay_{name}" in registered and f"aiplay_{name}" in pyspiel.registered_names()
    game = pyspiel.load_game(f"aiplay_{name}")
    sims = 1 if name in ("area51", "area1851") else 3  # long games (~1,000 moves), each move checked in full
    # serialize=True: every state is also serialized and deserialized (pickled, for a Python game).
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_openspiel_game_mirrors_the_aiplay_game_and_its_options(registered):
    game = pyspiel.load_game("aiplay_pig(winscore=20,players=3)")
    ours = aiplay.load("pig", winscore=20, players=3)
    assert game.num_players() == 3 and game.num_distinct_actions() == ours.num_distinct_actions
    assert game.get_parameters()["winscore"] == 20
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [0, 1]
    state.apply_action(0)  # roll
    assert state.is_chance_node()
    ours_state = ours.new_initial_state()
    ours_state.apply_action(0)
    assert state.chance_outcomes() == sorted(ours_state.chance_outcomes())
    clone = state.clone()
    clone.apply_action(0)
    assert state.is_chance_node() and not clone.is_chance_node()  # the clone is independent
    kuhn = pyspiel.load_game("aiplay_kuhn_poker")
    assert kuhn.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kuhn.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kuhn.max_game_length() == 5
    s = kuhn.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    assert s.information_state_string(0) != s.information_state_string(1)  # each sees its own card
    with pytest.raises(Exception, match="winscore"):
        pyspiel.load_game("aiplay_pig(winscore=0)")


def test_openspiel_cfr_solves_kuhn_poker_through_the_adapter(registered):
    game = pyspiel.load_game("aiplay_kuhn_poker")
    solver = cfr.CFRSolver(game)
    for _ in range(150):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert exploitability.exploitability(game, policy) < 0.01
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])
    assert value[0] == pytest.approx(-1 / 18, abs=0.01)  # the game's value for the first player


def test_openspiel_mcts_plays_pig_through_the_adapter(registered):
    game = pyspiel.load_game("aiplay_pig", {"winscore": 15})
    bot = mcts.MCTSBot(game, 2.0, 50, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(1))
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
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
    pig = pyspiel.load_game("aiplay_pig").get_type()  # an observation tensor only, as OpenSpiel's pig
    assert pig.provides_observation_tensor and not pig.provides_information_state_tensor
    board = pyspiel.load_game("aiplay_area51")  # the seat's view, encoded (aiplay.viewtensors)
    assert board.get_type().provides_observation_tensor and board.get_type().provides_information_state_tensor
    state = board.new_initial_state()
    assert len(state.information_state_tensor(0)) == board.information_state_tensor_shape()[0]


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
