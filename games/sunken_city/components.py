"""Sunken City's component data: movement cards, treasures, dice and street piles.

Kept in one place so that a printing with other values changes one file.
"""

from __future__ import annotations

from typing import Dict, Tuple

#: The six movement cards of every player: (pieces to raise, movement points).
#: Chosen by the spec ("Movement cards"), since the printed values are unknown.
CARDS: Tuple[Tuple[int, int], ...] = ((4, 3), (3, 4), (2, 5), (1, 6), (0, 7), (3, 3))
NUM_CARDS = len(CARDS)
#: Treasure numbers of a full set (RB "Game Material": 1-10 and the chest 12).
ALL_TREASURES: Tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12)
CHEST = 12
NUM_BUILDINGS = 10
#: Neptune dice by player count (RB "Game Material"; spec "Neptune movement").
DICE: Dict[int, Tuple[int, ...]] = {2: (1, 2, 2, 3, 3, 4), 3: (0, 1, 2, 2, 3, 3), 4: (0, 1, 1, 2, 2, 3)}
MAX_DIE = 4
#: Streets on street space 1 by player count (RB "Game Preparation"); spaces
#: 2-5 hold one street each, space 6 none.
FIRST_PILE: Dict[int, int] = {2: 20, 3: 23, 4: 26}
NUM_PILES = 6
MAX_STREETS = 30
NUM_CHIPS = 8
