"""Kuhn poker's view: what one seat sees, as documented JSON (the schema and the builder).

``SCHEMA`` is the one description of the view's shape: ``view.md`` in the same folder is
generated from it (``python -m aiplay.viewdocs --update``) and ``tests/test_views.py``
validates seeded games against it. :func:`build` makes the view; the other seats' cards never
appear, and neither does the winner of a showdown (as in OpenSpiel's information states: a seat
learns only its own result, from the returns).
"""

from __future__ import annotations

from typing import Any, Dict

from aiplay.views.schema import SEAT, Arr, Field, Int, Obj, Opt, Str, ViewSchema

_RANKS = tuple("23456789TJQK")

SEAT_OBJ = Obj("seat", (
    Field("seat", Int(minimum=0, maximum=9), "The seat number (0 acts first)."),
    Field("card", Opt(Str(choices=_RANKS), "not dealt yet, or another seat's card"),
          "The seat's private card by rank: with n players the deck is the n+1 highest ranks ending at "
          "`K` (two players: `J`, `Q`, `K`).", SEAT),
    Field("stake", Int(minimum=1, maximum=2, unit="chips"), "Chips this seat has put in the pot (the ante, "
          "plus one for a bet or call)."),
), "One entry per seat, in seat order.")

SCHEMA = ViewSchema(
    game="kuhn_poker",
    intro="Kuhn poker (OpenSpiel's definition): each seat antes one chip and holds one private card; "
          "one betting round of one-chip bets; the highest card among those still in wins the pot.",
    root=Obj("view", (
        Field("observer", Int(minimum=0, maximum=9), "The seat this view is for."),
        Field("phase", Str(choices=("deal", "betting", "over")),
              "`deal` while cards are dealt (chance), `betting` while seats act, `over` once the pot is won "
              "(who won a showdown is not shown: the cards stay hidden; the game's returns tell each seat "
              "its own result)."),
        Field("to_move", Opt(Int(minimum=0, maximum=9), "nobody: dealing, or the hand is over"),
              "The seat to act."),
        Field("pot", Int(minimum=2, maximum=20, unit="chips"), "Chips in the pot."),
        Field("betting", Arr(Str(choices=("pass", "bet")), "one per decision so far"),
              "Every decision in order; decision i was made by seat i mod (number of seats). After a "
              "bet, `pass` folds and `bet` calls."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"), "The seats."),
    )),
)


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Kuhn poker ``state`` (``player`` already checked)."""
    n = state.game.players
    current = state._current_player()
    over = state.winner >= 0
    return {
        "observer": player,
        "phase": "over" if over else "deal" if state.dealt < n else "betting",
        "to_move": current if current >= 0 else None,
        "pot": state.pot,
        "betting": ["bet" if a == 1 else "pass" for a in state.betting],
        "seats": [{"seat": p,
                   "card": state._card(state.cards[p]) if p == player and state.cards[p] is not None else None,
                   "stake": state.stakes[p]} for p in range(n)],
    }
