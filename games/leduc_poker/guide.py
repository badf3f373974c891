"""What each Leduc poker move means (:mod:`aiplay.views.guide`)."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from aiplay.views.meanings import meaning_from

MEANINGS = (
    (r"call", "match the current bet (or check when there is none)"),
    (r"raise", "bet more: 2 chips in round one, 4 in round two"),
    (r"fold", "give up the hand and the pot"),
)


def move_meaning(name: str, view: Mapping[str, Any]) -> Optional[str]:
    """One line for the move called ``name``."""
    return meaning_from(MEANINGS, name)
