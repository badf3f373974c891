"""Liar's Dice moves as phrases for turn summaries (:mod:`aiplay.views.narrate`)."""

from __future__ import annotations

import re
from typing import Optional


def past_tense(name: str) -> Optional[str]:
    """A bid such as ``3-4`` as "bid 3 x 4", and ``Liar`` as "called Liar" (None: not a move of this game)."""
    if name.lower() == "liar":
        return "called Liar"
    bid = re.fullmatch(r"(\d+)-(\d+)", name)
    if bid:
        quantity, face = bid.groups()
        return f"bid {quantity} x {face}"
    return None
