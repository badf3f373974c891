"""Area 1851 heuristics: a static evaluation and a greedy policy (public State API only).

:func:`static_values` estimates each seat's final reputation (score, plus the gadgets and
modifications face up, plus a little per face-down feat) and maps the lead over the average
rival into (-1, 1) with ``tanh``, so expectimax and playout cut-offs can use it.

:func:`policy` plays from ``state.view(me)`` and ``state.legal_actions()`` only, so it plays on
any engine. Its assistants all work the Town Hall (placed there, moved there one a turn, activated
every turn: spare dice become 1 reputation each, 2 from two assistants on): it builds or modifies
with the best-rated card it can pay, paying with the largest dice so that more are left over,
puts modifications on their own faction's gadgets, sends the spare dice to the Town Hall, takes
a feat with an AP it cannot use, delivers full gadgets (and everything on the last turn) and
reveals every Delivery feat offered. :func:`policy_v1` is the first policy, the ladder's baseline.
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, List

from . import actions as A
from .cards import DICE, L_TOWNHALL, NUM_LOCATIONS, TINKER

#: The state (rules.Area1851State above this module), typed loosely to keep the import tree.
State = Any
#: Reputation lead that maps to about 0.76 (tanh 1).
SCALE = 20.0
#: The policy takes a feat with an AP it cannot otherwise use up to this turn, holding at most
#: ``FEATS_HELD`` face down.
FEAT_TURNS = 12
FEATS_HELD = 3


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
    """The heuristic move of the player to act (see the module docstring); it draws no random numbers."""
    me = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(me)["internal"]
    step = view["step"]
    mine = view["players"][me]
    if step == "main":
        return _main(view, legal, mine)
    if step == "pay":
        # The largest die: the fewer dice a card takes, the more are left for the Town Hall.
        return max(legal, key=lambda a: (mine["dice"][a - A.DIE], -a))
    if step == "target":
        card = view["ctx"]["card"]
        return max(legal, key=lambda a: (_target_value(mine["gadgets"][a - A.GADGET], card), -a))
    if step == "place":
        return A.LOCATION + L_TOWNHALL
    if step == "move":
        return _to_town_hall(legal, mine)
    if step == "cheat":
        # Not Cheatin': the lowest die becomes a 4.
        low = min(range(DICE), key=lambda d: (mine["dice"][d], d))
        return A.set_die(low, 4) if A.set_die(low, 4) in legal else A.DONE
    if step == "keep":
        return max(legal, key=lambda a: (TINKER[a - A.HAND].rating, -a))
    if step == "todo":
        if A.LOCATION + L_TOWNHALL in legal:
            return A.LOCATION + L_TOWNHALL  # To the Left! / To the Right!: one more assistant
        if any(A.MOVE <= a < A.FEAT for a in legal):
            return _to_town_hall(legal, mine)  # Casino Night 3
    return policy_v1(state, rng)


def _main(view: Dict[str, Any], legal: List[int], mine: Dict[str, Any]) -> int:
    """Build or modify with the best card it can pay; then every spare die to the Town Hall (2
    reputation a die at Level 2, where a card rated 1 is not worth a die); then a bonus draw, a
    feat with an AP left early in the game, and done."""
    level2 = A.activate(L_TOWNHALL, 2) in legal
    cards = [a for a in legal if A.HAND <= a < A.SCRAP and (TINKER[a - A.HAND].rating >= 2 or not level2)]
    if cards:
        return max(cards, key=lambda a: (TINKER[a - A.HAND].rating, -TINKER[a - A.HAND].cost, a))
    if level2:
        return A.activate(L_TOWNHALL, 2)
    if A.activate(L_TOWNHALL, 1) in legal:
        return A.activate(L_TOWNHALL, 1)
    if A.DRAW_CARD in legal:
        return A.DRAW_CARD
    if A.TAKE_FEAT in legal and view["turn"] <= FEAT_TURNS and sum(mine["down"]) < FEATS_HELD:
        return A.TAKE_FEAT
    return A.DONE


def _target_value(gadget: List[int], card: int) -> int:
    """Where a modification goes: onto its own faction's gadget (a full one of one faction scores
    its rating twice), then onto the fullest one (it is delivered sooner)."""
    same = TINKER[gadget[0]].faction == TINKER[card].faction
    return 4 * same + sum(1 for m in gadget[1:] if m >= 0)


def _to_town_hall(legal: List[int], mine: Dict[str, Any]) -> int:
    """Move one assistant from elsewhere to the Town Hall (the first such), else none."""
    for loc in range(NUM_LOCATIONS):
        if loc != L_TOWNHALL and mine["wait"][loc] and A.move(loc, L_TOWNHALL) in legal:
            return A.move(loc, L_TOWNHALL)
    return A.DONE if A.DONE in legal else legal[0]


def policy_v1(state: State, rng: random.Random) -> int:
    """The first greedy policy (kept as the ladder's baseline ``heuristic(policy=v1)``): it puts every
    assistant on the Recycler and never activates, moves or uses them."""
    me = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(me)["internal"]
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
