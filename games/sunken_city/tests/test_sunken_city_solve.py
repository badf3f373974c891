"""The exact solver's budget on Sunken City's hardest two-turn position: an estimate with bounds.

Moved from ``tests/test_solve.py`` (the position set is this game's).
"""

from __future__ import annotations

import json

import aiplay
from aiplay.solve import solve


def _two_turns_file():
    from pathlib import Path
    return Path(__file__).resolve().parents[3] / "benchmarks" / "solver_positions" / "sunken_city_two_turns_3p.json"


def test_budget_gives_an_estimate_with_bounds_and_deepening():
    data = json.loads(open(_two_turns_file()).read())
    # The set's hardest position (seed 133: about 21 M nodes exact), far beyond this budget.
    doc = next(p for p in data["positions"] if p["seed"] == 133)["position"]
    state = aiplay.load("sunken_city", **doc["options"]).state_from_json(json.dumps(doc))
    solution = solve(state, nodes=30_000)
    assert not solution.exact
    assert solution.bounds == [(0.0, 1.0)] * 3
    assert solution.completed_depth is not None and solution.completed_depth >= 1
    assert solution.best_action in state.legal_actions()
    assert all(0.0 <= v <= 1.0 for v in solution.values)
    assert solution.nodes <= 30_000 + 1
