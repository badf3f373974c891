"""A game against OpenSpiel's own definition of it, step by step (for the validation games' tests).

A game that claims to be defined exactly as OpenSpiel defines it is played side by
side with ``pyspiel`` on random action sequences: at every step the player to act,
the legal actions, the chance outcomes and their probabilities, terminality (and,
asked, every player's information state string) must agree; at the end, so must
the returns. Needs the optional ``open-spiel`` package (the ``compare`` extra).
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, Sequence

from aiplay.registry import load

try:  # optional: only these checks need it (pip install 'aiplay[compare]')
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # pragma: no cover - the tests skip first
    pyspiel = None


def _close(ours: Sequence[float], theirs: Sequence[float]) -> bool:
    return len(ours) == len(theirs) and all(math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)
                                            for a, b in zip(ours, theirs))


def play_side_by_side(name: str, params: Dict[str, Any], seed: int, infostate: bool) -> None:
    """One seeded random game of ``name`` in both engines; AssertionError at the first difference."""
    ours = load(name, backend="reference", **params).new_initial_state()
    game = pyspiel.load_game(name, params)
    theirs = game.new_initial_state()
    rng = random.Random(seed)
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
            assert _close([p for _, p in got], [p for _, p in expected]), where
        else:
            assert ours.chance_outcomes() == [], where
        if infostate:
            for player in range(game.num_players()):
                assert ours.information_state_string(player) == theirs.information_state_string(player), where
        if theirs.is_terminal():
            break
        action = rng.choice(ours.legal_actions())
        ours.apply_action(action)
        theirs.apply_action(action)
        steps += 1
    assert _close(ours.returns(), list(theirs.returns())), f"seed {seed}"


def check_properties(name: str, params: Dict[str, Any]) -> None:
    """The game's constants (players, action and chance spaces, utility bounds) are OpenSpiel's."""
    ours = load(name, backend="reference", **params)
    theirs = pyspiel.load_game(name, params)
    assert ours.num_players == theirs.num_players()
    assert ours.num_distinct_actions == theirs.num_distinct_actions()
    assert ours.max_chance_outcomes == theirs.max_chance_outcomes()
    assert ours.min_utility == theirs.min_utility()
    assert ours.max_utility == theirs.max_utility()


def check_option_defaults(name: str) -> None:
    """The game's option names and defaults are OpenSpiel's parameters."""
    assert load(name, backend="reference").options == pyspiel.load_game(name).get_parameters()


__all__ = ["check_option_defaults", "check_properties", "play_side_by_side"]
