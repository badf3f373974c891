"""Liar's Dice's view: what one seat sees, as documented JSON (the schema and the builder).

``SCHEMA`` is the one description of the view's shape: ``view.md`` in the same folder is
generated from it (``python -m aiplay.viewdocs --update``) and ``tests/test_views.py``
validates seeded games against it. :func:`build` makes the view; the other seats' dice never
appear, not even after the call (as in OpenSpiel's information states: a seat learns only its
own result, from the returns).
"""

from __future__ import annotations

from typing import Any, Dict

from aiplay.views.schema import SEAT, Arr, Field, Int, Obj, Opt, Str, ViewSchema

#: The options' largest values (rules.MAX_*; repeated here because rules.py imports this module).
_MAX_SEAT, _MAX_DICE, _MAX_SIDES = 3, 5, 8

BID_OBJ = Obj("bid", (
    Field("seat", Int(minimum=0, maximum=_MAX_SEAT), "The seat that made the bid."),
    Field("quantity", Int(minimum=1, maximum=(_MAX_SEAT + 1) * _MAX_DICE, unit="dice"),
          "How many dice the bid claims, among all seats' dice."),
    Field("face", Int(minimum=1, maximum=_MAX_SIDES), "The face claimed (the highest face is wild: it counts "
                                                       "for every face)."),
), "One entry per bid, in the order made.")

SEAT_OBJ = Obj("seat", (
    Field("seat", Int(minimum=0, maximum=_MAX_SEAT), "The seat number (0 bids first)."),
    Field("dice", Opt(Arr(Int(minimum=1, maximum=_MAX_SIDES), "one per die rolled", size=(1, _MAX_DICE)),
                      "another seat's dice, or none rolled yet"),
          "The seat's faces: in roll order while dice are rolled, sorted once every die is rolled.", SEAT),
    Field("rolled", Int(minimum=0, maximum=_MAX_DICE, unit="dice"), "How many of the seat's dice are rolled."),
), "One entry per seat, in seat order.")

SCHEMA = ViewSchema(
    game="liars_dice",
    intro="Liar's Dice (OpenSpiel's definition): every seat rolls its dice in secret, then the seats bid in "
          "turn, each bid claiming at least a quantity of a face among all dice (the highest face is wild), "
          "until a seat calls Liar: the bidder wins if the claim holds, else the caller wins.",
    root=Obj("view", (
        Field("observer", Int(minimum=0, maximum=_MAX_SEAT), "The seat this view is for."),
        Field("phase", Str(choices=("roll", "bidding", "over")),
              "`roll` while dice are rolled (chance), `bidding` while seats bid, `over` once Liar is called "
              "(who won is not shown: the dice stay hidden; the game's returns tell each seat its own result)."),
        Field("to_move", Opt(Int(minimum=0, maximum=_MAX_SEAT), "nobody: dice are rolled, or the game is over"),
              "The seat to bid or call."),
        Field("bids", Arr(BID_OBJ, "one per bid so far"), "Every bid, in order."),
        Field("liar_called_by", Opt(Int(minimum=0, maximum=_MAX_SEAT), "nobody yet"),
              "The seat that called Liar on the last bid."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"), "The seats."),
    )),
)


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Liar's Dice ``state`` (``player`` already checked)."""
    game = state.game
    current = state._current_player()
    n, k = game.players, game.numdice
    bids = [b for b in state.bids if b != game.liar]
    called = len(bids) < len(state.bids)
    return {
        "observer": player,
        "phase": "over" if called else "roll" if state.rolled < game.total_dice else "bidding",
        "to_move": current if current >= 0 else None,
        "bids": [{"seat": i % n, "quantity": q, "face": f}
                 for i, (q, f) in enumerate(game.unrank_bid(b) for b in bids)],
        "liar_called_by": len(bids) % n if called else None,
        "seats": [{"seat": p,
                   "dice": [d for d in state.dice[p] if d > 0] or None if p == player else None,
                   "rolled": min(k, max(0, state.rolled - p * k))} for p in range(n)],
    }
