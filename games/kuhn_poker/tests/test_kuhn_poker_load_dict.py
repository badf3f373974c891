"""Kuhn poker's kernel load_dict fed raw data raises (defence in depth).

Moved from ``tests/test_roundtrip.py`` (the raw data and fields are this game's).
"""

from __future__ import annotations

import pytest

import aiplay
from aiplay import InvalidStateError


@pytest.mark.parametrize("name, data, field", [
    ("kuhn_poker", {"cards": [0, 9], "betting": [], "pot": 2}, "state.cards[1]"),
    ("kuhn_poker", {"cards": [0, 1], "betting": [1, 1, 1, 1, 1], "pot": 2}, "state.betting[2]"),
])
def test_small_kernels_load_dict_rejects_unvalidated_data(name, data, field):
    """Defence in depth: a kernel's load_dict fed raw data raises (these used to write past its arrays)."""
    from aiplay._ext.kernel import NativeState
    game = aiplay.load(name, backend="native")
    with pytest.raises(InvalidStateError) as info:
        NativeState.from_dict(game.kernel, game, data)
    assert info.value.field == field
