"""Generic contract tests: every registered game, on every engine, must keep the API's promises.

Each test plays many seeded random games and checks invariants at every step,
in the manner of OpenSpiel's random-simulation tests.
"""

from __future__ import annotations

import json
import math
import random

import pytest

import aiplay
from aiplay import CHANCE, TERMINAL, IllegalActionError, InvalidStateError

from aiplay.testing.cases import game_variants, variant_id

CASES = game_variants()
GAMES_PER_CASE = 30


def random_walk(game, seed):
    """Yield every state of one seeded random game (the same object, advancing)."""
    rng = random.Random(seed)
    for state in aiplay.random_walk(game.new_initial_state(), rng):
        yield state, rng


@pytest.fixture(params=CASES, ids=[variant_id(c) for c in CASES])
def game(request):
    name, backend, options = request.param
    return aiplay.load(name, backend=backend, **options)


def test_game_metadata(game):
    assert game.backend in ("reference", "native")
    assert game.num_players >= 1
    assert game.num_distinct_actions >= 1
    assert game.min_utility <= game.max_utility
    assert game.name in aiplay.games_available()


def test_random_playouts_keep_invariants(game):
    n = game.num_players
    for seed in range(GAMES_PER_CASE):
        for state, rng in random_walk(game, seed):
            player = state.current_player()
            assert player == TERMINAL or player == CHANCE or 0 <= player < n
            legal = state.legal_actions()
            if player == TERMINAL:
                assert legal == [] and state.chance_outcomes() == []
                returns = state.returns()
                assert len(returns) == n
                assert all(game.min_utility - 1e-9 <= r <= game.max_utility + 1e-9 for r in returns)
                continue
            assert legal, "a state that is not terminal must have legal actions"
            heuristic = state.heuristic_values()
            assert len(heuristic) == n
            assert all(game.min_utility <= v <= game.max_utility for v in heuristic)
            assert legal == sorted(set(legal))
            assert state.returns() == [0.0] * n, "returns are paid only at the end"
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                assert all(p > 0 for _, p in outcomes)
                assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
                assert sorted(a for a, _ in outcomes) == legal
                assert all(0 <= a < game.max_chance_outcomes for a in legal)
            else:
                assert state.chance_outcomes() == []
                assert all(0 <= a < game.num_distinct_actions for a in legal)


def test_clones_are_independent(game):
    for seed in range(5):
        for state, rng in random_walk(game, seed):
            if state.is_terminal():
                continue
            before = state.to_json()
            copy = state.clone()
            assert copy.to_json() == before
            copy.apply_action(copy.legal_actions()[-1])
            assert state.to_json() == before, "changing a clone changed the original"


def test_json_round_trip(game):
    for seed in range(10):
        for state, _ in random_walk(game, seed):
            text = state.to_json()
            doc = json.loads(text)
            assert doc["format"] == "aiplay-state" and doc["version"] == 1 and doc["game"] == game.name
            loaded = game.state_from_json(text)
            assert loaded.to_json() == text
            assert loaded.current_player() == state.current_player()
            assert loaded.legal_actions() == state.legal_actions()


def test_determinize_keeps_the_observers_information(game):
    for seed in range(10):
        for state, rng in random_walk(game, seed):
            if state.is_terminal():
                continue
            for observer in range(game.num_players):
                key = state.information_state_key(observer)
                text = state.information_state_string(observer)
                sample = state.determinize(observer, random.Random(seed * 31 + observer))
                assert sample.information_state_key(observer) == key
                assert sample.information_state_string(observer) == text
                assert sample.current_player() == state.current_player()
                if observer == state.current_player():
                    # The acting player knows everything its legal actions depend on.
                    assert sample.legal_actions() == state.legal_actions()


def test_illegal_actions_are_rejected_without_mutation(game):
    for seed in range(5):
        for state, rng in random_walk(game, seed):
            before = state.to_json()
            legal = set(state.legal_actions())
            for bad in (-1, game.num_distinct_actions + game.max_chance_outcomes, 10**12, "1", None, 1.0):
                if bad in legal and isinstance(bad, int):
                    continue
                with pytest.raises(IllegalActionError) as info:
                    state.apply_action(bad)
                assert repr(bad) in str(info.value)
                assert state.to_json() == before


def test_action_strings_parse_back(game):
    for seed in range(5):
        for state, _ in random_walk(game, seed):
            for action in state.legal_actions():
                text = state.action_to_string(action)
                assert isinstance(text, str) and text
                assert state.string_to_action(text) == action


def test_views_are_json_ready(game):
    for seed in range(3):
        for state, _ in random_walk(game, seed):
            for player in range(game.num_players):
                json.dumps(state.view(player))


def test_malformed_json_is_rejected_with_the_field_named(game):
    state = game.new_initial_state()
    doc = json.loads(state.to_json())
    cases = {
        "version": dict(doc, version=99),
        "game": dict(doc, game="not_a_game"),
        "options": dict(doc, options={"bogus": 1}),
        "state": dict(doc, state=[]),
        "state.bogus_field": dict(doc, state=dict(doc["state"], bogus_field=1)),
    }
    for field, bad in cases.items():
        with pytest.raises(InvalidStateError) as info:
            game.state_from_json(json.dumps(bad))
        assert info.value.field == field
    with pytest.raises(InvalidStateError):
        game.state_from_json("{not json")
    first_field = sorted(doc["state"])[0]
    broken = dict(doc, state={k: v for k, v in doc["state"].items() if k != first_field})
    with pytest.raises(InvalidStateError) as info:
        game.state_from_json(json.dumps(broken))
    assert info.value.field == f"state.{first_field}"


def test_numpy_integers_are_actions(game):
    import numpy as np

    state = game.new_initial_state()
    action = state.legal_actions()[0]
    expected = state.clone()
    expected.apply_action(action)
    state.apply_action(np.int64(action))
    assert state.to_json() == expected.to_json()
