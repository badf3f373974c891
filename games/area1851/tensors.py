"""Area 1851's tensors: the seat's view (``view.md`` in its folder), one slice per field of its schema.

The information-state string of Area 1851 is the view's content (not a move
history; in a simultaneous phase the others show as they were when it
started), so both tensors are the same encoding of ``view(p)``
(:class:`aiplay.viewtensors.ViewTensors`). This module gives the bounds the
view schema leaves open, from the rules (``rules.py``, ``cards.py``):

* the turn: at most ``3 * block + 3`` turns (Missing Time only shortens the game);
* events: each event is once in the deck, so at most all of them are revealed;
* cards and feats: at most all 108 Tinker cards and 33 feats, a type at most
  its number of copies; at most ``MAX_GADGETS`` gadgets a seat;
* dice: a tweak moves a die by one and pays a card, so within a turn a die is
  at most 4 plus all the cards;
* action points: 3 at most as the base, plus one per assistant on the Replicator;
* reputation: every score change of the rules adds a non-negative amount (a
  delivery, a feat, an event); above, the game's move bound times a per-move
  gain no rule reaches (Learn by Watching, the largest, gives at most 3 points
  per delivery of the turn, at most 150). Loose, not tight.

The information state also holds the decision in progress (the engine's
context: the dice a Workshop re-roll has selected, the card being played, what
a delivery scored; and each seat's event choices still to make), which the
documented view leaves out; both tensors add them, read from the seat's own
``view(p)["internal"]``.
"""

from __future__ import annotations

from typing import Dict, Tuple

from aiplay.game import Game
from aiplay.views.schema import Arr, Field, Int, Obj
from aiplay.views.viewtensors import ViewTensors

from .cards import (
    ASSISTANTS, DICE, FEAT_COUNTS, MAX_GADGETS, NUM_EVENTS, NUM_TINKER_TYPES, TINKER, TINKER_COUNTS,
)
from .rules import TODO_NAMES
from .view import SCHEMA

#: More reputation than any one move scores (see the module's docstring).
MAX_GAIN_PER_MOVE = 1000


def limits(game: Game) -> Dict[str, Tuple[int, int]]:
    """The bounds of the view's open-ended fields for ``game``'s player count and block."""
    n = game.num_players
    cards, feats = sum(TINKER_COUNTS), sum(FEAT_COUNTS)
    copies = max(TINKER_COUNTS)
    reputation = MAX_GAIN_PER_MOVE * game.max_game_length
    return {
        "turn": (0, game.num_turns), "events": (0, NUM_EVENTS), "turn_events": (0, NUM_EVENTS),
        "deck_size": (0, cards), "feat_deck_size": (0, feats), "discard": (0, copies),
        "seats": (n, n), "seats[].score": (0, reputation),
        "seats[].hand_size": (0, cards), "seats[].hand": (0, copies),
        "seats[].junkyard_size": (0, cards), "seats[].junkyard": (0, copies),
        "seats[].held_back_size": (0, cards), "seats[].held_back": (0, copies),
        "seats[].gadgets": (0, MAX_GADGETS), "seats[].gadgets[].sockets": (1, 3), "seats[].dice": (DICE, DICE),
        "seats[].dice[].value": (0, 4 + cards),
        "seats[].assistants_waiting": (0, ASSISTANTS), "seats[].assistants_active": (0, ASSISTANTS),
        "seats[].action_points": (0, 3 + ASSISTANTS),
        "seats[].feats_face_down_count": (0, feats), "seats[].feats_face_down": (0, feats),
        "seats[].feats_revealed": (0, feats),
        "internal.players": (n, n), "internal.players[].todo": (0, MAX_TODO),
    }


#: The engine's decision context (``view["internal"]["ctx"]``): the choice in progress, part of the
#: seat's information state that the documented view leaves out (which dice a Workshop re-roll has
#: selected, the card being played, what a delivery scored). Keys and bounds from ``rules.py``.
CONTEXT = ("ctx", (
    ("card", 0, NUM_TINKER_TYPES - 1, "the Tinker card type being played or attached"),
    ("src", 0, 2, "where that card comes from (0 hand, 1 junkyard, 2 Storehouse)"),
    ("owed", 0, max(t.cost for t in TINKER), "dice pips still owed for the card's cost"),
    ("die", 0, DICE - 1, "the die being tweaked"),
    ("up", 0, 1, "the tweak's direction (1 up)"),
    ("level", 0, 3, "the Town Hall's level in use"),
    ("sel", 0, 2 ** DICE - 1, "the dice selected for a Workshop re-roll (bit d: die d)"),
    ("ret", 0, 1, "a delivery returns to the action phase after its feats"),
    ("gtype", 0, NUM_TINKER_TYPES - 1, "the delivered gadget's type"),
    ("own", 0, 2 * (max(t.rating for t in TINKER) + 1), "the delivered gadget's own points"),
    ("nmods", 0, 3, "the delivered gadget's modifications"),
    ("fmods", 0, 3, "of those, of the gadget's faction"),
    ("tmods", 0, 3, "of those, in a Time socket"),
    ("empty", 0, 3, "the delivered gadget's empty sockets"),
))

#: Each seat's event choices still to make this turn (``view["internal"]["players"][q]["todo"]``, in the
#: order the events ask them; ``rules.TODO_NAMES``), which the documented view names only as the
#: decision ``todo``: at most 12 (``player.py``).
TODO = Field("players", Arr(Obj("player", (
    Field("todo", Arr(Int(minimum=0, maximum=len(TODO_NAMES) - 1)), "The event choices still to make."),))),
    "Per seat, its event choices still to make this turn.")
MAX_TODO = 12

TENSORS = ViewTensors(SCHEMA, limits, internal=[TODO], context=CONTEXT)
