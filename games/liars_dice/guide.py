"""What each Liar's Dice move means (:mod:`aiplay.views.guide`)."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from aiplay.views.meanings import meaning_from

MEANINGS = (
    (r"(\d+)-(\d+)", "bid: at least {1} dice among everyone's show a {2} (the highest face is wild)"),
    (r"liar", "call the last bid a lie: all dice are counted, and the bidder or you loses"),
    (r"roll (\d+)", "a die comes up {1}"),
)


def move_meaning(name: str, view: Mapping[str, Any]) -> Optional[str]:
    """One line for the move called ``name``."""
    return meaning_from(MEANINGS, name)
