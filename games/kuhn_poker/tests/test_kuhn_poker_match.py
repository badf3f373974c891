"""A Kuhn poker match as one seat saw it: the other seat's deal hidden by name.

Moved from ``tests/test_match.py`` (the deal's name is this game's).
"""

from __future__ import annotations

import pytest

import aiplay


def test_history_and_record_as_one_seat_saw_them():
    match = aiplay.Match("kuhn_poker", seed=3)
    match.advance_chance()
    full = match.history
    seen = match.history_seen_by(1)
    assert [m.action for m in full] == [m.action for m in match.history_seen_by(None)]
    assert seen[0].action is None and seen[0].name == "Deal a card to player 0" != full[0].name
    assert seen[1] == full[1]  # its own card
    record = match.to_record(1)
    assert record["format"] == aiplay.match.SEAT_RECORD_FORMAT and record["viewer"] == 1
    assert "start" not in record and "final" not in record and "rng" not in record
    assert record["moves"][0] == {"ply": 0, "player": -1, "action": None, "name": "Deal a card to player 0",
                                  "turn": 0}
    with pytest.raises(aiplay.InvalidStateError, match="cannot be replayed"):
        aiplay.Match.from_record(record)
    for bad in (2, -1, "0", 1.0):
        with pytest.raises(aiplay.AiplayError):
            match.history_seen_by(bad)
        with pytest.raises(aiplay.AiplayError):
            match.to_record(bad)
