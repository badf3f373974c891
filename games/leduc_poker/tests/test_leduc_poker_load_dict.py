"""Leduc poker's kernel load_dict fed raw data raises (defence in depth).

Moved from ``tests/test_roundtrip.py`` (the raw data and fields are this game's).
"""

from __future__ import annotations

import pytest

import aiplay
from aiplay import InvalidStateError


@pytest.mark.parametrize("name, data, field", [
    ("leduc_poker", {"private_cards": [0, 40], "public_card": None, "round1": [], "round2": [], "pot": 2,
                     "contributions": [1, 1]}, "state.private_cards[1]"),
    ("leduc_poker", {"private_cards": [0, 1], "public_card": None, "round1": [], "round2": [1], "pot": 2,
                     "contributions": [1, 1]}, "state.round2[0]"),
])
def test_small_kernels_load_dict_rejects_unvalidated_data(name, data, field):
    """Defence in depth: a kernel's load_dict fed raw data raises (these used to write past its arrays)."""
    from aiplay._ext.kernel import NativeState
    game = aiplay.load(name, backend="native")
    with pytest.raises(InvalidStateError) as info:
        NativeState.from_dict(game.kernel, game, data)
    assert info.value.field == field
