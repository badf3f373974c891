"""Leduc poker against OpenSpiel itself, step by step (moved from ``tests/test_openspiel_compare.py``).

Each engine claims to define its game exactly as OpenSpiel does. Here random
action sequences are played in both side by side, and at every step the
player to act, the legal actions, the chance outcomes and their
probabilities, terminality (and, for the poker games, every player's
information state string) must agree; at the end, so must the returns.
"""

from __future__ import annotations

from typing import Any, Dict

import pytest

pyspiel = pytest.importorskip("pyspiel")

from aiplay.testing.openspiel_agreement import (  # noqa: E402  (after the skip: only about OpenSpiel)
    check_option_defaults, check_properties, play_side_by_side,
)


def _case(game: str, games: int, infostate: bool, **params: Any):
    label = ",".join(f"{k}={v}" for k, v in params.items()) or "defaults"
    return pytest.param(game, params, games, infostate, id=f"{game}[{label}]")


# (game, parameters, number of random playouts, compare information state strings)
# Pig's information state text is aiplay's own; the poker engines reproduce
# OpenSpiel's, which shows their information sets are the same.
CASES = [
    _case("leduc_poker", 1000, True),
    _case("leduc_poker", 1000, True, players=3),
    _case("leduc_poker", 400, True, players=4, starting_player=2),
    _case("leduc_poker", 400, True, suit_isomorphism=True),
    _case("leduc_poker", 400, True, players=3, suit_isomorphism=True),
    _case("leduc_poker", 400, True, action_mapping=True),
]


@pytest.mark.parametrize("name, params, games, infostate", CASES)
def test_random_playouts_match_openspiel(name: str, params: Dict[str, Any], games: int, infostate: bool) -> None:
    for seed in range(games):
        play_side_by_side(name, params, seed, infostate)


@pytest.mark.parametrize("name, params, games, infostate", CASES)
def test_game_properties_match_openspiel(name: str, params: Dict[str, Any], games: int, infostate: bool) -> None:
    check_properties(name, params)


@pytest.mark.parametrize("name", ["leduc_poker"])
def test_option_names_and_defaults_match_openspiel(name: str) -> None:
    check_option_defaults(name)
