"""Groom Lake's tensors: the seat's view (``view.md`` in its folder), one slice per field of its schema.

The information-state string of Groom Lake is the view's content (not a move
history), so both tensors are the same encoding of ``view(p)``
(:class:`aiplay.viewtensors.ViewTensors`). This module gives the bounds the
view schema leaves open, from the rules (``rules.py``, ``components.py``):

* cards: at most all 64 cards anywhere (a type at most its copies); the deal
  draws at most 12 a seat;
* tiles: at most all 49 on the map; a scout holds the two it draws;
* life: the start plus every Recovery gain (1 + 2 + ... + 6 = 21);
* dice: one a contributed card plus the hazard's, each at most 6;
* seats waiting: one a living seat in a vote or a hazard; in a share, one
  per card handed out (at most all cards);
* statistics (hazards joined, items contributed): at most one a move, so at
  most the game's move bound (``max_game_length``).
"""

from __future__ import annotations

from typing import Dict, Tuple

from aiplay.game import Game
from aiplay.views.viewtensors import ViewTensors

from .components import (
    FIRST_DEAL, NUM_CARDS, NUM_RECOVERY, NUM_STACKS, NUM_TILES, SCOUT_DRAW, SECOND_DEAL, START_LIFE, TYPE_COUNTS,
)
from .view import SCHEMA

#: Life gained from Recovery cards over a game: 1 + 2 + ... + 6.
RECOVERY_GAINS = sum(range(1, NUM_RECOVERY + 1))
DIE_FACES = 6


def limits(game: Game) -> Dict[str, Tuple[int, int]]:
    """The bounds of the view's open-ended fields for ``game``'s player count."""
    n = game.num_players
    copies = max(TYPE_COUNTS)
    dealt = (FIRST_DEAL + SECOND_DEAL) * n
    dice = NUM_CARDS + dealt
    moves = game.max_game_length
    return {
        "winners": (0, n), "deck_size": (0, NUM_CARDS), "refresh_size": (0, NUM_CARDS),
        "discard_stack": (0, NUM_CARDS), "recoveries_played": (0, NUM_RECOVERY), "cards_dealt": (0, dealt),
        "kept": (0, copies), "kept_size": (0, NUM_CARDS), "investigation_cards": (0, copies),
        "investigation_size": (0, NUM_CARDS), "handout_size": (0, NUM_CARDS),
        "tile_stacks": (NUM_STACKS, NUM_STACKS), "held_tiles": (0, SCOUT_DRAW), "map": (1, NUM_TILES),
        "map[].red_dots": (0, 4), "waiting_seats": (0, NUM_CARDS), "count": (0, dice),
        "total": (0, DIE_FACES * dice), "target": (-1, NUM_TILES - 1),
        "ballots": (0, n), "seats": (n, n), "seats[].life": (0, START_LIFE[n] + RECOVERY_GAINS),
        "seats[].hand_size": (0, NUM_CARDS), "seats[].hand": (0, copies), "seats[].known_in_hand": (0, copies),
        "seats[].hazards_joined": (0, moves), "seats[].items_contributed": (0, moves),
    }


TENSORS = ViewTensors(SCHEMA, limits)
