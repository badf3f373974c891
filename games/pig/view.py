"""Pig's view (perfect information: every seat sees the same), as documented JSON.

``SCHEMA`` is the one description of the view's shape: ``view.md`` in the same folder is generated from
it (``python -m aiplay.viewdocs --update``) and ``tests/test_views.py`` validates seeded games
against it. :func:`build` makes the view.
"""

from __future__ import annotations

from typing import Any, Dict

from aiplay.views.schema import Arr, Field, Int, Obj, Opt, Str, ViewSchema

SEAT_OBJ = Obj("seat", (
    Field("seat", Int(minimum=0, maximum=9), "The seat number (seat 0 plays first)."),
    Field("score", Int(minimum=0, unit="points"), "Points banked so far."),
), "One entry per seat, in seat order.")

SCHEMA = ViewSchema(
    game="pig",
    intro="Pig (OpenSpiel's definition): on its turn a seat rolls a die as often as it likes, adding "
          "the faces to a turn total; a 1 loses the turn total and ends the turn, stopping banks it. "
          "The first seat to bank `winscore` points wins. Nothing is hidden.",
    root=Obj("view", (
        Field("observer", Int(minimum=0, maximum=9),
              "The seat this view is for (every seat's view is the same otherwise)."),
        Field("phase", Str(choices=("decide", "rolling", "over")),
              "`decide`: the turn's seat chooses to roll or stop; `rolling`: the die is in the air "
              "(chance); `over`: someone reached the winning score or the horizon ended the game."),
        Field("to_move", Opt(Int(minimum=0, maximum=9), "nobody: the die is rolling, or the game is over"),
              "The seat to decide."),
        Field("turn_seat", Int(minimum=0, maximum=9), "The seat whose turn it is."),
        Field("turn_total", Int(minimum=0, unit="points"), "Points rolled this turn, not banked yet."),
        Field("win_score", Int(minimum=1, unit="points"), "The banked score that wins (the `winscore` option)."),
        Field("decisions_made", Int(minimum=0), "Decisions so far; at the `horizon` option's count the game "
              "ends as a draw."),
        Field("winner", Opt(Int(minimum=0, maximum=9), "no winner (yet, or a draw at the horizon)"),
              "The seat that reached the winning score."),
        Field("seats", Arr(SEAT_OBJ, "one per seat"), "The seats."),
    )),
)


def build(state: Any, player: int) -> Dict[str, Any]:
    """Seat ``player``'s view of Pig ``state`` (``player`` already checked)."""
    current = state._current_player()
    over = state._is_over()
    win = state.game.winscore
    winner = next((p for p, s in enumerate(state.banked) if s >= win), None)
    return {
        "observer": player,
        "phase": "over" if over else "rolling" if state.rolling else "decide",
        "to_move": current if current >= 0 else None,
        "turn_seat": state.turn_player,
        "turn_total": state.turn_total,
        "win_score": win,
        "decisions_made": state.total_moves,
        "winner": winner,
        "seats": [{"seat": p, "score": s} for p, s in enumerate(state.banked)],
    }
