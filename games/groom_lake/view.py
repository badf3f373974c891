"""Unleashed From Groom Lake's view: what one seat knows, as documented JSON (schema and builder).

``SCHEMA`` is the one description of the view's shape: ``view.md`` in the same folder is generated
from it (``python -m aiplay.views.docs --update``) and ``tests/test_views.py`` validates seeded
games against it. :func:`build` turns the engine's redacted knowledge
(``state._internal_view(p)``, which the twin tests check) into readable fields, reading nothing
else but the game's constant tables, so it cannot show what that hides. The engine's arrays stay
under ``"internal"`` for bots (unstable: frontends must not rely on them).
"""

from __future__ import annotations

from typing import Any, Dict, List

from aiplay.views.schema import (
    SEAT, Arr, Bool, Counts, Field, Int, Internal, Obj, Opt, Str, ViewSchema, named_counts,
)

from .components import (
    DIR_NAMES, HAZARD_NAMES, NUM_TILES, ROLE_NAMES, STACK_NAMES, TERRAIN_NAMES, TILES, TYPE_NAMES,
    rotated_edges, tile_name,
)

TILE_NAMES = tuple(tile_name(t) for t in range(NUM_TILES))
_STEPS = ("roles", "deal", "keep", "row", "action", "tile_draw", "keep_tile", "place", "contribute", "roll",
          "assign", "investigate_draw", "investigate_keep", "vote", "give", "give_draw", "share",
          "turn_discard", "half_vote", "over")
_RESULTS = ("none", "alien_wins", "team_escapes")
SEAT_RANGE = dict(minimum=0, maximum=5)


def _cards(doc: str = "") -> Counts:
    return Counts(TYPE_NAMES, doc, "card", "card names")


SEAT_OBJ = Obj("seat", (
    Field("seat", Int(**SEAT_RANGE), "The seat number (play order)."),
    Field("role", Opt(Str(choices=ROLE_NAMES), "not dealt yet, or hidden from this viewer"),
          "`Human`, `Alien` or `Hunter` (five or more players). Shown to the seat itself, and to "
          "everyone once revealed or at the end of the game.", "this seat; everyone once revealed or at the end"),
    Field("role_revealed", Bool(), "The role has been revealed to everyone."),
    Field("life", Int(minimum=0, unit="life tokens"),
          "Life tokens left (0: dead; Recovery cards can raise it above the start)."),
    Field("hand_size", Int(minimum=0, unit="cards"), "Cards in the seat's hand."),
    Field("hand", Opt(_cards(), "another seat's hand"), "The cards in hand, by name.", SEAT),
    Field("known_in_hand", _cards(),
          "Cards everyone saw entering this hand that cannot have left it unseen (a lower bound)."),
    Field("hazards_joined", Int(minimum=0), "Hazard rounds this seat has joined (public statistics)."),
    Field("items_contributed", Int(minimum=0), "Cards this seat has contributed to hazards (public statistics)."),
), "One entry per seat, in play order.")

MAP_TILE = Obj("map_tile", (
    Field("tile", Str(choices=TILE_NAMES, vocab="tile names"),
          "The tile's name: terrain, hazard and number, and its unique `#id`."),
    Field("terrain", Str(choices=TERRAIN_NAMES), "Its terrain (a Canyon cannot be entered)."),
    Field("hazard", Opt(Str(choices=HAZARD_NAMES[1:]), "no hazard"), "Its hazard."),
    Field("number", Int(minimum=0, maximum=15), "The hazard's toughness (its investigation count for a "
          "Crash Site); 0 without a hazard."),
    Field("hazard_open", Bool(), "The hazard is still open (false once closed by a Map Token, or without one)."),
    Field("x", Int(minimum=-48, maximum=48), "Column: east is +1; Groom Lake is at (0, 0)."),
    Field("y", Int(minimum=-48, maximum=48), "Row: north is +1."),
    Field("rotation", Int(minimum=0, maximum=3, unit="quarter turns clockwise"), "How the tile is turned."),
    Field("red_dots", Arr(Str(choices=DIR_NAMES), "0 to 4"),
          "The edges (after rotation) with a red dot, among `N`, `E`, `S`, `W`; neighbours must match."),
), "One placed tile, in the order they were placed (Groom Lake first).")

