"""Template Race's view: what one seat sees, as documented JSON (the schema and the builder).

Every game keeps its view in a module like this one: ``SCHEMA`` is the one description of the
view's shape (``view.md`` beside it is generated from it by
``python -m aiplay.viewdocs --update``, and ``tests/test_views.py`` validates seeded games against
it), and :func:`build` makes the view from a state. Redaction happens here: a card appears only
for its own seat, or for everyone once that seat has boosted.
"""

from __future__ import annotations

from typing import Any, Dict

from aiplay.views.schema import Arr, Bool, Field, Int, Obj, Opt, Str, ViewSchema

SEAT_OBJ = Obj("seat", (
    Field("seat", Int(minimum=0, maximum=3), "The seat number (seat 0 moves first)."),
    Field("position", Int(minimum=0, maximum=30, unit="squares from the start"), "The seat's pawn."),
    Field("card", Opt(Int(minimum=1, maximum=5), "not dealt yet, or hidden from this viewer"),
          "The value of the seat's card (the deck holds 1..players+1; a boost advances by it).",
          "this seat; everyone once the seat boosted"),
    Field("boosted", Bool(), "True once the seat has boosted (its card is then face up for everyone)."),
), "One entry per seat, in seat order.")

SCHEMA = ViewSchema(
    game="template",
    intro="Template Race, the example game of docs/adding_a_game.md: a dice race to land exactly on "
          "the goal square; each seat holds one hidden card it may reveal once to advance by its value.",
    root=Obj("view", (
        Field("observer", Int(minimum=0, maximum=3), "The seat this view is for."),
        Field("phase", Str(choices=("deal", "turn", "rolling", "over")),
              "`deal`: cards are being dealt (chance); `turn`: a seat chooses walk, roll or boost; "
              "`rolling`: the die is in the air (chance); `over`: the game has ended."),
        Field("to_move", Opt(Int(minimum=0, maximum=3), "nobody: a chance event, or the game is over"),
              "The seat to decide."),
        Field("goal", Int(minimum=6, maximum=30, unit="squares"), "The square to land on exactly."),
        Field("decisions_made", Int(minimum=0), "Decisions so far."),
        Field("horizon", Int(minimum=10, maximum=1000), "After this many decisions the game is a draw."),
        Field("winner", Opt(Int(minimum=0, maximum=3), "nobody has landed on the goal"),
              "The seat that landed on the goal."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"),
              "The seats. A card shows for the viewer's own seat and for every seat that has boosted."),
    )),
)


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Template Race ``state`` (``player`` already checked)."""
    game = state.game
    current = state._current_player()
    over = state.dealt >= game.players and state._over()
    phase = "deal" if state.dealt < game.players else "over" if over else "rolling" if state.rolling else "turn"
    winner = next((p for p, x in enumerate(state.positions) if x == game.goal), None)
    seats = []
    for p in range(game.players):
        card = state.cards[p]
        shown = card is not None and (p == player or state.boosted[p])
        seats.append({"seat": p, "position": state.positions[p], "card": card + 1 if shown else None,
                      "boosted": state.boosted[p]})
    return {
        "observer": player,
        "phase": phase,
        "to_move": current if current >= 0 else None,
        "goal": game.goal,
        "decisions_made": state.moves,
        "horizon": game.horizon,
        "winner": winner,
        "seats": seats,
    }
