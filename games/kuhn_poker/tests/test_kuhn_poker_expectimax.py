"""ExpectimaxBot on a dealt kuhn_poker hand: the hidden-information flag, and what it reads when allowed."""

from __future__ import annotations

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import ExpectimaxBot


def test_hidden_information_needs_the_explicit_flag():
    state = aiplay.load("kuhn_poker").new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    with pytest.raises(InvalidOptionError, match="ISMCTS"):
        ExpectimaxBot(depth=3).choose(state)
    # Allowed, it reads the hidden card: with K against J it bets for value
    # or checks; either way it knows it wins, so its value is positive.
    analysis = ExpectimaxBot(depth=3, allow_hidden_information=True).analyse(state)
    assert analysis.value > 0
