"""The Gymnasium single-agent environment (issue 24): one seat against aiplay bots, on every game."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from aiplay.adapters.gym import env, env_id

from aiplay.testing.choose import games_with, pick_game

#: Every game, the hidden example game included.
GAMES = games_with()
#: The listed games with tensors; the largest short hidden-information game for two; the listed short
#: hidden-information games; a hidden-information board game (for four by default: seat 2 exists).
TENSOR_GAMES = games_with(tensors=True, listed=True)
LEDUC = pick_game(perfect_information=False, short=True, players=2, prefer="large", listed=True)
SHORT_HIDDEN = games_with(perfect_information=False, short=True, listed=True)
HIDDEN_BOARD = pick_game(perfect_information=False, board=True)


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_passes(name, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning of the checker fails the test
        for seat in (0, 1):
            check_env(env(name, seat=seat).unwrapped)
        check_env(env(name, render_mode="ansi").unwrapped)  # also renders in every declared mode
    assert capsys.readouterr().out  # the human mode printed


@pytest.mark.parametrize("name", TENSOR_GAMES)
def test_check_env_passes_with_tensor_observations(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e = env(name, seat=1, observation="tensor")
        check_env(e.unwrapped)
    observation, info = e.reset(seed=3)
    state = e.unwrapped.state
    expected = state.observation_tensor(1) if state.game.perfect_information else state.information_state_tensor(1)
    assert observation["observation"].dtype == np.float32
    assert np.array_equal(observation["observation"], expected)


def _trace(e, seed, rng_seed=0):
    observation, info = e.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    trace = [info["information_state"]]
    while True:
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, truncated, info = e.step(int(rng.choice(legal)))
        trace.append((info["information_state"], reward))
        if terminated or truncated:
            return trace


def test_seeded_resets_replay_the_episode_and_the_agent_acts_only_at_its_seat():
    e = env(LEDUC, seat=1, opponents="ismcts(iterations=30)")
    assert _trace(e, 5) == _trace(e, 5)
    assert any(_trace(e, s) != _trace(e, 5) for s in range(4))
    raw = e.unwrapped
    observation, info = e.reset(seed=2)
    for _ in range(20):
        state = raw.state
        assert state.current_player() == 1
        assert np.flatnonzero(observation["action_mask"]).tolist() == state.legal_actions()
        assert bytes(observation["observation"]).rstrip(b"\0").decode() == state.information_state_string(1)
        assert info["information_state"] == state.information_state_string(1)
        observation, reward, terminated, truncated, info = e.step(state.legal_actions()[-1])
        if terminated:
            assert reward == raw.state.returns()[1] and not observation["action_mask"].any()
            break
        assert reward == 0.0
    else:
        pytest.fail(f"a {LEDUC} game did not end in 20 of the agent's moves")


def test_the_environments_are_registered_with_gymnasium():
    env(LEDUC)  # registers it on first use
    e = gymnasium.make(env_id(LEDUC), seat=1)
    assert e.spec.id == f"aiplay/{LEDUC}-v0" and e.unwrapped.seat == 1
    e.close()


@pytest.mark.parametrize("name,seat", [(name, i % 2) for i, name in enumerate(SHORT_HIDDEN)] + [(HIDDEN_BOARD, 2)])
def test_render_shows_only_what_the_seat_knows(name, seat):
    """Twins by sampling: states the agent cannot tell apart (one information-state key) render
    to one text, and the render differs from the omniscient text where something is hidden."""
    e = env(name, seat=seat, opponents="random", render_mode="ansi")
    raw = e.unwrapped
    by_key, worlds = {}, {}
    differs_from_omniscient = False
    for episode in range(40 if name in SHORT_HIDDEN else 3):
        e.reset(seed=episode)
        for _ in range(200):
            state = raw.state
            text = e.render()
            key = state.information_state_key(seat)
            by_key.setdefault(key, set()).add(text)
            worlds.setdefault(key, set()).add(str(state))
            differs_from_omniscient |= text != str(state)
            if state.is_terminal():
                break
            _, _, terminated, _, _ = e.step(state.legal_actions()[0])
            if terminated:
                break
    assert all(len(texts) == 1 for texts in by_key.values()), "one information state rendered two ways"
    if name in SHORT_HIDDEN:  # real twins were met: one key, several hidden worlds
        assert any(len(w) > 1 for w in worlds.values())
    assert differs_from_omniscient
