"""Area 51's tensors: the seat's view (``view.md`` in its folder), one slice per field of its schema.

The information-state string of Area 51 is the view's content (not a move
history), so both tensors are the same encoding of ``view(p)``
(:class:`aiplay.viewtensors.ViewTensors`). This module gives the bounds the
view schema leaves open, from the rules (``rules.py``, ``components.py``):

* turns: the end is triggered at the latest after ``max_turns`` regular turns,
  then every seat plays one more (``turns_left`` counts those down);
* cards: at most all 104 cards (40 start cards) are anywhere, and a type has
  at most ``max(TOTAL_COUNTS)`` copies; a hangar pile holds at most all cards;
* points: a stored artifact scores its value (at most 4) and goes to the
  discards; to be stored again a card must come back through the deck or the
  row into a hand, which only a collect does (at most 3 cards a turn, at most
  ``max_turns + n`` turns with the last ones). So at most 104 first stores
  plus 3 per turn (counted with ``2n`` extra turns, generously); the highest
  bunkers give at most 5 + 3 + 2 per region.

The information state also holds the decision in progress, which the
documented view leaves out: the build or vehicle being played (the engine's
context) and the bunkers already loaded in a pick-up. Both tensors add them,
read from the seat's own ``view(p)["internal"]``.
"""

from __future__ import annotations

from typing import Dict, Tuple

from aiplay.game import Game
from aiplay.views.schema import Arr, Field, Int
from aiplay.views.viewtensors import ViewTensors

from .components import (
    FACE_UP, HIGHEST_BUNKER_POINTS, LARGE, MARKER_COPIES, MAX_HANGARS, MAX_SPACES, MAX_VALUE,
    MAX_VEHICLE_NUMBER, NUM_CARDS, NUM_COLOURS, NUM_REGIONS, NUM_START_CARDS, NUM_VEHICLES, ROUTES, SMALL,
    TAKE_PER_COLLECT, TOTAL_COUNTS, TOWERS_PER_COLOUR,
)
from .view import SCHEMA


def limits(game: Game) -> Dict[str, Tuple[int, int]]:
    """The bounds of the view's open-ended fields for ``game``'s player count and ``max_turns``."""
    n = game.num_players
    max_turns = game.options["max_turns"]
    copies = max(TOTAL_COUNTS)
    stored = NUM_CARDS + TAKE_PER_COLLECT * (max_turns + 2 * n)
    points = MAX_VALUE * stored
    bonus = NUM_REGIONS * sum(HIGHEST_BUNKER_POINTS)
    owners = 4 if n == 2 else n
    return {
        "turns_played": (0, max_turns + n), "turns_left": (0, n),
        "row": (0, FACE_UP), "discards": (0, copies), "picked_up": (0, copies),
        "deck.start_top": (0, NUM_START_CARDS), "deck.start_remainder": (0, NUM_START_CARDS),
        "deck.main": (0, NUM_CARDS),
        "towers_left": (0, TOWERS_PER_COLOUR), "number_markers_left[]": (0, max(MARKER_COPIES)),
        "regions": (NUM_REGIONS, NUM_REGIONS), "regions[].bunkers": (SMALL[0], MAX_SPACES),
        "regions[].hangars": (SMALL[1], MAX_HANGARS), "regions[].hangars[]": (0, NUM_CARDS),
        "vehicles": (NUM_VEHICLES, NUM_VEHICLES),
        "owners": (owners, owners), "owners[].points": (0, points), "owners[].highest_bunker_points": (0, bonus),
        "seats": (n, n), "seats[].owners": (owners // n, owners // n), "seats[].hand_size": (0, NUM_CARDS),
        "seats[].hand": (0, copies), "seats[].known_in_hand": (0, copies), "seats[].score": (0, points + bonus),
        "internal.used": (0, NUM_REGIONS * MAX_SPACES),
    }


#: The engine's decision context (``view["internal"]["context"]``): the build, upgrade or vehicle in
#: progress, part of the seat's information state that the documented view leaves out. Keys and
#: bounds from ``rules.py`` (where a build, an upgrade or a vehicle starts).
CONTEXT = ("context", (
    ("build", 0, 2, "what is being played: 0 a new bunker, 1 an upgrade, 2 a vehicle"),
    ("colour", 0, NUM_COLOURS - 1, "its colour"),
    ("region", 0, NUM_REGIONS - 1, "the region whose hangars take the cards"),
    ("owner", 0, 5, "the cap colour of a new bunker"),
    ("space", 0, MAX_SPACES - 1, "the upgraded bunker's space"),
    ("vehicle", 0, NUM_VEHICLES - 1, "the vehicle"),
    ("route", 0, len(ROUTES) - 1, "the vehicle's route"),
    ("number", 0, MAX_VEHICLE_NUMBER, "the vehicle's new number"),
    ("down", 0, LARGE[2] + 1, "face-down cards still to play (an upgrade to level L: L; a vehicle: its number)"),
))
#: The bunkers that took an artifact in the pick-up in progress (a bunker takes one per action).
USED = Field("used", Arr(Arr(Int(minimum=0, maximum=MAX_SPACES - 1), "2: [region, space]", size=(2, 2))),
             "The bunkers loaded in the pick-up in progress, as [region, space].")

TENSORS = ViewTensors(SCHEMA, limits, internal=[USED], context=CONTEXT)
