"""Groom Lake's learned evaluation: the file, the reference function, and the kernel's port of it."""

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
from aiplay.games.groom_lake import value_model as VM
from aiplay.games.groom_lake.components import ALIEN

ROOT = Path(__file__).resolve().parents[3]
#: Every option set the game has: 3 to 6 players, with and without the Half-Win variant.
OPTION_SETS = [{"players": n, "half_win": h} for n in (3, 4, 5, 6) for h in (False, True)]


def _positions(options, seed, every=0.1):
    """Native states along a seeded game of the policy with random moves (3 in 10), a share of them."""
    game = aiplay.load("groom_lake", backend="native", **options)
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


def _agree(native, half=True):
    """The same position on both engines, the Alien dead and (``half``) a Half-Win agreed."""
    data = native.to_dict()
    alien = data["roles"].index(ALIEN) if ALIEN in data["roles"] else None
    if alien is None:
        return None
    data["life"][alien] = 0
    data["half_agreed"] = half
    game = native.game
    try:
        return game.state_from_dict(data)
    except aiplay.AiplayError:
        return None


def _same(native):
    reference = native.to_reference()
    expected = VM.learned_values(reference)
    assert reference.heuristic_values() == expected
    got = native.heuristic_values()
    assert len(got) == len(expected)
    assert max(abs(a - b) for a, b in zip(got, expected)) <= 1e-9, (native.to_dict(), got, expected)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_kernel_evaluates_as_the_reference_engine(options):
    checked = 0
    for seed in range(4):
        for native in _positions(options, seed):
            _same(native)
            checked += 1
    assert checked > 50


def test_the_kernel_agrees_with_a_half_win_agreed():
    """The Half-Win branch (equal shares of the living Team), which the policy's games rarely reach."""
    checked = 0
    for players in (3, 4, 5, 6):
        for native in _positions({"players": players, "half_win": True}, seed=3)[5:-1:4]:
            agreed = _agree(native)
            if agreed is None or agreed.is_terminal():
                continue
            _same(agreed)
            values = agreed.heuristic_values()
            team = [p for p in range(players) if agreed.to_dict()["life"][p] > 0
                    and agreed.to_dict()["roles"][p] != ALIEN]
            assert len({round(values[p], 12) for p in team}) == 1  # equal shares
            checked += 1
    assert checked >= 4


def test_values_are_expected_returns_and_the_returns_at_the_end():
    for options in OPTION_SETS[::2]:
        states = _positions(options, seed=11)
        for state in states[:-1]:
            values = state.heuristic_values()
            assert abs(sum(values)) < 1e-9 and all(-1.0 <= v <= 1.0 for v in values)
        assert states[-1].is_terminal() and states[-1].heuristic_values() == states[-1].returns()


def test_the_values_follow_the_weights_of_the_file():
    """The escape is sigmoid(w . x), w read from value_model.json by name; other weights give other values."""
    model = json.loads(Path(VM.MODEL_PATH).read_text(encoding="utf-8"))
    weights = [model["weights"][name] for name in VM.FEATURES]
    state = _positions({"players": 4}, seed=5)[12].to_reference()
    z = sum(w * x for w, x in zip(weights, VM.escape_features(state)))
    assert VM.escape_probability(state) == pytest.approx(1.0 / (1.0 + math.exp(-z)), abs=1e-12)
    zero = VM.learned_values(state, [0.0] * len(VM.FEATURES))
    assert zero != pytest.approx(state.heuristic_values())
    # Zero weights: an even chance of an escape, split evenly over the living Team.
    assert VM.escape_probability(state, [0.0] * len(VM.FEATURES)) == 0.5


def test_zeroed_weights_reach_the_kernel_when_it_is_made(monkeypatch):
    """The kernel copies value_model.WEIGHTS when it is made (what the zero-weight control relies on)."""
    native = _positions({"players": 3}, seed=2)[8]
    monkeypatch.setattr(VM, "WEIGHTS", tuple(0.0 for _ in VM.FEATURES))
    game = aiplay.load("groom_lake", backend="native", players=3)
    again = game.state_from_dict(native.to_dict())
    reference = again.to_reference()
    expected = VM.learned_values(reference, VM.WEIGHTS)
    assert again.heuristic_values() == pytest.approx(expected, abs=1e-12)


def test_the_static_weights_give_the_old_static_evaluation():
    """STATIC_WEIGHTS (the control "today's evaluation" of the strength script) is heuristic.static_values."""
    from aiplay.games.groom_lake.heuristic import static_values
    checked = 0
    for options in OPTION_SETS[::3]:
        for native in _positions(options, seed=4)[:-1]:
            state = native.to_reference()
            got = VM.learned_values(state, VM.STATIC_WEIGHTS)
            assert got == pytest.approx(static_values(state), abs=1e-9)
            checked += 1
    assert checked > 20


def test_the_model_file_names_every_feature_and_its_provenance():
    model = json.loads(Path(VM.MODEL_PATH).read_text(encoding="utf-8"))
    assert model["features"] == list(VM.FEATURES) and set(model["weights"]) == set(VM.FEATURES)
    provenance = model["provenance"]
    for key in ("seed", "games", "positions", "commit", "command"):
        assert provenance[key] not in (None, "", 0), key
    assert "groom_lake_value_fit.py" in provenance["command"]
    assert model["held_out"]["log_loss"] < model["held_out"]["static_log_loss"]


def test_the_model_file_ships_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["aiplay.games"]
    assert any(fnmatch.fnmatch("groom_lake/value_model.json", p) for p in patterns)


def test_a_dead_team_member_lowers_the_escape():
    """Monotone where it must be: losing a Human costs the Team (and so the Alien gains)."""
    for native in _positions({"players": 4}, seed=7)[10:-1:6]:
        data = native.to_dict()
        humans = [p for p in range(4) if data["roles"][p] not in (ALIEN,) and data["life"][p] > 0]
        if len(humans) < 2 or native.is_terminal():
            continue
        before = native.to_reference()
        data["life"][humans[0]] = 0
        try:
            after = native.game.state_from_dict(data).to_reference()
        except aiplay.AiplayError:
            continue
        assert VM.escape_probability(after) < VM.escape_probability(before)
        return
    pytest.fail("no position with two living Humans was found")
