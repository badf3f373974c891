"""Template Race as an SVG picture for one seat's eyes, and where each legal move lies on it.

A short example of a game's ``svg`` module (see :mod:`aiplay.svg`): the track of squares
``0..goal`` with every seat's token, each seat's card (the viewer's own, and any boosted
card, face up; the others as backs) and the die.

:func:`move_targets` maps walk -> [the square one ahead, ``sq-{k}``], roll -> [``die``],
boost -> [the player's own card, ``p{p}-card``].
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from aiplay.views.svg import Drawing

from .rules import BOOST, ROLL, WALK

#: A ``TemplateRaceState`` of the reference engine.
State = Any

SEAT_FILL = ("#d33c2c", "#2f5fd0", "#2e9e48", "#e6c619")


def _seen(state: State, viewer: Optional[int]) -> Dict[str, Any]:
    """What ``viewer`` may see (None: everything): ``state.view``'s redaction of the cards."""
    cards = [c if (viewer is None or p == viewer or state.boosted[p]) else None for p, c in enumerate(state.cards)]
    return {"cards": cards, "dealt": state.dealt, "positions": list(state.positions), "boosted": list(state.boosted),
            "current": state.current_player(), "goal": state.game.goal, "rolling": state.rolling}


def svg(state: State, viewer: Optional[int] = None) -> str:
    """The picture of ``state`` as seat ``viewer`` sees it (None: everything)."""
    v = _seen(state, viewer)
    n = len(v["positions"])
    sq = 40
    width = max(480, 20 + (v["goal"] + 1) * sq)
    height = 140 + 60 * n
    d = Drawing(width, height, "Template Race", background="#f4f0e6")
    cur = v["current"]
    status = "game over" if cur == -4 else ("chance" if cur == -1 else f"player {cur} to move")
    d.text(10, 22, f"Template Race: {status}" + (" (rolling)" if v["rolling"] else ""), size=15, weight="bold")
    for k in range(v["goal"] + 1):
        d.rect(10 + k * sq, 40, sq - 2, sq - 2, fill="#ffd966" if k == v["goal"] else "#ffffff", stroke="#555",
               target=f"sq-{k}", tip=f"square {k}" + (" (goal)" if k == v["goal"] else ""))
        d.text(10 + k * sq + sq / 2, 54, str(k), size=10, anchor="middle", fill="#777")
    for p, pos in enumerate(v["positions"]):
        d.circle(10 + pos * sq + 8 + 7 * p, 68, 6, fill=SEAT_FILL[p], stroke="#000", tip=f"player {p}")
    for p in range(n):
        y = 96 + 60 * p
        d.circle(22, y + 20, 9, fill=SEAT_FILL[p], stroke="#000")
        d.text(38, y + 25, f"Player {p}{' (you)' if p == viewer else ''}: square {v['positions'][p]}", size=13)
        card = v["cards"][p]
        if p < v["dealt"]:
            if card is None:
                d.card_back(240, y, 36, 46, target=f"p{p}-card", tip="a hidden card")
            else:
                d.card(240, y, 36, 46, str(card + 1), target=f"p{p}-card",
                       tip=f"card {card + 1}" + (" (boosted)" if v["boosted"][p] else ""), size=16)
            d.text(284, y + 28, "boosted (card used)" if v["boosted"][p] else "card (boost: advance by it)", size=11)
    d.rect(width - 70, 96, 46, 46, fill="#fff", stroke="#000", rx=8, target="die", tip="the die (1-3)")
    d.text(width - 47, 125, "die", size=12, anchor="middle")
    return d.to_string()


def move_targets(state: State) -> Dict[int, List[str]]:
    """``{action: [target ids]}`` for the legal actions of the decision at ``state``."""
    if state.is_terminal() or state.is_chance_node():
        return {}
    p = state.current_player()
    ahead = min(state.positions[p] + 1, state.game.goal)
    names = {WALK: [f"sq-{ahead}"], ROLL: ["die"], BOOST: [f"p{p}-card"]}
    return {a: names[a] for a in state.legal_actions()}
