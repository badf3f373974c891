"""Sunken City's learned evaluation: the file, the reference function, and the kernel's port of it."""

from __future__ import annotations

import fnmatch
import json
import math
import random
import tomllib
from pathlib import Path

import pytest

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.games.sunken_city import value_model as VM
from aiplay.games.sunken_city.phases import CARRIED, SECURED

ROOT = Path(__file__).resolve().parents[3]
OPTION_SETS = [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 2, "short": True},
               {"players": 3, "no_neptune_chips": True}, {"players": 4, "short": True, "no_neptune_chips": True}]


def _positions(options, seed, every=0.15):
    """Native states along a seeded game of the policy with random moves (3 in 10), a share of them."""
    game = aiplay.load("sunken_city", backend="native", **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if rng.random() < every:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal) if rng.random() < 0.3 else game.kernel.policy_choice(state, rng.getrandbits(60)))
    out.append(state)
    return out


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_kernel_evaluates_as_the_reference_engine(options):
    checked = 0
    for seed in range(6):
        for native in _positions(options, seed):
            reference = native.to_reference()
            expected = VM.learned_values(reference)
            assert reference.heuristic_values() == expected
            got = native.heuristic_values()
            assert len(got) == len(expected)
            assert max(abs(a - b) for a, b in zip(got, expected)) <= 1e-9, (native.to_dict(), got, expected)
            checked += 1
    assert checked > 100


def test_values_are_shares_of_the_win_and_the_returns_at_the_end():
    for options in OPTION_SETS:
        states = _positions(options, seed=11)
        for state in states[:-1]:
            values = state.heuristic_values()
            assert abs(sum(values) - 1.0) < 1e-9 and all(0.0 < v < 1.0 for v in values)
        assert states[-1].is_terminal() and states[-1].heuristic_values() == states[-1].returns()


def test_the_values_follow_the_weights_of_the_file():
    """The shipped values are sigmoid(w . x) over their sum, w read from value_model.json by name."""
    model = json.loads(Path(VM.MODEL_PATH).read_text(encoding="utf-8"))
    weights = [model["weights"][name] for name in VM.FEATURES]
    state = _positions({"players": 3}, seed=5)[10].to_reference()
    probs = [1.0 / (1.0 + math.exp(-sum(w * x for w, x in zip(weights, VM.features(state, p))))) for p in range(3)]
    assert state.heuristic_values() == pytest.approx([p / sum(probs) for p in probs], abs=1e-12)
    # Other weights give other values: the engine reads them, nothing is hard-wired.
    zero = VM.learned_values(state, [0.0] * len(VM.FEATURES))
    assert zero == pytest.approx([1 / 3] * 3) and zero != pytest.approx(state.heuristic_values())


def test_the_model_file_names_every_feature_and_its_provenance():
    model = json.loads(Path(VM.MODEL_PATH).read_text(encoding="utf-8"))
    assert model["features"] == list(VM.FEATURES) and set(model["weights"]) == set(VM.FEATURES)
    provenance = model["provenance"]
    for key in ("seed", "games", "positions", "commit", "command"):
        assert provenance[key] not in (None, "", 0), key
    assert "sunken_city_value_fit.py" in provenance["command"]
    assert model["held_out"]["log_loss"] < model["held_out"]["wealth_share_log_loss"]


def test_the_model_file_ships_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["aiplay.games"]
    assert any(fnmatch.fnmatch("sunken_city/value_model.json", p) for p in patterns)


def _late_position_with_a_find(distance_far):
    """Two players, the Sand Timer near; player 0 carries treasure 9, home at 1 step or far away."""
    game = aiplay.load("sunken_city", backend="reference")
    state = game.new_initial_state()
    state.treasure[0][9] = CARRIED
    state.treasure[1][9] = SECURED
    state.piles = [0, 0, 0, 0, 2, 0]
    state.draw = 4
    # Only the features read this lake: a one-cell piece on the corner cell (0) or at row 4, column 3.
    cell = 0 if not distance_far else 4 * 9 + 3
    state.cover[cell] = cell
    state.adventurer[0] = cell
    return state


def test_a_find_far_from_home_late_is_worth_less_than_one_at_the_door():
    near, far = _late_position_with_a_find(False), _late_position_with_a_find(True)
    assert VM.distance_home(near, 0) == 1 and VM.distance_home(far, 0) == 8
    assert near.heuristic_values()[0] > far.heuristic_values()[0]
