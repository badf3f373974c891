"""Kuhn poker against OpenSpiel itself, step by step (moved from ``tests/test_openspiel_compare.py``).

Each engine claims to define its game exactly as OpenSpiel does. Here random
action sequences are played in both side by side, and at every step the
player to act, the legal actions, the chance outcomes and their
probabilities, terminality (and, for the poker games, every player's
information state string) must agree; at the end, so must the returns.
"""

from __future__ import annotations

import random
from typing import Any, Dict

import pytest

pyspiel = pytest.importorskip("pyspiel")

import aiplay  # noqa: E402  (after the skip: this file is only about OpenSpiel)


def _case(game: str, games: int, infostate: bool, **params: Any):
    label = ",".join(f"{k}={v}" for k, v in params.items()) or "defaults"
    return pytest.param(game, params, games, infostate, id=f"{game}[{label}]")


# (game, parameters, number of random playouts, compare information state strings)
# Pig's information state text is aiplay's own; the poker engines reproduce
# OpenSpiel's, which shows their information sets are the same.
CASES = [
    _case("kuhn_poker", 1000, True),
    _case("kuhn_poker", 1000, True, players=3),
    _case("kuhn_poker", 300, True, players=6),
]


def _play_side_by_side(name: str, params: Dict[str, Any], seed: int, infostate: bool) -> None:
    ours = aiplay.load(name, backend="reference", **params).new_initial_state()
    game = pyspiel.load_game(name, params)
    theirs = game.new_initial_state()
    rng = random.Random(seed)
    players = game.num_players()
    steps = 0
    while True:
        where = f"seed {seed}, step {steps}, state:\n{theirs}"
        assert ours.current_player() == theirs.current_player(), where
        assert ours.is_terminal() == theirs.is_terminal(), where
        assert ours.is_chance_node() == theirs.is_chance_node(), where
        assert ours.legal_actions() == list(theirs.legal_actions()), where
        if theirs.is_chance_node():
            expected = theirs.chance_outcomes()
            got = ours.chance_outcomes()
            assert [a for a, _ in got] == [a for a, _ in expected], where
            assert [p for _, p in got] == pytest.approx([p for _, p in expected]), where
        else:
            assert ours.chance_outcomes() == [], where
        if infostate:
            for player in range(players):
                assert ours.information_state_string(player) == theirs.information_state_string(player), where
        if theirs.is_terminal():
            break
        action = rng.choice(ours.legal_actions())
        ours.apply_action(action)
        theirs.apply_action(action)
        steps += 1
    assert ours.returns() == pytest.approx(list(theirs.returns())), f"seed {seed}"


@pytest.mark.parametrize("name, params, games, infostate", CASES)
def test_random_playouts_match_openspiel(name: str, params: Dict[str, Any], games: int, infostate: bool) -> None:
    for seed in range(games):
        _play_side_by_side(name, params, seed, infostate)


@pytest.mark.parametrize("name, params, games, infostate", CASES)
def test_game_properties_match_openspiel(name: str, params: Dict[str, Any], games: int, infostate: bool) -> None:
    ours = aiplay.load(name, backend="reference", **params)
    theirs = pyspiel.load_game(name, params)
    assert ours.num_players == theirs.num_players()
    assert ours.num_distinct_actions == theirs.num_distinct_actions()
    assert ours.max_chance_outcomes == theirs.max_chance_outcomes()
    assert ours.min_utility == theirs.min_utility()
    assert ours.max_utility == theirs.max_utility()


@pytest.mark.parametrize("name", ["kuhn_poker"])
def test_option_names_and_defaults_match_openspiel(name: str) -> None:
    ours = aiplay.load(name, backend="reference")
    assert ours.options == pyspiel.load_game(name).get_parameters()
