"""Area 1851's view: what one seat knows, as documented JSON (the schema and the builder).

``SCHEMA`` is the one description of the view's shape: ``view.md`` in the same folder is generated
from it (``python -m aiplay.views.docs --update``) and ``tests/test_views.py`` validates seeded
games against it. :func:`build` turns the engine's redacted knowledge
(``state._internal_view(p)``, which the twin tests check) into readable fields, reading nothing
else but the card tables, so it cannot show what that hides: in a simultaneous phase the other
seats appear as they were when the phase started. The engine's arrays stay under ``"internal"``
for bots (unstable: frontends must not rely on them).
"""

from __future__ import annotations

from typing import Any, Dict, List

from aiplay.views.schema import (
    SEAT, Arr, Bool, Counts, Field, Int, Internal, Obj, Opt, Str, ViewSchema, named_counts,
)

from .cards import EVENTS, FACTIONS, FEAT_NAMES, LOCATIONS, SOCKETS, TINKER, TINKER_NAMES

_PHASES = ("setup_deal", "setup_place", "event", "event_choice", "prep_skip", "prep_draw", "prep_cheat",
           "action", "delivery", "assistants", "rotation", "over")
_STEPS = ("place", "todo", "skip", "cheat", "main", "pay", "target", "tweakpay", "townhall", "reroll", "repl",
          "swap1", "swap2", "sh2a", "sh2b", "recy1", "recy2", "dfeat", "deliver", "move", "keep", "repldraw", "rolling")
SEAT_RANGE = dict(minimum=0, maximum=4)


def _cards(doc: str = "") -> Counts:
    return Counts(TINKER_NAMES, doc, "Tinker card", "Tinker card names")


SOCKET_OBJ = Obj("socket", (
    Field("socket", Str(choices=SOCKETS), "The socket's type."),
    Field("mod", Opt(Str(choices=TINKER_NAMES, vocab="Tinker card names"), "empty"), "The modification in it."),
), "One socket of a gadget, in the gadget's socket order.")

GADGET_OBJ = Obj("gadget", (
    Field("gadget", Str(choices=TINKER_NAMES, vocab="Tinker card names"), "The gadget card's name."),
    Field("faction", Str(choices=FACTIONS), "Its faction."),
    Field("sockets", Arr(SOCKET_OBJ, "1 to 3"), "Its sockets."),
), "A gadget on the seat's workbench (face up, public).")

DIE_OBJ = Obj("die", (
    Field("value", Int(minimum=0), "The die's value: a four-sided die shows 1-4, and tweaks can move it "
          "below 1 (it then pays nothing) or above 4."),
    Field("used", Bool(), "Used this action phase."),
), "One of the seat's three dice.")

SEAT_OBJ = Obj("seat", (
    Field("seat", Int(**SEAT_RANGE), "The seat number."),
    Field("score", Int(unit="reputation points"), "Reputation scored so far."),
    Field("hand_size", Int(minimum=0, unit="cards"), "Tinker cards in hand."),
    Field("hand", Opt(_cards(), "another seat's hand"), "The hand, by card name.", SEAT),
    Field("junkyard_size", Int(minimum=0, unit="cards"), "Cards in the seat's junkyard."),
    Field("junkyard", Opt(_cards(), "another seat's junkyard"), "The junkyard, by card name.", SEAT),
    Field("held_back_size", Int(minimum=0, unit="cards"), "Cards set aside by Hold Some Back."),
    Field("held_back", Opt(_cards(), "another seat's cards"), "The cards set aside by Hold Some Back.", SEAT),
    Field("gadgets", Arr(GADGET_OBJ), "The gadgets built, with their modifications."),
    Field("dice", Arr(DIE_OBJ, "3"), "The seat's dice."),
    Field("assistants_in_reserve", Int(minimum=0, maximum=3), "Assistants not on the board."),
    Field("assistants_waiting", Counts(LOCATIONS, "", "location"),
          "Assistants on each location's waiting space (locations with none are left out)."),
    Field("assistants_active", Counts(LOCATIONS, "", "location"),
          "Assistants on each location's effect space (locations with none are left out)."),
    Field("action_points", Int(minimum=0), "Action points left this action phase."),
    Field("feats_face_down_count", Int(minimum=0), "Face-down feats held."),
    Field("feats_face_down", Opt(Arr(Str(choices=FEAT_NAMES, vocab="feat names")), "another seat's feats"),
          "The face-down feats by name (a name appears once per copy).", SEAT),
    Field("feats_revealed", Arr(Str(choices=FEAT_NAMES, vocab="feat names")), "Feats revealed, in order of reveal."),
), "One entry per seat. In a simultaneous phase the other seats are shown as they were when it started.")

