"""Sunken City's solver bounds (``Kernel.utility_bounds``): sound, and the solver's value unchanged.

A bound that is too tight would make ``aiplay.solve`` wrong without any
crash, so it is checked three ways:

* exhaustively: on end-triggered positions with small game trees, the lowest
  and highest return that any line (any moves, any die) reaches for each
  player lie within the kernel's bounds, and a position the bounds call
  decided has one outcome only;
* by sampling: many playouts (policy and random moves mixed) from positions
  of every stage of the end round, with 2, 3 and 4 players, the short game
  and no chips;
* through the solver: with and without the bounds, the same values and the
  same best move on the benchmark's one-turn-left positions, and on the
  two-turns-left positions that solve without bounds in a few seconds.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import aiplay
from aiplay.game import State
from aiplay.testing.simulate import random_action
from aiplay.solve import solve

ROOT = Path(__file__).resolve().parents[3]  # the repository root
TWO_TURNS = ROOT / "benchmarks" / "solver_positions" / "sunken_city_two_turns_3p.json"
OPTION_SETS = [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 3, "short": True},
               {"players": 3, "no_neptune_chips": True}]


def _end_triggered(state: State) -> bool:
    return bool(state.to_dict()["end_triggered"])


def _play(game: aiplay.Game, rng: random.Random, policy_share: float) -> List[State]:
    """One seeded game: every position from the end trigger on (policy and random moves mixed)."""
    state = game.new_initial_state()
    kernel = game.kernel
    positions = []
    while not state.is_terminal():
        if state.current_player() >= 0 and rng.random() < policy_share:
            action = kernel.policy_choice(state, rng.getrandbits(64))
        else:
            action = random_action(state, rng)
        state.apply_action(action)
        if _end_triggered(state) and not state.is_terminal():
            positions.append(state.clone())
    return positions


def _reachable_returns(state: State, memo: Dict[str, Tuple[Tuple[float, ...], Tuple[float, ...]]],
                       budget: List[int]) -> Tuple[Tuple[float, ...], Tuple[float, ...]]:
    """Per player, the lowest and highest return over every line from ``state`` (all moves, all dice)."""
    if state.is_terminal():
        returns = tuple(state.returns())
        return returns, returns
    key = state.to_json()
    if key in memo:
        return memo[key]
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    low: List[float] = [float("inf")] * state.game.num_players
    high: List[float] = [float("-inf")] * state.game.num_players
    for action in actions:
        child = state.clone()
        child.apply_action(action)
        child_low, child_high = _reachable_returns(child, memo, budget)
        low = [min(x, y) for x, y in zip(low, child_low)]
        high = [max(x, y) for x, y in zip(high, child_high)]
    memo[key] = (tuple(low), tuple(high))
    return memo[key]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_bounds_hold_over_every_line_of_small_endgames(options):
    game = aiplay.load("sunken_city", **options)
    rng = random.Random(31)
    checked = decided = tight = 0
    for _ in range(12):
        positions = _play(game, rng, policy_share=0.7)
        # From the end of the game backwards, while the whole tree stays small.
        for state in reversed(positions):
            try:
                low, high = _reachable_returns(state, {}, [4000])
            except OverflowError:
                break
            bounds = game.kernel.utility_bounds_of(state)
            assert bounds is not None, "the end is triggered: the kernel has bounds"
            lo, hi = bounds
            for p in range(game.num_players):
                assert lo[p] <= low[p] + 1e-12 and high[p] <= hi[p] + 1e-12, (state.to_json(), p, lo, hi, low, high)
            if lo == hi:
                decided += 1
                assert low == high, "a decided position has one outcome"
            tight += sum(h < 1.0 for h in hi)
            checked += 1
    assert checked >= 30 and decided >= 5 and checked - decided >= 3, (checked, decided, tight)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_bounds_hold_on_sampled_playouts(options):
    game = aiplay.load("sunken_city", **options)
    rng = random.Random(32)
    checked = 0
    for _ in range(25):
        positions = _play(game, rng, policy_share=0.7)
        for state in positions[::3]:
            lo, hi = game.kernel.utility_bounds_of(state)
            for _ in range(4):
                line = state.clone()
                share = rng.random()
                while not line.is_terminal():
                    if line.current_player() >= 0 and rng.random() < share:
                        line.apply_action(game.kernel.policy_choice(line, rng.getrandbits(64)))
                    else:
                        line.apply_action(random_action(line, rng))
                returns = line.returns()
                assert all(lo[p] - 1e-12 <= returns[p] <= hi[p] + 1e-12 for p in range(game.num_players)), (
                    state.to_json(), lo, hi, returns)
                checked += 1
    assert checked >= 300


def test_no_bounds_before_the_end_is_triggered_and_exact_ones_at_the_end():
    game = aiplay.load("sunken_city", players=3)
    state = game.new_initial_state()
    assert game.kernel.utility_bounds_of(state) is None
    rng = random.Random(5)
    positions = _play(game, rng, policy_share=1.0)
    final = positions[-1].clone()
    while not final.is_terminal():
        final.apply_action(random_action(final, rng))
    lo, hi = game.kernel.utility_bounds_of(final)
    assert lo == hi == list(final.returns())


def _positions(seeds=None):
    data = json.loads(TWO_TURNS.read_text())
    out = []
    for item in data["positions"]:
        if seeds is None or item["seed"] in seeds:
            doc = item["position"]
            out.append((item["seed"], aiplay.load("sunken_city", **doc["options"]).state_from_json(json.dumps(doc))))
    return out


def _one_turn_left(state: State) -> State:
    """Player 1's turn played by first legal moves (chance: the likeliest outcome)."""
    state = state.clone()
    mover = state.current_player()
    while not state.is_terminal() and state.current_player() in (mover, aiplay.CHANCE):
        if state.is_chance_node():
            state.apply_action(max(state.chance_outcomes(), key=lambda o: o[1])[0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("seed,state", _positions(), ids=lambda x: str(x) if isinstance(x, int) else "")
def test_solver_value_is_the_same_without_bounds_one_turn_left(seed, state):
    one = _one_turn_left(state)
    with_bounds = solve(one, deepening=False, pv_nodes=1)
    without = solve(one, deepening=False, bounds=False, pv_nodes=1)
    assert with_bounds.exact and without.exact
    assert with_bounds.values == pytest.approx(without.values, abs=1e-9)
    assert with_bounds.best_action == without.best_action
    assert with_bounds.nodes <= without.nodes


@pytest.mark.parametrize("seed,state", _positions({24, 101, 119, 121, 149, 157}),
                         ids=lambda x: str(x) if isinstance(x, int) else "")
def test_solver_value_is_the_same_without_bounds_two_turns_left(seed, state):
    with_bounds = solve(state, deepening=False, pv_nodes=1)
    without = solve(state, deepening=False, bounds=False, pv_nodes=1)
    assert with_bounds.exact and without.exact
    assert with_bounds.values == pytest.approx(without.values, abs=1e-9)
    assert with_bounds.best_action == without.best_action
