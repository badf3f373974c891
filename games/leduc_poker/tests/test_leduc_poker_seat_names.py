"""Leduc poker's chance moves as a seat sees them, on both engines.

Moved from ``tests/test_seat_transcripts.py`` (the deal's name and action id are this game's).
"""

from __future__ import annotations

import pytest

import aiplay
from aiplay.game import CHANCE


def test_chance_name_for_a_seat_on_both_engines() -> None:
    for backend in ("reference", "native"):
        state = aiplay.load("leduc_poker", backend=backend).new_initial_state()
        assert state.action_to_string(3, viewer=1) == "Deal a card to player 0"
        assert state.action_to_string(3, viewer=0) == state.action_to_string(3)
        assert state.redacted_action_name(3, 0) is None
        with pytest.raises(aiplay.AiplayError):
            state.action_to_string(3, viewer=2)
        with pytest.raises(aiplay.AiplayError):
            state.redacted_action_name(3, -1)
    assert CHANCE == -1
