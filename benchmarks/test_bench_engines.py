"""pytest-benchmark suites for the engines: clone, legal actions, apply and a random playout.

Run with ``pytest benchmarks`` (add ``--benchmark-disable`` for a quick smoke
run that executes each body once). Figures go to ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.registry import has_native

CASES = [(name, backend) for name in aiplay.games_available()
         for backend in ["reference"] + (["native"] if has_native(name) else [])]
IDS = [f"{name}-{backend}" for name, backend in CASES]


def mid_game_state(game, seed=0, moves=6):
    """A state a few random moves in, so the benchmarks are not all at the deal."""
    state = aiplay.play_out(game.new_initial_state(), random.Random(seed), max_steps=moves)
    if state.is_terminal():
        state = game.new_initial_state()
    return state


def random_playout(state, rng):
    return aiplay.play_out(state.clone(), rng).returns()


@pytest.mark.parametrize("name,backend", CASES, ids=IDS)
def test_clone(benchmark, name, backend):
    state = mid_game_state(aiplay.load(name, backend=backend))
    copy = benchmark(state.clone)
    assert copy.to_json() == state.to_json()


@pytest.mark.parametrize("name,backend", CASES, ids=IDS)
def test_legal_actions(benchmark, name, backend):
    state = mid_game_state(aiplay.load(name, backend=backend))
    assert benchmark(state.legal_actions) == state.legal_actions()


@pytest.mark.parametrize("name,backend", CASES, ids=IDS)
def test_clone_and_apply(benchmark, name, backend):
    state = mid_game_state(aiplay.load(name, backend=backend))
    action = state.legal_actions()[0]

    def step():
        child = state.clone()
        child.apply_action(action)
        return child

    assert benchmark(step).to_json() != state.to_json()


@pytest.mark.parametrize("name,backend", CASES, ids=IDS)
def test_random_playout(benchmark, name, backend):
    game = aiplay.load(name, backend=backend)
    state = game.new_initial_state()
    rng = random.Random(0)
    returns = benchmark(random_playout, state, rng)
    assert len(returns) == game.num_players
