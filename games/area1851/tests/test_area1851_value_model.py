"""Area 1851's learned evaluation: the file, the reference function, and the kernel's port of it."""

from __future__ import annotations

import fnmatch
import json
import math
import random
import tomllib
from pathlib import Path

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.game import sample_chance_outcome
from aiplay.games.area1851 import value_model as VM
from aiplay.games.area1851.cards import TINKER
from aiplay.games.area1851.heuristic import static_values

ROOT = Path(__file__).resolve().parents[3]
#: Every option the game has: players 2-5, and the block size from 1 to 6.
OPTION_SETS = [{"players": 2}, {"players": 3}, {"players": 4}, {"players": 5}, {"players": 2, "block": 1},
               {"players": 3, "block": 2}, {"players": 4, "block": 6}, {"players": 5, "block": 3},
               {"players": 2, "block": 5}]


def _positions(options, seed, every=0.04):
    """Native states along a seeded game of the policy with random moves (3 in 10), a share of them."""
    game = aiplay.load("area1851", backend="native", **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            if rng.random() < every / 4:
                out.append(state.clone())
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if rng.random() < every:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal) if rng.random() < 0.3 else game.kernel.policy_choice(state, rng.getrandbits(60)))
    out.append(state)
    return game, out


def _random_weights(seed):
    """Weights with every feature in play (the shipped ones could hide a feature that weighs 0)."""
    rng = random.Random(seed)
    return [rng.uniform(-1.5, 1.5) for _ in VM.FEATURES]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_the_kernel_evaluates_as_the_reference_engine(options):
    checked = 0
    for seed in range(3):
        game, states = _positions(options, seed)
        weights = _random_weights(seed)
        try:
            for native in states:
                reference = native.to_reference()
                # The default evaluation of both engines (the old one while the model is not in use).
                expected = reference.heuristic_values()
                got = native.heuristic_values()
                assert len(got) == len(expected)
                assert max(abs(a - b) for a, b in zip(got, expected)) <= 1e-9, (native.to_dict(), got, expected)
                # The shipped models, then other weights: the same features, each of them weighing.
                for w in (*VM.WEIGHTS_BY_PLAYERS.values(), weights):
                    game.kernel.set_value_weights(w)
                    got = native.heuristic_values()
                    expected = VM.learned_values(reference, w)
                    assert max(abs(a - b) for a, b in zip(got, expected)) <= 1e-9, (native.to_dict(), got, expected)
                game.kernel.set_value_weights(VM.default_weights(game.num_players))
                checked += 1
        finally:
            game.kernel.set_value_weights(VM.default_weights(game.num_players))
    assert checked > 20


def test_the_model_is_in_use_at_two_and_three_players_only_and_both_engines_say_so():
    """Fitted and measured at two and three players (issue 41, RESULTS.md); at 4-5 the old evaluation stays."""
    assert VM.IN_USE_PLAYERS == frozenset({2, 3}) == frozenset(VM.WEIGHTS_BY_PLAYERS)
    assert VM.default_weights(2) == VM.WEIGHTS and all(VM.default_weights(n) is None for n in (4, 5))
    assert VM.default_weights(3) == VM.WEIGHTS_BY_PLAYERS[3] != VM.WEIGHTS  # a model of its own
    for players in (2, 3):
        game, states = _positions({"players": players}, seed=3)
        own = VM.WEIGHTS_BY_PLAYERS[players]
        for native in states[:-1:7]:
            reference = native.to_reference()
            assert reference.heuristic_values() == VM.learned_values(reference, own)
            assert reference.heuristic_values() != static_values(reference) or reference.current_player() < 0
            assert native.heuristic_values() == pytest.approx(VM.learned_values(reference, own), abs=1e-12)
    for players in (4, 5):
        game, states = _positions({"players": players}, seed=3)
        for native in states[:-1:9]:
            reference = native.to_reference()
            assert reference.heuristic_values() == static_values(reference)
            assert native.heuristic_values() == pytest.approx(static_values(reference), abs=1e-12)


