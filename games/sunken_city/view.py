"""Sunken City's view (perfect information: every seat sees the same), as documented JSON.

``SCHEMA`` is the one description of the view's shape: ``view.md`` in the same folder is
generated from it (``python -m aiplay.viewdocs --update``) and ``tests/test_views.py``
validates seeded games against it. :func:`build` makes the view.
"""

from __future__ import annotations

from typing import Any, Dict, List

from aiplay.views.schema import Arr, Bool, Field, Int, Obj, Opt, Str, ViewSchema

from . import board as B
from .components import CARDS, NUM_BUILDINGS
from .phases import CARRIED, PH_OVER, PHASE_NAMES, ROOF, SECURED, VILLAGE

#: Movement cards by name, in card order (``raise R move M``: R pieces to raise, M points to walk).
CARD_NAMES = tuple(f"raise {r} move {m}" for r, m in CARDS)
_TREASURE_DOC = "Treasure numbers 1-10 (the buildings' numbers) and 12 (the chest of the centre building)."

CELL = Arr(Int(minimum=0, maximum=8), "2: [row, column]", size=(2, 2),
           doc="A lake cell as [row, column], rows 0-8 from the top and columns 0-8 from the left; "
               "the centre is [4, 4].")

CARD_OBJ = Obj("card", (
    Field("name", Str(choices=CARD_NAMES), "The card's name."),
    Field("raise", Int(minimum=0, maximum=4, unit="pieces"), "City pieces this card raises."),
    Field("move", Int(minimum=3, maximum=7, unit="movement points"), "Movement points for the adventurer."),
), "A movement card. Every seat holds the same six cards.")

STREET_OBJ = Obj("street", (
    Field("cells", Arr(CELL, "2", size=(2, 2)),
          "The two cells the street covers (side by side or one above the other)."),
), "A street tile on the lake.")

BUILDING_OBJ = Obj("building", (
    Field("building", Int(minimum=1, maximum=NUM_BUILDINGS), "The building's number (its treasure's number)."),
    Field("cell", Opt(CELL, "the building is in its grotto (not on the lake)"), "Where the building stands."),
), "One entry per building of the game (building 1 is left out with the `short` option).")

SEAT_OBJ = Obj("seat", (
    Field("seat", Int(minimum=0, maximum=3), "The seat number (play order)."),
    Field("village", Int(minimum=0, maximum=3),
          "The board corner of the seat's village: 0 top left (touches cell [0, 0]), 1 top right ([0, 8]), "
          "2 bottom right ([8, 8]), 3 bottom left ([8, 0]). Two players use corners 0 and 2."),
    Field("adventurer", Opt(CELL, "the adventurer is at home in the village"),
          "The cell of the piece the adventurer stands on (for a street, its first cell)."),
    Field("treasures_to_find", Arr(Int(minimum=1, maximum=12)),
          "This seat's treasures still on the building roofs. " + _TREASURE_DOC),
    Field("carried", Arr(Int(minimum=1, maximum=12)),
          "Treasures found and carried on the adventure board, not yet secured."),
    Field("secured", Arr(Int(minimum=1, maximum=12)), "Treasures secured in the village."),
    Field("score", Int(minimum=0, maximum=11, unit="treasures"), "Treasures secured (what wins)."),
    Field("secured_value", Int(minimum=0, unit="points"), "Sum of the secured treasures' numbers (the tie-break)."),
    Field("neptune_chips", Int(minimum=0, maximum=8), "Neptune chips held (each adds movement points once)."),
    Field("cards_played", Arr(Str(choices=CARD_NAMES)),
          "Movement cards played since the hand was last refilled, in order; the rest are in hand."),
    Field("cards_in_hand", Arr(Str(choices=CARD_NAMES)), "Movement cards this seat may still play."),
), "One entry per seat, in play order.")

TURN_OBJ = Obj("turn_progress", (
    Field("card", Opt(CARD_OBJ, "no card played yet this turn"), "The movement card played this turn."),
    Field("raise_left", Int(minimum=0, maximum=4, unit="pieces"), "Pieces still to raise in the raise block."),
    Field("move_left", Int(minimum=0, unit="movement points"), "Points left in the move block."),
    Field("neptune_left", Int(minimum=0, maximum=4, unit="steps"), "Steps left for Neptune in the Neptune block."),
    Field("raised", Bool(), "The raise block has been done."),
    Field("moved", Bool(), "The move block has been done."),
    Field("neptune_moved", Bool(), "The Neptune block has been done."),
    Field("building_raised", Bool(), "A building was raised this turn (at most one per turn)."),
    Field("chip_used", Bool(), "A Neptune chip was used this turn (at most one per turn)."),
), "What the seat to move has done in the current turn.")

