"""OpenSpiel's own tensor-consuming learners on aiplay games through the OpenSpiel adapter (issue 24).

Drives ``benchmarks/openspiel_algorithms.py`` (OpenSpiel's PyTorch policy gradient and NFSP in
``rl_environment``) for a few dozen episodes on a short hidden-information game (information
state tensor) and on a perfect-information board game (observation tensor), both chosen from the
registry by property. Needs the ``rl`` extra (PyTorch); skipped without it.
"""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the "rl" extra

import aiplay  # noqa: E402
from aiplay.testing.choose import pick_game  # noqa: E402

DRIVER = Path(__file__).resolve().parent.parent / "benchmarks" / "openspiel_algorithms.py"
#: A short two-player hidden-information game with tensors (the largest such: learners have something
#: to learn), and a perfect-information board game with tensors; both at their default options.
HIDDEN = pick_game(perfect_information=False, short=True, tensors=True, players=2, prefer="large")
BOARD = pick_game(board=True, perfect_information=True, tensors=True)
EPISODES = {HIDDEN: 40, BOARD: 8}
#: Every learner on the short game; on the board game (about 100 decisions a game, hundreds of actions)
#: one of each family: A2C's value critic and NFSP (QPG and RPG share the Q critic, which the short game covers).
RUNS = ([(HIDDEN, a) for a in ("a2c", "qpg", "rpg", "nfsp")]
        + [(BOARD, "a2c"), (BOARD, "nfsp")])


@pytest.fixture(scope="module")
def driver():
    spec = importlib.util.spec_from_file_location("openspiel_algorithms", DRIVER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small networks; the machine is shared
    yield module
    torch.set_num_threads(threads)


def _policy_probs(agent, time_steps):
    """The agent's action probabilities at each time step, without learning (NFSP: its average policy)."""
    from open_spiel.python.pytorch import nfsp

    rows = []
    for time_step in time_steps:
        if isinstance(agent, nfsp.NFSP):
            with agent.temp_mode_as(nfsp.MODE.AVERAGE_POLICY):
                rows.append(np.array(agent.step(time_step, is_evaluation=True).probs, dtype=np.float64))
        else:
            rows.append(np.array(agent.step(time_step, is_evaluation=True).probs, dtype=np.float64))
    return np.stack(rows)


def _decisions(env, seat, count):
    """``count`` time steps with ``seat`` to act, from seeded uniformly random games."""
    env.seed(12345)
    rng = np.random.default_rng(12345)
    found = []
    while len(found) < count:
        time_step = env.reset()
        while not time_step.last() and len(found) < count:
            player = time_step.current_player()
            if player == seat:
                found.append(time_step)
            legal = time_step.observations["legal_actions"][player]
            time_step = env.step([legal[rng.integers(len(legal))]])
    return found


# OpenSpiel's Q critic (QPG, RPG) indexes with a list of tensors, which torch 2.13 still reads as
# (row, action) pairs while warning that it will not; the rl extra pins that torch.
@pytest.mark.filterwarnings("ignore:Using a non-tuple sequence for multidimensional indexing")
@pytest.mark.parametrize("game,algorithm", RUNS)
def test_learner_trains_on_the_declared_tensor_with_legal_actions(driver, game, algorithm):
    np.random.seed(7)
    torch.manual_seed(7)
    env = driver.environment(game, seed=7)
    reference = aiplay.load(game)
    kind = "observation" if reference.perfect_information else "information_state"
    declared = tuple(getattr(reference, f"{kind}_tensor_shape")())
    assert driver.declared_shape(env) == declared
    assert env.observation_spec()["info_state"] == declared

    agents = driver.make_agents(env, algorithm, seed=7, settings=driver.Settings.small())
    probes = [_decisions(env, seat, 5) for seat in range(len(agents))]
    before = [_policy_probs(agent, steps) for agent, steps in zip(agents, probes)]

    decisions = []

    def check(env, time_step, seat, action):
        # The tensor the learner saw is the aiplay state's own tensor for the acting seat, of the
        # declared shape, and the action is legal in the aiplay engine itself.
        state = env.get_state.aiplay_state
        expected = getattr(state, f"{kind}_tensor")(seat)
        seen = np.asarray(time_step.observations["info_state"][seat], dtype=np.float32)
        assert expected.shape == declared and seen.shape == declared
        assert np.array_equal(seen, expected)
        assert state.current_player() == seat and action in state.legal_actions()
        decisions.append(seat)

    record = driver.Run(game=game, algorithm=algorithm, seed=7, episodes=EPISODES[game], tensor_shape=declared)
    driver.train(env, agents, EPISODES[game], record, check)

    assert record.env_steps == len(decisions) > EPISODES[game]
    assert set(decisions) == {0, 1}
    # Both halves of each learner learnt (PG: critic and policy; NFSP: average policy and the
    # DQN best response), and every loss it reported is a finite number.
    assert record.losses, "no learner reported a loss"
    assert any(first is not None for _, first, _ in record.losses)
    assert any(second is not None for _, _, second in record.losses)
    assert all(math.isfinite(x) for _, a, b in record.losses for x in (a, b) if x is not None)
    # Self-play returns are those of the game (zero-sum or constant-sum: the sum of any game's returns).
    assert len(record.returns) == 2
    assert reference.constant_sum
    constant = sum(aiplay.play_out(reference.new_initial_state(), random.Random(0)).returns())
    assert math.isclose(sum(record.returns), 0.0 if reference.zero_sum else constant, abs_tol=1e-9)
    assert 0 <= record.decided <= EPISODES[game] and (record.decided > 0 or game == BOARD)
    # The learnt policy moved: some seat's action probabilities on fixed positions changed.
    after = [_policy_probs(agent, steps) for agent, steps in zip(agents, probes)]
    for rows in before + after:
        assert np.allclose(rows.sum(axis=1), 1.0)
    assert any(not np.allclose(b, a) for b, a in zip(before, after))


@pytest.mark.parametrize("algorithm", ["a2c", "nfsp"])
def test_runs_repeat_under_a_seed(driver, algorithm):
    settings = driver.Settings.small()
    first, _ = driver.run(HIDDEN, algorithm, 30, seed=3, settings=settings, evaluation=10)
    again, _ = driver.run(HIDDEN, algorithm, 30, seed=3, settings=settings, evaluation=10)
    other, _ = driver.run(HIDDEN, algorithm, 30, seed=4, settings=settings, evaluation=10)
    assert first.losses and first.losses == again.losses
    assert (first.env_steps, first.returns, first.before, first.after) == (
        again.env_steps, again.returns, again.before, again.after)
    assert other.losses != first.losses


def test_evaluation_against_random_plays_seat_zero(driver):
    record, agents = driver.run(HIDDEN, "a2c", 8, seed=1, settings=driver.Settings.small(), evaluation=20)
    game = aiplay.load(HIDDEN)
    for value in (record.before, record.after):
        assert game.min_utility <= value <= game.max_utility and math.isfinite(value)
    # The same seeded games: an agent that did not change scores the same twice.
    env = driver.environment(HIDDEN, seed=1)
    np.random.seed(0)
    one = driver.against_random(env, agents[0], 20, seed=5)
    np.random.seed(0)
    two = driver.against_random(env, agents[0], 20, seed=5)
    assert one == two


def test_unknown_algorithm_is_refused(driver):
    env = driver.environment(HIDDEN, seed=0)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        driver.make_agents(env, "ppo", seed=0, settings=driver.Settings())
