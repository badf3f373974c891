"""Template Race as text, for one seat's eyes: the text-picture hook of docs/adding_a_game.md.

The package exports :func:`render`; the human seat (``aiplay play --human``), the
protocol's ``view`` with ``"kind": "text"`` and the Gymnasium adapter's
``render()`` call it as ``render(state, viewer)``. It draws from the seat's
view only (``state.view(viewer)``), so it cannot show what the seat may not
see; ``viewer=None`` (everything) is for a game that is over or a trusted
referee.
"""

from __future__ import annotations

from typing import Any, Optional


def render(state: Any, viewer: Optional[int]) -> str:
    """A few lines: the track with every pawn, each seat's card as ``viewer`` may see it, who is to move."""
    game = state.game
    view = state.view(viewer if viewer is not None else 0)
    lines = [f"Template Race: land exactly on square {game.goal}; "
             f"{view['decisions_made']} of {view['horizon']} decisions made"]
    for seat in view["seats"]:
        p = seat["seat"]
        if viewer is None:
            card = state.cards[p]
            shown = "-" if card is None else str(card + 1)
        else:
            shown = "?" if seat["card"] is None else str(seat["card"])
        track = "".join("*" if i == seat["position"] else "." for i in range(game.goal + 1))
        you = " (you)" if p == viewer else ""
        boost = ", boosted" if seat["boosted"] else ""
        lines.append(f"  player {p}{you}: {track}  card {shown}{boost}")
    if view["winner"] is not None:
        lines.append(f"player {view['winner']} landed on the goal and wins")
    elif view["to_move"] is not None:
        lines.append(f"player {view['to_move']} to move (walk 1, roll the die, or boost by the card once)")
    else:
        lines.append("the dice and the deck decide next" if view["phase"] != "over" else "the game is over")
    lines.append("legend: * a pawn, . an empty square, ? a card this seat cannot see")
    return "\n".join(lines)


__all__ = ["render"]