def test_the_kernel_can_score_with_the_old_evaluation_and_refuses_bad_weights():
    game, states = _positions({"players": 3}, seed=4)
    try:
        game.kernel.set_value_weights(None)
        for native in states[:-1:5]:
            assert native.heuristic_values() == pytest.approx(static_values(native.to_reference()), abs=1e-12)
        with pytest.raises(InvalidOptionError, match="22 weights"):
            game.kernel.set_value_weights([1.0, 2.0])
        with pytest.raises((InvalidOptionError, TypeError, ValueError)):
            game.kernel.set_value_weights(["x"] * len(VM.FEATURES))
    finally:
        game.kernel.set_value_weights(VM.default_weights(game.num_players))
    reference = states[10].to_reference()
    assert states[10].heuristic_values() == pytest.approx(reference.heuristic_values(), abs=1e-9)


def test_values_are_expected_returns_and_the_returns_at_the_end():
    for options in OPTION_SETS[:4]:
        n = options["players"]
        game, states = _positions(options, seed=11)
        try:
            game.kernel.set_value_weights(VM.WEIGHTS)
            for state in states[:-1]:
                values = state.heuristic_values()
                assert abs(sum(values)) < 1e-9 and all(-1.0 / (n - 1) - 1e-12 <= v <= 1.0 for v in values)
            assert states[-1].is_terminal() and states[-1].heuristic_values() == states[-1].returns()
        finally:
            game.kernel.set_value_weights(VM.default_weights(game.num_players))


def test_the_values_follow_the_weights_of_the_file():
    """The shipped values are the model's: sigmoid(w . x), shares of the sum, mapped to expected returns."""
    model = json.loads(Path(VM.model_path(3)).read_text(encoding="utf-8"))  # the three-player model
    weights = [model["weights"][name] for name in VM.FEATURES]
    _, states = _positions({"players": 3}, seed=5)
    state = states[10].to_reference()
    probs = [1.0 / (1.0 + math.exp(-sum(w * x for w, x in zip(weights, VM.features(state, p))))) for p in range(3)]
    shares = [p / sum(probs) for p in probs]
    assert VM.learned_values(state) == pytest.approx([(3 * s - 1) / 2 for s in shares], abs=1e-12)
    # Zero weights give every seat an even share, i.e. 0: nothing is hard-wired.
    assert VM.learned_values(state, [0.0] * len(VM.FEATURES)) == pytest.approx([0.0] * 3, abs=1e-12)


@pytest.mark.parametrize("players", sorted(VM.MODEL_FILES))
def test_the_model_file_names_every_feature_and_its_provenance(players):
    model = json.loads(Path(VM.model_path(players)).read_text(encoding="utf-8"))
    assert model["features"] == list(VM.FEATURES) and set(model["weights"]) == set(VM.FEATURES)
    provenance = model["provenance"]
    for key in ("seed", "games", "positions", "commit", "command", "search_iterations"):
        assert provenance[key] not in (None, "", 0), key
    assert "area1851_value_fit.py" in provenance["command"] and provenance["players"] == players
    held = model["held_out"]
    assert held["log_loss"] < held["old_evaluation_log_loss"]
    assert held["log_loss"] < held["old_evaluation_refitted_log_loss"]


def test_the_model_file_ships_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["aiplay.games"]
    for name in VM.MODEL_FILES.values():
        assert any(fnmatch.fnmatch(f"area1851/{name}", p) for p in patterns), name


def test_features_read_the_table_the_lead_and_the_game_played():
    """Hand-built checks of a few features (a gadget with one of two sockets filled; scores; events)."""
    game = aiplay.load("area1851", backend="reference", players=2, block=4)
    state = game.new_initial_state()
    gadget = next(t for t, info in enumerate(TINKER) if info.is_gadget and len(info.sockets) == 2)
    mod = next(t for t, info in enumerate(TINKER) if not info.is_gadget and info.sockets[0] == TINKER[gadget].sockets[0])
    state.players[0].gadgets = [[gadget, mod, -1]]
    state.players[0].score = 17
    state.players[1].score = 12
    state.events = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]  # 15 events: all turns played
    x = dict(zip(VM.FEATURES, VM.features(state, 0)))
    assert x["score lead / 10"] == 0.5 and x["late"] == 1.0 and x["score lead x late squared"] == 0.5
    assert x["table / 10"] == (TINKER[gadget].rating + TINKER[mod].rating) / 10
    assert x["full gadgets"] == 0.0 and x["empty sockets / 3"] == 1 / 3
    y = dict(zip(VM.FEATURES, VM.features(state, 1)))
    assert y["score lead / 10"] == -0.5 and y["opponents' best table / 10"] == x["table / 10"]
