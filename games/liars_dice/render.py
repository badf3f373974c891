"""Text picture of a Liar's Dice position, for the human seat and the protocol's ``view``.

A seat sees its own dice and everybody's bids; another seat's dice are ``?`` (once rolled)
or ``.`` (not rolled yet), even after the call, as in OpenSpiel's information state.
``viewer=None`` shows everything, and who won once Liar is called.
"""

from __future__ import annotations

from typing import Any, List, Optional

#: A ``LiarsDiceState`` (``.rules`` sits above this module).
LiarsDiceState = Any


def render(state: LiarsDiceState, viewer: Optional[int] = None) -> str:
    """The position as text, as seat ``viewer`` knows it (``None``: everything)."""
    game = state.game
    n = game.players
    player = state._current_player()
    if player == -4:  # TERMINAL (the rules module sits above this one)
        status = "Liar called"
    elif player == -1:
        status = f"rolling player {state.roller()}'s dice"
    else:
        status = f"player {player} to bid or call"
    wild = game.sides
    lines: List[str] = [f"Liar's Dice, {n} players x {game.numdice} dice of {game.sides} sides "
                        f"({wild}s are wild, {game.options['bidding_rule']}): {status}"]
    for p in range(n):
        if viewer is None or viewer == p:
            dice = " ".join(str(d) if d > 0 else "." for d in state.dice[p])
        else:
            dice = " ".join("?" if d > 0 else "." for d in state.dice[p])
        lines.append(f"player {p}{' (you)' if viewer == p else ''}: {dice}")
    bids = [b for b in state.bids if b != game.liar]
    lines.append("bids: " + (", ".join(f"p{i % n} {game.bid_name(b)}" for i, b in enumerate(bids)) or "-"))
    if len(bids) < len(state.bids):
        lines.append(f"player {len(bids) % n} called Liar on {game.bid_name(bids[-1])}")
        if viewer is None:
            lines.append(f"winner: player {state.winner}, loser: player {state.loser}")
    return "\n".join(lines)
