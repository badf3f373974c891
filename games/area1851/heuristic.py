"""Area 1851 heuristics: a static evaluation and a greedy policy (public State API only).

:func:`static_values` estimates each seat's final reputation (score, plus the gadgets and
modifications face up, plus a little per face-down feat) and maps the lead over the average
rival into (-1, 1) with ``tanh``, so expectimax and playout cut-offs can use it.

:func:`policy` plays from ``state.view(me)`` and ``state.legal_actions()`` only, so it plays on
any engine: build or modify with the best-rated card it can pay, put spare dice on the Town Hall,
deliver full gadgets (and everything on the last turn), reveal every Delivery feat offered, and
otherwise end its turn.
"""

from __future__ import annotations

import math
import random
from typing import Any, List

from . import actions as A
from .cards import L_TOWNHALL, TINKER

#: The state (rules.Area1851State above this module), typed loosely to keep the import tree.
State = Any
#: Reputation lead that maps to about 0.76 (tanh 1).
SCALE = 20.0


def _estimate(block: Any) -> float:
    """Score plus what is on the table (a rough value of the gadgets in front)."""
    value = float(block.score)
    for gad in block.gadgets:
        value += 0.7 * TINKER[gad[0]].rating + sum(TINKER[m].rating for m in gad[1:] if m >= 0)
    value += 2.0 * sum(block.down)
    return value


def static_values(state: State) -> List[float]:
    """Each seat's lead over the average rival, squashed into (-1, 1) (within the utility bounds)."""
    est = [_estimate(b) for b in state.players]
    n = len(est)
    total = sum(est)
    out = []
    for e in est:
        others = (total - e) / (n - 1)
        out.append(math.tanh((e - others) / SCALE) * 0.999)
    return out


def policy(state: State, rng: random.Random) -> int:
    """A greedy move for the player to act (see the module docstring)."""
    me = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(me)
    step = view["step"]
    blocks = {A.decode(a)[0] for a in legal}
    if step == "main":
        cards = [a for a in legal if A.HAND <= a < A.SCRAP]
        if cards:
            return max(cards, key=lambda a: (TINKER[a - A.HAND].rating, -TINKER[a - A.HAND].cost, a))
        if A.activate(L_TOWNHALL, 2) in legal:
            return A.activate(L_TOWNHALL, 2)
        if A.activate(L_TOWNHALL, 1) in legal:
            return A.activate(L_TOWNHALL, 1)
        if A.TAKE_FEAT in legal and view["turn"] <= 8 and rng.random() < 0.5:
            return A.TAKE_FEAT
        if A.DRAW_CARD in legal:
            return A.DRAW_CARD
        return A.DONE
    if step == "deliver":
        mine = view["players"][me]["gadgets"]
        last = "The End" in view["turn_events"]
        for a in legal:
            if A.GADGET <= a < A.MOD:
                gad = mine[a - A.GADGET]
                if last or all(m >= 0 for m in gad[1:]):
                    return a
        return A.DONE if A.DONE in legal else legal[-1]
    if step == "dfeat":
        return legal[-1]
    if step in ("townhall", "pay", "target", "keep", "place", "swap2", "tweakpay"):
        return next((a for a in legal if a != A.DONE), A.DONE)
    if step == "todo":
        if "YES" in blocks and A.DONE in legal:
            return A.DONE
        if "MOD" in blocks or "GADGET" in blocks and A.DONE not in legal:
            # A Harsh Requirement: give up the least valuable piece (a modification before a gadget).
            mine = view["players"][me]["gadgets"]

            def worth(a: int) -> float:
                block, g, s = A.decode(a)
                if block == "MOD":
                    return TINKER[mine[g][1 + s]].rating
                return 10 + TINKER[mine[g][0]].rating + sum(TINKER[m].rating for m in mine[g][1:] if m >= 0)
            return min((a for a in legal if A.GADGET <= a < A.DIE), key=lambda a: (worth(a), a))
        options = [a for a in legal if a != A.DONE]
        if A.DONE in legal and not any(A.HAND <= a < A.SCRAP and TINKER[a - A.HAND].is_gadget for a in options):
            return A.DONE
        return options[0] if options else A.DONE
    if step == "dfeat" or step == "recy1" or step == "recy2":
        return legal[-1]
    return A.DONE if A.DONE in legal else legal[0]
