"""What each Pig move means (:mod:`aiplay.views.guide`)."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from aiplay.views.meanings import meaning_from

MEANINGS = (
    (r"roll", "roll the die: add it to this turn's total, but a 1 loses the turn's total"),
    (r"stop", "hold: bank this turn's total into your score and pass the die"),
    (r"roll (\d)", "the die shows {1}"),
)


def move_meaning(name: str, view: Mapping[str, Any]) -> Optional[str]:
    """One line for the move called ``name``."""
    return meaning_from(MEANINGS, name)
