"""The exact solver on Kuhn poker with open hands, against brute force.

Moved from ``tests/test_solve.py`` (split by game).
"""

from __future__ import annotations

from typing import Optional, Tuple

import pytest

import aiplay
from aiplay.game import CHANCE, TERMINAL, State
from aiplay.solve import TIE_EPS, solve


Values = Tuple[float, ...]


def plain_expectimax(state: State) -> Tuple[Values, Optional[int]]:
    """Full-width max^n expectimax: no pruning, no table; ties to the lowest action id."""
    player = state.current_player()
    if player == TERMINAL:
        return tuple(state.returns()), None
    if player == CHANCE:
        acc = [0.0] * state.game.num_players
        for outcome, prob in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            values, _ = plain_expectimax(child)
            for i, v in enumerate(values):
                acc[i] += prob * v
        return tuple(acc), None
    best: Optional[int] = None
    best_values: Values = ()
    for action in state.legal_actions():  # increasing ids
        child = state.clone()
        child.apply_action(action)
        values, _ = plain_expectimax(child)
        if best is None or values[player] > best_values[player] + TIE_EPS:
            best, best_values = action, values
    return best_values, best


@pytest.mark.parametrize("name", ["kuhn_poker"])
def test_open_hand_poker_matches_brute_force(name):
    game = aiplay.load(name)
    root = game.new_initial_state()
    expected, _ = plain_expectimax(root)
    solution = solve(root)
    assert solution.exact and solution.perfect_information_assumed
    assert solution.player == CHANCE and solution.best_action is None
    for got, want in zip(solution.values, expected):
        assert got == pytest.approx(want, abs=1e-9)
    # And after each deal (a decision root), action by action.
    deals = 0
    for outcome, _ in root.chance_outcomes():
        state = root.clone()
        state.apply_action(outcome)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
        want_values, want_action = plain_expectimax(state)
        got = solve(state)
        assert got.best_action == want_action
        assert got.values == pytest.approx(want_values, abs=1e-9)
        deals += 1
    assert deals >= 3
