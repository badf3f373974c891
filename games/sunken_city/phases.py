"""Sunken City's state vocabulary: the phases of a turn, treasure status and the village."""

from __future__ import annotations

PH_CARD, PH_CHOOSE, PH_RAISE, PH_MOVE, PH_NEPTUNE, PH_ROLL, PH_OVER = range(7)
PHASE_NAMES = ("card", "choose", "raise", "move", "neptune", "roll", "over")

# Treasure status, per player and treasure number.
ROOF, CARRIED, SECURED, ABSENT = 0, 1, 2, -1

VILLAGE = -1  # adventurer position when at home
