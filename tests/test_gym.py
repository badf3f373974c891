"""The Gymnasium single-agent environment (issue 24): one seat against aiplay bots, on every game."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import aiplay
from aiplay.adapters.gym import AiplayGymEnv, env, env_id
from aiplay.errors import IllegalActionError, InvalidOptionError, InvalidPlayerError, UnknownGameError
from aiplay.search import make_bot

GAMES = sorted(set(aiplay.games_available()) | {"template"})


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_passes(name, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning of the checker fails the test
        for seat in (0, 1):
            check_env(env(name, seat=seat).unwrapped)
        check_env(env(name, render_mode="ansi").unwrapped)  # also renders in every declared mode
    assert capsys.readouterr().out  # the human mode printed


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "pig", "sunken_city",
                                  "area51", "area1851", "groom_lake"])
def test_check_env_passes_with_tensor_observations(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e = env(name, seat=1, observation="tensor")
        check_env(e.unwrapped)
    observation, info = e.reset(seed=3)
    state = e.unwrapped.state
    expected = state.observation_tensor(1) if name in ("pig", "sunken_city") else state.information_state_tensor(1)
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
    e = env("leduc_poker", seat=1, opponents="ismcts(iterations=30)")
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
        pytest.fail("a Leduc game did not end in 20 of the agent's moves")


def test_opponents_are_specifications_bots_or_one_per_seat():
    e = env("pig", players=3, winscore=10, seat=2, opponents=["random", {"kind": "heuristic"}])
    e.reset(seed=1)
    assert [type(b).__name__ for b in e.unwrapped._bots.values()] == ["RandomBot", "HeuristicBot"]
    bot = make_bot("mcts", iterations=20, seed=3)
    e = env("pig", winscore=10, opponents=bot)
    e.reset(seed=1)
    assert e.unwrapped._bots[1] is bot
    with pytest.raises(InvalidOptionError, match="2 given for the 1 other seat"):
        AiplayGymEnv("pig", opponents=["random", "random"])
    with pytest.raises(InvalidOptionError, match="unknown bot"):
        AiplayGymEnv("pig", opponents="no_such_bot")
    with pytest.raises(InvalidOptionError, match="opponents"):
        AiplayGymEnv("pig", opponents=3)
    with pytest.raises(InvalidPlayerError):
        AiplayGymEnv("pig", seat=2)
    with pytest.raises(InvalidOptionError, match="illegal"):
        AiplayGymEnv("pig", illegal="ignore")
    with pytest.raises(UnknownGameError):
        env("no_such_game")


def test_an_illegal_action_loses_or_raises_and_leaves_the_position():
    e = AiplayGymEnv("kuhn_poker")
    e.reset(seed=0)
    before = e.state.to_json()
    illegal = e.game.num_distinct_actions  # both Kuhn actions are legal at the start: one past the space
    observation, reward, terminated, truncated, info = e.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (e.game.min_utility, True, True)
    assert e.state.to_json() == before
    with pytest.raises(InvalidOptionError, match="reset"):
        e.step(0)
    strict = AiplayGymEnv("kuhn_poker", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(99)
    with pytest.raises(IllegalActionError):
        strict.step("call")


def test_the_environments_are_registered_with_gymnasium():
    env("kuhn_poker")  # registers it on first use
    e = gymnasium.make(env_id("kuhn_poker"), seat=1)
    assert e.spec.id == "aiplay/kuhn_poker-v0" and e.unwrapped.seat == 1
    e.close()


def test_a_game_over_before_the_agent_moves_ends_at_the_next_step():
    e = AiplayGymEnv("pig", seat=1, winscore=1)  # seat 0 wins with any first roll but a 1
    for seed in range(20):
        observation, info = e.reset(seed=seed)
        if e.state.is_terminal():
            break
    else:
        pytest.fail("no seed let seat 0 win before seat 1 moved")
    assert not observation["action_mask"].any()
    observation, reward, terminated, truncated, info = e.step(0)
    assert terminated and reward == e.state.returns()[1] == -1.0


@pytest.mark.parametrize("name,seat", [("leduc_poker", 1), ("kuhn_poker", 0), ("groom_lake", 2)])
def test_render_shows_only_what_the_seat_knows(name, seat):
    """Twins by sampling: states the agent cannot tell apart (one information-state key) render
    to one text, and the render differs from the omniscient text where something is hidden."""
    e = env(name, seat=seat, opponents="random", render_mode="ansi")
    raw = e.unwrapped
    by_key, worlds = {}, {}
    differs_from_omniscient = False
    for episode in range(40 if name != "groom_lake" else 3):
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
    if name != "groom_lake":  # real twins were met: one key, several hidden worlds
        assert any(len(w) > 1 for w in worlds.values())
    assert differs_from_omniscient
