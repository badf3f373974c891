"""MCTSBot on kuhn_poker: a complete tiny tree under a nodes budget, and the hidden-information guard."""

from __future__ import annotations

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import MCTSBot


def test_nodes_budget_ends_even_when_the_tree_is_complete():
    # Kuhn poker searched as a cheat has a tiny finite tree: a nodes budget
    # counting tree nodes would never be reached; states stepped into are.
    state = aiplay.load("kuhn_poker", backend="reference").new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    analysis = MCTSBot(nodes=5000, seed=0, allow_hidden_information=True).analyse(state)
    assert analysis.counters["tree_nodes"] < 20
    assert 5000 <= analysis.counters["nodes"] < 5010


def test_refuses_hidden_information_unless_allowed():
    state = aiplay.load("kuhn_poker", backend="reference").new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    with pytest.raises(InvalidOptionError, match="ISMCTSBot"):
        MCTSBot(iterations=10).choose(state)
    # The cheating baseline runs and returns a legal action.
    assert MCTSBot(iterations=50, seed=0, allow_hidden_information=True).choose(state) in (0, 1)
