"""Area 51's view: what one seat knows, as documented JSON (the schema and the builder).

``SCHEMA`` is the one description of the view's shape: ``view.md`` in the same folder is generated
from it (``python -m aiplay.views.docs --update``) and ``tests/test_views.py`` validates seeded
games against it. :func:`build` turns the engine's redacted knowledge
(``state._internal_view(p)``, which the twin tests check) into readable fields; besides that it
reads only the game's constants and the public seat whose turn it is, so it cannot show what
that hides. The engine's
arrays stay under ``"internal"`` for bots (unstable: frontends must not rely on them).
"""

from __future__ import annotations

from typing import Any, Dict, List

from aiplay.views.schema import (
    SEAT, Arr, Bool, Counts, Field, Int, Internal, Obj, Opt, Str, ViewSchema, named_counts,
)

from .components import (
    COLOURS, EXISTING_TYPES, LARGE, OWNER_NAMES, OWNER_NAMES_2P, ROUTES, VEHICLE_KINDS, region_name,
    shown_number, type_name, vehicle_name,
)
from .phases import PHASES, STEPS

CARD_NAMES = tuple(type_name(t) for t in EXISTING_TYPES)
OWNERS = tuple(dict.fromkeys(OWNER_NAMES + OWNER_NAMES_2P))
REGIONS = ("R0", "R1", "R2")
VEHICLES = tuple(f"{c} {k}" for c in COLOURS for k in VEHICLE_KINDS)


def _counts(doc: str) -> Counts:
    return Counts(CARD_NAMES, doc, "card", "card names")


SEAT_OBJ = Obj("seat", (
    Field("seat", Int(minimum=0, maximum=5), "The seat number (play order)."),
    Field("owners", Arr(Str(choices=OWNERS), "1, or 2 with two players"),
          "The cap colours this seat plays (two players: each seat plays two colours)."),
    Field("hand_size", Int(minimum=0, unit="cards"), "Cards in the seat's hand."),
    Field("hand", Opt(_counts(""), "another seat's hand"), "The cards in the seat's hand, by name.", SEAT),
    Field("known_in_hand", _counts(""),
          "Cards everyone saw entering this hand that cannot have left it unseen (a lower bound)."),
    Field("score", Int(minimum=0, unit="points"),
          "The seat's score now (two players: the lower of its two colours' scores)."),
), "One entry per seat, in play order.")

OWNER_OBJ = Obj("owner", (
    Field("owner", Str(choices=OWNERS), "The cap colour."),
    Field("seat", Int(minimum=0, maximum=5), "The seat that plays it."),
    Field("points", Int(minimum=0, unit="points"), "Points scored during play."),
    Field("highest_bunker_points", Int(minimum=0, unit="points"),
          "End-of-game points for the highest bunkers of each region (0 until the game ends)."),
    Field("caps_left", Int(minimum=0, maximum=5), "Caps of this colour not on the board yet."),
), "One entry per cap colour (one per seat; four with two players).")

BUNKER_OBJ = Obj("bunker", (
    Field("colour", Str(choices=COLOURS), "The bunker's (tower's) colour."),
    Field("owner", Str(choices=OWNERS), "The cap colour on it (its owner)."),
    Field("level", Int(minimum=1, maximum=LARGE[2]),
          "Its level (tower storeys). Building and each upgrade cost a security marker of the region, so at most "
          "the region's markers (17)."),
), "A bunker on a building space.")

HANGAR_CARD = Obj("hangar_card", (
    Field("card", Opt(Str(choices=CARD_NAMES, vocab="card names"), "face down and played by another seat"),
          "The artifact's name (colour and value).", "the seat that played it; everyone when face up"),
    Field("face_up", Bool(), "True when the card lies face up."),
    Field("played_by", Int(minimum=0, maximum=5), "The seat that played it."),
), "A card in a hangar, bottom of the pile first. A face-down card shows its name only to the seat that played it.")

REGION_OBJ = Obj("region", (
    Field("region", Str(choices=REGIONS), "The region's name."),
    Field("security_markers", Int(minimum=0, maximum=17), "Security markers left in the region."),
    Field("bunkers", Arr(Opt(BUNKER_OBJ, "an empty building space"), "the region's building spaces (5 or 8)"),
          "The building spaces, in space order."),
    Field("hangars", Arr(Arr(HANGAR_CARD), "the region's hangars (2 or 3)"),
          "The hangars' card piles (one list per hangar, bottom card first)."),
), "One entry per region, R0 to R2.")

VEHICLE_OBJ = Obj("vehicle", (
    Field("vehicle", Str(choices=VEHICLES), "The vehicle (colour and kind)."),
    Field("route", Opt(Arr(Str(choices=REGIONS), "2: [from, to]", size=(2, 2)), "not on the board yet"),
          "The regions it links: [departure, destination]."),
    Field("number", Opt(Int(minimum=1, maximum=8), "not on the board yet"),
          "The number its markers show (cards it carries)."),
), "One entry per vehicle (a truck and a train of each colour).")

DECK_OBJ = Obj("deck", (
    Field("start_top", Int(minimum=0, unit="cards"), "Start cards still on top of the deck."),
    Field("start_remainder", Int(minimum=0, unit="cards"),
          "Start cards left in the deck (those on top and those shuffled into the main deck)."),
    Field("main", Int(minimum=0, unit="cards"), "Main-deck cards left in the deck."),
), "The face-down deck's sizes (its composition is hidden).")