STACK_OBJ = Obj("tile_stack", (
    Field("stack", Str(choices=STACK_NAMES), "The stack's name (`3`, `6`, `Compass`)."),
    Field("tiles_left", Int(minimum=0, maximum=16), "Tiles left in it."),
    Field("in_pool", Int(minimum=0, maximum=16), "Tiles from this stack in the discard pool (tile backs are public)."),
    Field("held", Int(minimum=0, maximum=16), "Tiles from this stack held by the scout in progress."),
), "One entry per tile stack.")

SCHEMA = ViewSchema(
    game="groom_lake",
    intro="Unleashed From Groom Lake, 3-6 seats: a team explores a desert of tiles to escape the Alien "
          "hidden among them. Hidden: every role (until revealed), the hands (others see their size and "
          "the cards known to be in them), cards being drawn, kept or handed out, and the tiles a scout holds.",
    root=Obj("view", (
        Field("observer", Int(**SEAT_RANGE), "The seat this view is for."),
        Field("step", Str(choices=_STEPS),
              "The procedure step: set-up (`roles`, `deal`, `keep`, `row`), the turn's `action`, a scout "
              "(`tile_draw`, `keep_tile`, `place`), a hazard (`contribute`, `roll`, `assign`), an "
              "investigation (`investigate_draw`, `investigate_keep`), a vote (`vote`, `half_vote`), a gift "
              "(`give`, `give_draw`, `share`), `turn_discard`, `over`."),
        Field("to_move", Opt(Int(**SEAT_RANGE), "nobody: a chance step, or the game is over"),
              "The seat to decide."),
        Field("turn_seat", Opt(Int(**SEAT_RANGE), "set-up: no turn yet"), "The seat whose turn it is."),
        Field("deciding_seat", Opt(Int(**SEAT_RANGE), "the step has no deciding seat"),
              "The seat the current step concerns (e.g. the keeper, the contributor, the investigator)."),
        Field("action_points", Int(minimum=0, maximum=2), "Actions left in the current turn."),
        Field("half_called", Bool(), "A half-victory vote has been called."),
        Field("half_agreed", Bool(), "The half-victory was agreed (all surviving non-Aliens share the win)."),
        Field("result", Str(choices=_RESULTS), "`none` while playing; `alien_wins` or `team_escapes` at the end."),
        Field("winners", Arr(Int(**SEAT_RANGE)), "The winning seats at the end; empty before."),
        Field("alien_card_taken", Bool(), "The Hunter has taken the Alien card."),
        Field("deck_size", Int(minimum=0, unit="cards"), "Cards in the supply deck (during the deal, with "
              "the Alien's set-aside Recovery cards)."),
        Field("refresh_size", Int(minimum=0, unit="cards"), "Cards on the Refresh stack."),
        Field("discard_stack", Arr(Str(choices=TYPE_NAMES, vocab="card names")),
              "The face-up Discard Stack, bottom first (top last)."),
        Field("recoveries_played", Int(minimum=0), "Recovery cards played (out of the game)."),
        Field("cards_dealt", Int(minimum=0), "Set-up cards dealt so far."),
        Field("kept", Opt(_cards(), "not this seat's keep step"), "The set-up cards the keeper has kept so far.",
              SEAT),
        Field("kept_size", Int(minimum=0, unit="cards"), "Set-up cards kept so far in the keep step."),
        Field("investigation_cards", Opt(_cards(), "not this seat's investigation"),
              "The cards drawn in the investigation in progress.", SEAT),
        Field("investigation_size", Int(minimum=0, unit="cards"), "Cards drawn in the investigation in progress."),
        Field("handout_size", Int(minimum=0, unit="cards"), "Face-down cards being handed out."),
        Field("tile_stacks", Arr(STACK_OBJ, "3"), "The three tile stacks."),
        Field("held_tiles", Opt(Arr(Str(choices=TILE_NAMES, vocab="tile names")), "not this seat's scout"),
              "The tiles the scout in progress holds.", SEAT),
        Field("map", Arr(MAP_TILE), "The placed tiles."),
        Field("team", Arr(Int(minimum=-48, maximum=48), "2: [x, y]", size=(2, 2)), "The Team's tile."),
        Field("team_from", Arr(Int(minimum=-48, maximum=48), "2: [x, y]", size=(2, 2)),
              "The tile the Team stood on at the start of the turn."),
        Field("waiting_seats", Arr(Int(**SEAT_RANGE)), "Seats still to contribute, vote or receive in this step."),
        Field("count", Int(minimum=0), "Draws, dice or investigations left in this step."),
        Field("total", Int(minimum=0), "The dice total of a hazard, or the yes votes of a vote."),
        Field("target", Int(minimum=-1),
              "The step's target: the seat voted on or receiving a card, or the map index of the hazard "
              "tile; -1 when none."),
        Field("ballots", Arr(Obj("ballot", (
            Field("seat", Int(**SEAT_RANGE), "The voter."),
            Field("yes", Bool(), "The vote."),
        ), "A vote cast.")), "Votes cast so far in the vote in progress (votes are open)."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"), "The seats."),
        Field("internal", Internal(),
              "The engine's own arrays (counts by card type id, knowledge records) for bots. Unstable: "
              "frontends must not rely on it.", "this seat (redacted like the rest)"),
    )),
)


def _opt_seat(value: int) -> Any:
    return value if value >= 0 else None


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Groom Lake ``state``, from ``state._internal_view(player)`` only."""
    iv = state._internal_view(player)
    n = len(iv["roles"])
    seats = []
    for q in range(n):
        role = iv["roles"][q]
        seats.append({
            "seat": q,
            "role": None if role is None or role < 0 else ROLE_NAMES[role],
            "role_revealed": iv["revealed"][q],
            "life": iv["life"][q],
            "hand_size": iv["hand_sizes"][q],
            "hand": named_counts(iv["hand"], TYPE_NAMES) if q == player else None,
            "known_in_hand": named_counts(iv["known"][q], TYPE_NAMES),
            "hazards_joined": iv["stats"][q][0],
            "items_contributed": iv["stats"][q][1],
        })
    tiles: List[Dict[str, Any]] = []
    for tile, x, y, rot, open_ in iv["map"]:
        data = TILES[tile]
        edges = rotated_edges(tile, rot)
        tiles.append({
            "tile": TILE_NAMES[tile], "terrain": TERRAIN_NAMES[data.terrain],
            "hazard": HAZARD_NAMES[data.hazard] if data.hazard else None, "number": data.number,
            "hazard_open": bool(open_), "x": x, "y": y, "rotation": rot,
            "red_dots": [DIR_NAMES[d] for d in range(4) if edges[d]],
        })
    held = iv["held"]
    current = iv["current_player"]
    return {
        "observer": player,
        "step": iv["step"],
        "to_move": current if current >= 0 else None,
        "turn_seat": _opt_seat(iv["turn"]),
        "deciding_seat": _opt_seat(iv["cur"]),
        "action_points": iv["ap"],
        "half_called": iv["half_called"],
        "half_agreed": iv["half_agreed"],
        "result": _RESULTS[iv["result"]],
        "winners": list(iv["winners"]),
        "alien_card_taken": iv["alien_card"],
        "deck_size": iv["deck_size"],
        "refresh_size": iv["refresh_size"],
        "discard_stack": [TYPE_NAMES[t] for t in iv["discard"]],
        "recoveries_played": iv["recoveries"],
        "cards_dealt": iv["dealt"],
        "kept": None if iv["kept"] is None else named_counts(iv["kept"], TYPE_NAMES),
        "kept_size": iv["kept_size"],
        "investigation_cards": None if iv["inv_cards"] is None else named_counts(iv["inv_cards"], TYPE_NAMES),
        "investigation_size": iv["inv_size"],
        "handout_size": iv["handout_size"],
        "tile_stacks": [{"stack": STACK_NAMES[s], "tiles_left": iv["stack_sizes"][s],
                         "in_pool": iv["pool_origins"][s], "held": iv["held_origins"][s]}
                        for s in range(len(STACK_NAMES))],
        "held_tiles": None if held is None else [TILE_NAMES[t] for t in held],
        "map": tiles,
        "team": list(iv["team"]),
        "team_from": list(iv["team_from"]),
        "waiting_seats": list(iv["queue"]),
        "count": iv["count"],
        "total": iv["total"],
        "target": iv["target"],
        "ballots": [{"seat": s, "yes": bool(v)} for s, v in iv["ballots"]],
        "seats": seats,
        "internal": iv,
    }
