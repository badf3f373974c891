"""Pig's loader: what the fuzzers found, and its kernel's load_dict fed raw data.

Moved from ``tests/test_roundtrip.py`` (the raw data and fields are this game's).
"""

from __future__ import annotations

import pytest

import aiplay
from aiplay import InvalidStateError


def test_pig_no_roll_is_in_the_air_past_winscore():
    """Found by mutation fuzzing: a rolling state at winscore loaded, and its roll gave a state that did not reload."""
    for backend in ("reference", "native"):
        game = aiplay.load("pig", backend=backend, winscore=20)
        doc = {"scores": [8, 11], "turn_total": 16, "turn_player": 0, "rolling": True, "total_moves": 21}
        with pytest.raises(InvalidStateError) as info:
            game.state_from_dict(doc)
        assert info.value.field == "state.rolling"
        doc["rolling"] = False  # over winscore by the last roll: stopping is then forced, and legal
        assert game.state_from_dict(doc).legal_actions() == [1]


@pytest.mark.parametrize("name, data, field", [
    ("pig", {"scores": [0, 0], "turn_total": 0, "turn_player": 7, "rolling": False, "total_moves": 0},
     "state.turn_player"),
])
def test_small_kernels_load_dict_rejects_unvalidated_data(name, data, field):
    """Defence in depth: a kernel's load_dict fed raw data raises (these used to write past its arrays)."""
    from aiplay._ext.kernel import NativeState
    game = aiplay.load(name, backend="native")
    with pytest.raises(InvalidStateError) as info:
        NativeState.from_dict(game.kernel, game, data)
    assert info.value.field == field
