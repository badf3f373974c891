"""What each Kuhn poker move means (:mod:`aiplay.views.guide`)."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from aiplay.views.meanings import meaning_from

MEANINGS = (
    (r"pass", "check (no bet yet) or fold (after a bet)"),
    (r"bet", "put one more chip in (after a bet: call it)"),
    (r"deal (\w) to player (\d+)", "player {2} is dealt the {1}"),
)


def move_meaning(name: str, view: Mapping[str, Any]) -> Optional[str]:
    """One line for the move called ``name``."""
    return meaning_from(MEANINGS, name)