SCHEMA = ViewSchema(
    game="sunken_city",
    intro="Sunken City (Kramer & Kiesling): a 9 x 9 lake where seats raise city pieces (streets and "
          "buildings), walk their adventurer to find treasures and carry them home, and move Neptune, "
          "who sinks the pieces he leaves. Nothing is hidden: every seat's view is the same.\n\n"
          "The board is fixed, so the view leaves it out: cells are [row, column], 0-8 each. The centre "
          "[4, 4] takes buildings only; the dark cells, at Manhattan distance 2 or 4 from the centre, take "
          "streets or buildings; the other (light) cells take streets only. The four villages lie outside "
          "the corners (corner 0 at [0, 0], 1 at [0, 8], 2 at [8, 8], 3 at [8, 0]) and touch the lake only "
          "through their corner cell; each corner's 4 x 4 block is that village's territory (row 4 and "
          "column 4 are nobody's). A street covers two neighbouring cells, a building one. Entering a building "
          "turns up the treasure of its number; entering the building on the centre also turns up the "
          "chest, treasure 12.",
    root=Obj("view", (
        Field("observer", Int(minimum=0, maximum=3), "The seat this view is for."),
        Field("phase", Str(choices=PHASE_NAMES),
              "`card`: play a movement card; `choose`: choose the next block (raise, move, Neptune) or end "
              "the turn; `raise`, `move`, `neptune`: inside that block; `roll`: Neptune's die is rolled "
              "(chance); `over`: the game has ended."),
        Field("to_move", Opt(Int(minimum=0, maximum=3), "nobody: the die is rolling, or the game is over"),
              "The seat to decide."),
        Field("turn_seat", Int(minimum=0, maximum=3), "The seat whose turn it is."),
        Field("turn", TURN_OBJ, "The current turn so far."),
        Field("end_triggered", Bool(), "The end has been triggered (all treasures secured, or the Sand Timer); "
              "the round is played out."),
        Field("winners", Arr(Int(minimum=0, maximum=3)), "The winning seats once the game is over (a tie "
              "shares the win); empty before."),
        Field("neptune", CELL, "The cell of the piece Neptune stands on (for a street, its first cell)."),
        Field("streets", Arr(STREET_OBJ), "The streets on the lake."),
        Field("buildings", Arr(BUILDING_OBJ), "The buildings."),
        Field("street_spaces", Arr(Int(minimum=0, maximum=30, unit="streets"), "6", size=(6, 6)),
              "Streets on each of the six street spaces (space 1 first)."),
        Field("draw_space", Int(minimum=1, maximum=6), "The street space streets are drawn from (1-6); "
              "sunk streets go to the next one (space 6 once the Sand Timer shows)."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"), "The seats."),
    )),
)


def _card(c: int) -> Dict[str, Any]:
    raise_, move = CARDS[c]
    return {"name": CARD_NAMES[c], "raise": raise_, "move": move}


def _cell(cell: int) -> List[int]:
    return list(B.row_col(cell))


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Sunken City ``state`` (``player`` already checked)."""
    game = state.game
    current = state._current_player()
    streets = []
    for anchor in B.piece_anchors(state.cover):
        cells = B.piece_cells(state.cover, anchor)
        if len(cells) == 2:
            streets.append({"cells": [_cell(c) for c in cells]})
    seats = []
    for p in range(game.players):
        status = state.treasure[p]
        played = state.played[p]
        seats.append({
            "seat": p,
            "village": game.seats[p],
            "adventurer": None if state.adventurer[p] == VILLAGE else _cell(state.adventurer[p]),
            "treasures_to_find": [t for t, s in enumerate(status) if s == ROOF],
            "carried": [t for t, s in enumerate(status) if s == CARRIED],
            "secured": [t for t, s in enumerate(status) if s == SECURED],
            "score": len(state.secured(p)),
            "secured_value": sum(state.secured(p)),
            "neptune_chips": state.chips[p],
            "cards_played": [CARD_NAMES[c] for c in played],
            "cards_in_hand": [CARD_NAMES[c] for c in range(len(CARDS)) if c not in played],
        })
    return {
        "observer": player,
        "phase": PHASE_NAMES[state.phase],
        "to_move": current if current >= 0 else None,
        "turn_seat": state.turn,
        "turn": {
            "card": None if state.card < 0 else _card(state.card),
            "raise_left": state.raise_left, "move_left": state.move_left, "neptune_left": state.neptune_left,
            "raised": state.raised, "moved": state.moved, "neptune_moved": state.neptune_moved,
            "building_raised": state.building_raised, "chip_used": state.chip_used,
        },
        "end_triggered": state.end_triggered,
        "winners": state.winners() if state.phase == PH_OVER else [],
        "neptune": _cell(state.neptune),
        "streets": streets,
        "buildings": [{"building": b, "cell": None if state.building_cell[b] < 0 else _cell(state.building_cell[b])}
                      for b in game.buildings],
        "street_spaces": list(state.piles),
        "draw_space": state.draw + 1,
        "seats": seats,
    }
