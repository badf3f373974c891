"""The native kernels must match their reference engines move for move."""

from __future__ import annotations

import pytest

import aiplay
from aiplay.differential import EngineMismatch, compare_engines, compare_states
from aiplay.registry import has_native

# (game, options, number of seeded games); pig's total is >= 1,000 games.
CASES = [
    ("pig", {}, 1000),
    ("pig", {"winscore": 30, "players": 4}, 200),
    ("pig", {"piglet": True, "winscore": 10, "players": 3}, 200),
    ("pig", {"winscore": 50, "diceoutcomes": 3, "horizon": 40}, 200),
]


@pytest.mark.parametrize("name,options,games", CASES,
                         ids=[f"{n}-{','.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, o, _ in CASES])
def test_native_matches_reference(name, options, games):
    if not has_native(name):
        pytest.fail(f"{name} should have a native kernel but it is not built")
    reference = aiplay.load(name, backend="reference", **options)
    native = aiplay.load(name, backend="native", **options)
    report = compare_engines(reference, native, range(games))
    assert report.games == games
    assert report.terminal_games == games
    assert report.steps > games


def test_harness_reports_a_disagreement():
    reference = aiplay.load("pig", backend="reference", winscore=20)
    native = aiplay.load("pig", backend="native", winscore=20)
    ref_state = reference.new_initial_state()
    fast_state = native.new_initial_state()
    fast_state.apply_action(1)  # the native engine is now one move ahead
    with pytest.raises(EngineMismatch, match="serialized state|current player"):
        compare_states(ref_state, fast_state, seed=7, step=0)


def test_native_is_the_default_backend():
    assert aiplay.load("pig").backend == "native"
    assert aiplay.load("pig", backend="reference").backend == "reference"
