"""Leduc poker's view: what one seat sees, as documented JSON (the schema and the builder).

``SCHEMA`` is the one description of the view's shape: ``view.md`` in the same folder is
generated from it (``python -m aiplay.viewdocs --update``) and ``tests/test_views.py``
validates seeded games against it. :func:`build` makes the view; the other seats' private cards
never appear (not even at the showdown, as in OpenSpiel's information states).
"""

from __future__ import annotations

from typing import Any, Dict

from aiplay.views.schema import SEAT, Arr, Bool, Field, Int, Obj, Opt, Str, ViewSchema

_RANKS = "23456789TJQK"
#: Every card name any option set can give: ``J1``... (rank and suit), or the rank alone with
#: ``suit_isomorphism``.
CARD_NAMES = tuple(r for r in _RANKS) + tuple(f"{r}{s}" for r in _RANKS for s in (1, 2))
_ACTIONS = ("fold", "call", "raise")

CARD_DOC = ("A card: rank (`2`..`K`; with n players the n+1 highest ranks, so `J`, `Q`, `K` for two) "
            "followed by its suit `1` or `2`; with the option `suit_isomorphism` the rank alone.")

SEAT_OBJ = Obj("seat", (
    Field("seat", Int(minimum=0, maximum=9), "The seat number."),
    Field("card", Opt(Str(choices=CARD_NAMES, vocab="card names"), "not dealt yet, or another seat's card"),
          "The seat's private card. " + CARD_DOC, SEAT),
    Field("chips_in", Int(minimum=1, maximum=13, unit="chips"),
          "Chips this seat has put in the pot (ante 1, raises of 2 in round 1 and 4 in round 2)."),
    Field("folded", Bool(), "True once the seat has folded (it is out of the hand)."),
), "One entry per seat, in seat order.")

SCHEMA = ViewSchema(
    game="leduc_poker",
    intro="Leduc poker (OpenSpiel's definition): each seat antes one chip and holds one private card; "
          "a betting round, one public card, a second betting round; the best two-card hand among "
          "the seats still in wins (a pair beats any non-pair).",
    root=Obj("view", (
        Field("observer", Int(minimum=0, maximum=9), "The seat this view is for."),
        Field("phase", Str(choices=("deal", "betting", "over")),
              "`deal` while a card is being dealt (chance), `betting` while seats act, `over` at the end."),
        Field("round", Int(minimum=1, maximum=2), "The betting round (2 once the public card is out)."),
        Field("to_move", Opt(Int(minimum=0, maximum=9), "nobody: dealing, or the hand is over"),
              "The seat to act."),
        Field("pot", Int(minimum=2, unit="chips"), "Chips in the pot."),
        Field("public_card", Opt(Str(choices=CARD_NAMES, vocab="card names"), "not dealt yet"),
              "The public card. " + CARD_DOC),
        Field("betting", Arr(Arr(Str(choices=_ACTIONS)), "one list per round started (1 or 2)"),
              "The decisions of each betting round in order (`call` is a check when nothing is owed)."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"), "The seats."),
    )),
)


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Leduc poker ``state`` (``player`` already checked)."""
    game = state.game
    current = state._current_player()
    over = state._is_over()
    own = state.private_cards[player]
    rounds = [state.round1] if state.round == 1 else [state.round1, state.round2]
    return {
        "observer": player,
        "phase": "over" if over else "deal" if current < 0 else "betting",
        "round": state.round,
        "to_move": current if current >= 0 else None,
        "pot": state.pot,
        "public_card": None if state.public_card is None else game.card_name(state.public_card),
        "betting": [[_ACTIONS[a] for a in r] for r in rounds],
        "seats": [{"seat": p, "card": game.card_name(own) if p == player and own is not None else None,
                   "chips_in": state.contributions[p], "folded": state.folded[p]}
                  for p in range(game.players)],
    }