SCHEMA = ViewSchema(
    game="area1851",
    intro="Area 1851, 2-6 seats: tinkerers build gadgets from Tinker cards, modify and deliver them, "
          "place assistants on five locations and collect feats for reputation. Hidden: hands, "
          "junkyards, held-back cards, face-down feats and the decks; in a simultaneous phase, the "
          "other seats' choices until the phase ends.",
    root=Obj("view", (
        Field("observer", Int(**SEAT_RANGE), "The seat this view is for."),
        Field("turn", Int(minimum=0), "The turn number (1 for the first turn; 0 during set-up)."),
        Field("phase", Str(choices=_PHASES),
              "The phase: set-up (`setup_deal`, `setup_place`), `event`, `event_choice`, preparation "
              "(`prep_skip`, `prep_draw`, `prep_cheat`), `action`, `delivery`, `assistants`, `rotation`, "
              "`over`. Simultaneous phases are played seat by seat, hidden from each other until they end."),
        Field("acting_seat", Int(minimum=-1, maximum=4),
              "The seat acting in the current simultaneous phase (-1 outside one)."),
        Field("to_move", Opt(Int(**SEAT_RANGE), "nobody (a chance step or the game is over), or another "
                             "seat's turn inside a simultaneous phase"), "The seat to decide."),
        Field("decision", Opt(Str(choices=_STEPS), "another seat acts in a simultaneous phase"),
              "The engine's name of the acting seat's current decision (the legal moves' names say what "
              "it asks); `main` is the free choice of the action phase."),
        Field("acting_seat_done", Opt(Bool(), "another seat acts in a simultaneous phase"),
              "The acting seat has finished its part of the phase."),
        Field("events", Arr(Str(choices=EVENTS, vocab="event names")), "Every event revealed so far in the game, in order (the last ones are this turn's)."),
        Field("turn_events", Arr(Str(choices=EVENTS, vocab="event names")), "The events revealed this turn (in force this turn)."),
        Field("pass_direction", Str(choices=("left", "right")), "The direction cards are passed."),
        Field("deck_size", Int(minimum=0, unit="cards"), "Tinker cards in the deck."),
        Field("feat_deck_size", Int(minimum=0, unit="cards"), "Feats in the feat deck."),
        Field("discard", _cards(), "The discard pile, by card name (public)."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"), "The seats."),
        Field("internal", Internal(),
              "The engine's own arrays (counts by card type id, the decision context, knowledge "
              "records) for bots. Unstable: frontends must not rely on it.", "this seat (redacted like the rest)"),
    )),
    simultaneous=True,
)


def _gadget(row: List[int]) -> Dict[str, Any]:
    card = TINKER[row[0]]
    return {"gadget": TINKER_NAMES[row[0]], "faction": FACTIONS[card.faction],
            "sockets": [{"socket": SOCKETS[s], "mod": TINKER_NAMES[m] if m >= 0 else None}
                        for s, m in zip(card.sockets, row[1:])]}


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Area 1851 ``state``, from ``state._internal_view(player)`` only."""
    iv = state._internal_view(player)
    seats = []
    for q, b in enumerate(iv["players"]):
        own = q == player
        seats.append({
            "seat": q,
            "score": b["score"],
            "hand_size": sum(b["hand"]) if own else b["hand"],
            "hand": named_counts(b["hand"], TINKER_NAMES) if own else None,
            "junkyard_size": sum(b["junk"]) if own else b["junk"],
            "junkyard": named_counts(b["junk"], TINKER_NAMES) if own else None,
            "held_back_size": sum(b["kept"]) if own else b["kept"],
            "held_back": named_counts(b["kept"], TINKER_NAMES) if own else None,
            "gadgets": [_gadget(g) for g in b["gadgets"]],
            "dice": [{"value": v, "used": bool(u)} for v, u in zip(b["dice"], b["used"])],
            "assistants_in_reserve": b["reserve"],
            "assistants_waiting": named_counts(b["wait"], LOCATIONS),
            "assistants_active": named_counts(b["active"], LOCATIONS),
            "action_points": b["ap"],
            "feats_face_down_count": sum(b["down"]) if own else b["down"],
            "feats_face_down": [FEAT_NAMES[f] for f, c in enumerate(b["down"]) for _ in range(c)] if own else None,
            "feats_revealed": [FEAT_NAMES[f] for f in b["up"]],
        })
    to_move = iv["to_move"]
    hidden_turn = iv["actor_done"] is None
    return {
        "observer": player,
        "turn": iv["turn"],
        "phase": iv["phase"],
        "acting_seat": iv["actor"],
        "to_move": to_move if to_move is not None and to_move >= 0 else None,
        "decision": None if hidden_turn or not iv["step"] else iv["step"],
        "acting_seat_done": iv["actor_done"],
        "events": list(iv["events"]),
        "turn_events": list(iv["turn_events"]),
        "pass_direction": iv["direction"],
        "deck_size": iv["deck_size"],
        "feat_deck_size": iv["feat_deck_size"],
        "discard": named_counts(iv["discard"], TINKER_NAMES),
        "seats": seats,
        "internal": iv,
    }