SCHEMA = ViewSchema(
    game="area51",
    intro="Area 51 (Stefan Alexander, Mücke Spiele), 2-6 seats: seats collect artifact cards, build "
          "bunkers in three regions, run vehicles between regions, and pick up hangar piles to store "
          "artifacts in bunkers for points. Hidden: the hands (others see their size and the cards "
          "known to be in them), face-down hangar cards (shown to the seat that played them) and the deck.",
    root=Obj("view", (
        Field("observer", Int(minimum=0, maximum=5), "The seat this view is for."),
        Field("phase", Str(choices=PHASES),
              "`setup`: the deal; `play`: regular turns; `last_turns`: the end is triggered, the last "
              "regular turns are played; `pickup_only`: the final pick-up round; `over`: the game has ended."),
        Field("step", Str(choices=STEPS),
              "What the next decision is about: `deal` (chance), `kind` (collect, build, vehicle or pick "
              "up), `build_target`, `vehicle_route`, `vehicle_number`, `pick_target`, `collect` (take "
              "cards or refresh the row), `play_face_up`, `play_face_down`, `load` (store a picked-up "
              "artifact), `refill` (the row is refilled, chance)."),
        Field("to_move", Opt(Int(minimum=0, maximum=5), "nobody: a card is drawn (chance), or the game is over"),
              "The seat to decide."),
        Field("turn_seat", Int(minimum=0, maximum=5), "The seat whose turn it is."),
        Field("turns_played", Int(minimum=0), "Regular turns completed."),
        Field("turns_left", Int(minimum=0), "Regular turns left after the end was triggered (0 before)."),
        Field("cards_taken", Int(minimum=0, maximum=3), "Cards taken so far in the current collect action."),
        Field("row_refreshed", Bool(), "The face-up row was refreshed in the current collect action."),
        Field("row", _counts(""), "The face-up cards (the row), by name."),
        Field("discards", _counts(""), "The discard pile, by name (public)."),
        Field("deck", DECK_OBJ, "The deck."),
        Field("picked_up", _counts(""), "The hangar pile being picked up and not stored yet (empty otherwise)."),
        Field("picked_up_region", Opt(Str(choices=REGIONS), "nothing is being picked up"),
              "The region of the pile being picked up."),
        Field("towers_left", Counts(COLOURS, "", "colour"), "Towers (bunker storeys) left in the supply, by colour."),
        Field("number_markers_left", Arr(Int(minimum=0), "4", size=(4, 4)),
              "Number markers in the supply by kind: sides 1/2, 3/4, 5/6, 7/8."),
        Field("regions", Arr(REGION_OBJ, "3"), "The three regions."),
        Field("vehicles", Arr(VEHICLE_OBJ, "8"), "The vehicles."),
        Field("owners", Arr(OWNER_OBJ), "The cap colours and their points."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"), "The seats."),
        Field("internal", Internal(),
              "The engine's own arrays (counts by type id, the decision context, knowledge records) for "
              "bots. Unstable: frontends must not rely on it.", "this seat (redacted like the rest)"),
    )),
)


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Area 51 ``state``, from ``state._internal_view(player)`` only."""
    iv = state._internal_view(player)
    game = state.game
    owner_names = game.owner_names
    names = iv.pop("names")
    pile_region = iv["pile_region"]
    seat_scores = iv["seat_scores"]
    seats = [{
        "seat": p,
        "owners": [owner_names[o] for o in iv["owners_of_seat"][p]],
        "hand_size": iv["hand_sizes"][p],
        "hand": names["hand"] if p == player else None,
        "known_in_hand": names["known"][p],
        "score": seat_scores[p],
    } for p in range(iv["players"])]
    owners = [{"owner": owner_names[o], "seat": game.seat_of[o], "points": iv["scores"][o],
               "highest_bunker_points": iv["bonus"][o], "caps_left": iv["caps"][o]}
              for o in range(game.num_owners)]
    regions = []
    for r in range(len(iv["spaces"])):
        regions.append({
            "region": region_name(r),
            "security_markers": iv["markers"][r],
            "bunkers": names["bunkers"][r],
            "hangars": [[{"card": name, "face_up": bool(up), "played_by": by}
                         for name, (_, up, by) in zip(names["hangars"][r][h], pile)]
                        for h, pile in enumerate(iv["hangars"][r])],
        })
    vehicles: List[Dict[str, Any]] = []
    for v, data in enumerate(iv["vehicles"]):
        vehicles.append({
            "vehicle": vehicle_name(v),
            "route": None if data is None else [region_name(x) for x in ROUTES[data[0]]],
            "number": None if data is None else shown_number(data[1]),
        })
    current = iv["current_player"]
    return {
        "observer": player,
        "phase": iv["phase"],
        "step": iv["step"],
        "to_move": current if current >= 0 else None,
        "turn_seat": state.cur,
        "turns_played": iv["turn"],
        "turns_left": iv["extra_left"],
        "cards_taken": iv["taken"],
        "row_refreshed": iv["refreshed"],
        "row": names["row"],
        "discards": names["discards"],
        "deck": {"start_top": iv["deck"]["top"], "start_remainder": iv["deck"]["start_remainder"],
                 "main": iv["deck"]["main"]},
        "picked_up": names["pile"],
        "picked_up_region": None if pile_region < 0 else region_name(pile_region),
        "towers_left": named_counts(iv["towers"], COLOURS),
        "number_markers_left": list(iv["supply"]),
        "regions": regions,
        "vehicles": vehicles,
        "owners": owners,
        "seats": seats,
        "internal": iv,
    }
