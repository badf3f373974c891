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
from aiplay.testing.choose import games_with, pick_game, pick_variant

#: Every registered game, the hidden example game too: the recipe's copy gets both adapters.
GAMES = games_with()
#: Chosen by property: the listed games with tensors, a short perfect-information game with chance for two
#: (SHORT), a short hidden-information game for two (HIDDEN, the largest) and a perfect-information board
#: game (BOARD, whose text observations are long).
TENSOR_GAMES = games_with(tensors=True, listed=True)
SHORT, SHORT_OPTIONS = pick_variant(perfect_information=True, chance=True, players=2, short=True, listed=True)
HIDDEN = pick_game(perfect_information=False, players=2, short=True, listed=True, prefer="large")
BOARD = pick_game(perfect_information=True, board=True)


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


@pytest.mark.parametrize("name", TENSOR_GAMES)
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
    # A perfect-information game's tensor is its observation; a hidden-information game's, the seat's information.
    expected = (e.state.observation_tensor(1) if e.state.game.perfect_information
                else e.state.information_state_tensor(1))
    assert tensor.dtype == np.float32 and np.array_equal(tensor, expected)
    assert e.observation_space("player_1")["observation"].contains(tensor)
    # Every registered game has tensors now; an entry without an encoding stands for a new game.
    from aiplay import registry

    monkeypatch.setattr(registry.game_entry(name).reference, "tensor_encoding", None)
    with pytest.raises(InvalidOptionError, match="provides no tensor"):
        raw_env(name, observation="tensor")
    with pytest.raises(InvalidOptionError, match="observation="):
        raw_env(name, observation="pixels")


def test_pettingzoo_max_cycles_test_does_not_apply():
    # PettingZoo's max_cycles_test drives the parallel API (every agent acts each cycle); the
    # aiplay games are turn-based (one agent acts at a time, and not always in a fixed rotation: a dice
    # game's roller may go on rolling), so, like PettingZoo's own classic games, the environments declare
    # themselves not parallelizable and take no max_cycles.
    for name in GAMES:
        e = raw_env(name)
        assert e.metadata["is_parallelizable"] is False
        with pytest.raises(InvalidOptionError, match="max_cycles"):
            raw_env(name, max_cycles=4)  # read as a game option, which no game has


def test_pettingzoo_observations_are_the_seat_s_information_and_legal_moves():
    e = raw_env(HIDDEN)
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
    e = raw_env(SHORT, **SHORT_OPTIONS)
    assert _play(e, 7) == _play(e, 7)
    assert any(_play(e, s) != _play(e, 7) for s in range(3))
    rewards = {agent: r for agent, r in _play(e, 7)[-2:]}
    assert sorted(rewards.values()) == [-1.0, 1.0]
    e.reset(seed=1)
    before = e.state.to_json()
    with pytest.raises(IllegalActionError):
        e.step(99)
    assert e.state.to_json() == before
    small = AiplayAECEnv(BOARD, observation_length=64)
    small.reset(seed=0)
    with pytest.raises(InvalidOptionError, match="observation_length=64"):
        small.observe("player_0")
    with pytest.raises(InvalidOptionError, match="render_mode"):
        AiplayAECEnv(SHORT, render_mode="rgb_array")
    assert isinstance(AiplayAECEnv(SHORT, render_mode="ansi").render(), str)


# ---------------------------------------------------------------------------------------------------
# OpenSpiel


@pytest.fixture(scope="module")
def registered():
    return spiel_adapter.register_all(include_hidden=True)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_test_passes(registered, name):
    assert f"aiplay_{name}" in registered and f"aiplay_{name}" in pyspiel.registered_names()
    game = pyspiel.load_game(f"aiplay_{name}")
    # Long games (~1,000 moves; each move is checked in full) are played once, the others three times.
    length = sum(1 for _ in aiplay.random_walk(aiplay.load(name).new_initial_state(), random.Random(0)))
    sims = 1 if length > 500 else 3
    # serialize=True: every state is also serialized and deserialized (pickled, for a Python game).
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_openspiel_mcts_plays_through_the_adapter(registered):
    game = pyspiel.load_game(f"aiplay_{SHORT}", SHORT_OPTIONS)
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


@pytest.mark.parametrize("name", games_with(tensors=True))
def test_openspiel_serves_the_tensors_the_game_has(registered, name):
    """Every game's observation tensor; an information-state tensor exactly where the game has one
    (a perfect-information game's observation is the whole position: observation only, as OpenSpiel's)."""
    ours = aiplay.load(name)
    try:
        shape = ours.information_state_tensor_shape()
    except aiplay.errors.UnsupportedError:
        shape = None
    board = pyspiel.load_game(f"aiplay_{name}")
    assert board.get_type().provides_observation_tensor
    assert board.get_type().provides_information_state_tensor == (shape is not None)
    if shape is not None:
        state = board.new_initial_state()
        assert len(state.information_state_tensor(0)) == board.information_state_tensor_shape()[0] == shape[0]
