"""Area 1851 heuristics: a static evaluation and a greedy policy (public State API only).

:func:`static_values` estimates each seat's final reputation (score, plus the gadgets and
modifications face up, plus a little per face-down feat) and maps the lead over the average
rival into (-1, 1) with ``tanh``, so expectimax and playout cut-offs can use it.

:func:`policy` plays from ``state.view(me)`` and ``state.legal_actions()`` only, so it plays on
any engine. It puts each assistant (placed, or moved one a turn) where it adds the most to a
small table of what the assistants at each location earn a turn (:func:`_layout_value`: two at
the Town Hall, then the Replicator, the Workshop; the Storehouse with a junkyard; a Final feat
held face down that the layout completes); in the action phase it swaps its worst card for two
at the Replicator, delivers a full gadget or a foreign modification at the Recycler, builds from
the junkyard at the Storehouse, takes a Workshop tweak when that makes a card payable, then
builds as :func:`policy_v2` does and sends the spare dice to the Town Hall.
:func:`policy_v2` (``heuristic(policy=v2)``) keeps every assistant at the Town Hall: it builds
or modifies with the best-rated card it can pay, paying with the largest dice so that more are
left over, puts modifications on their own faction's gadgets, sends the spare dice to the Town
Hall, takes a feat with an AP it cannot use, delivers full gadgets (and everything on the last
turn) and reveals every Delivery feat offered. :func:`policy_v1` is the first policy, the
ladder's baseline.
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, List

from . import actions as A
from .cards import (DICE, F_LITTLE, F_SINGLE, L_RECYCLER, L_REPLICATOR, L_STOREHOUSE, L_TOWNHALL, L_WORKSHOP, MAX_FACE,
                    MAX_GADGETS, MIN_FACE, NUM_LOCATIONS, NUM_TINKER_TYPES, TINKER)

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


#: What the k-th assistant (k = 1, 2) standing at a location is worth, in tenths of reputation a
#: turn, before the state-dependent terms of :func:`_layout_value`. Town Hall: about 1.5 spare dice
#: a turn at 1 reputation, doubled by the second assistant (Level 2). Replicator Level 1: a card
#: more a turn (the worst one swapped for two); its Level 2 (+1 AP) rarely has dice to spend.
#: Workshop Level 1: a free tweak that makes a card payable; Level 2 is not used. Recycler: a
#: modification scored now, its socket free again. The Storehouse pays only with a junkyard.
LAYOUT = ((4, 4), (12, 3), (0, 0), (15, 15), (10, 0))
#: The Storehouse's two assistants with a junkyard (Level 1 swaps, Level 2 builds from it free).
STOREHOUSE_JUNK = (5, 10)
#: A Final feat held face down that the layout completes (A Little Bit Of It All, Single Minded):
#: its 5 reputation, in tenths.
LAYOUT_FEAT = 50
#: A move must gain this much (tenths) so that assistants do not wander on noise.
MOVE_GAIN = 5
#: Placement preference on equal value: the Town Hall first, then the Replicator and Workshop.
PLACE_ORDER = (L_TOWNHALL, L_REPLICATOR, L_WORKSHOP, L_RECYCLER, L_STOREHOUSE)


def _layout_value(counts: List[int], mine: Dict[str, Any]) -> int:
    """Tenths of reputation a turn that assistants standing ``counts`` (per location) earn."""
    junk = sum(mine["junk"])
    value = 0
    for loc in range(NUM_LOCATIONS):
        for k in range(min(counts[loc], 2)):
            if loc == L_STOREHOUSE:
                value += STOREHOUSE_JUNK[k] if junk > k else 0
            else:
                value += LAYOUT[loc][k]
    down = mine["down"]
    if down[F_LITTLE] and sum(1 for c in counts if c) >= 3:
        value += LAYOUT_FEAT
    if down[F_SINGLE] and max(counts) >= 3:
        value += LAYOUT_FEAT
    return value


def _counts(mine: Dict[str, Any]) -> List[int]:
    return [mine["wait"][loc] + mine["active"][loc] for loc in range(NUM_LOCATIONS)]


def _place(mine: Dict[str, Any]) -> int:
    """The location where one more assistant adds the most (:data:`PLACE_ORDER` on ties)."""
    counts = _counts(mine)
    best, best_value = -1, 0
    for loc in PLACE_ORDER:
        counts[loc] += 1
        value = _layout_value(counts, mine)
        counts[loc] -= 1
        if best < 0 or value > best_value:
            best, best_value = loc, value
    return A.LOCATION + best


def _move(legal: List[int], mine: Dict[str, Any]) -> int:
    """The legal move that gains the most layout value, if it gains :data:`MOVE_GAIN`; else none."""
    counts = _counts(mine)
    base = _layout_value(counts, mine)
    best, best_gain = -1, 0
    for a in legal:
        if not A.MOVE <= a < A.FEAT:
            continue
        _, src, dst = A.decode(a)
        counts[src] -= 1
        counts[dst] += 1
        gain = _layout_value(counts, mine) - base
        counts[src] += 1
        counts[dst] -= 1
        if best < 0 or gain > best_gain:
            best, best_gain = a, gain
    if best >= 0 and best_gain >= MOVE_GAIN:
        return best
    return A.DONE if A.DONE in legal else legal[0]


def _placeable(mine: Dict[str, Any], t: int) -> bool:
    """A card of type ``t`` has room: a gadget slot, or a gadget with an empty socket of its type."""
    if TINKER[t].is_gadget:
        return len(mine["gadgets"]) < MAX_GADGETS
    socket = TINKER[t].sockets[0]
    return any(TINKER[g[0]].sockets[s] == socket and g[1 + s] < 0 for g in mine["gadgets"]
               for s in range(len(g) - 1))


def _payable(mine: Dict[str, Any], solar: int, cost: int, die: int, delta: int) -> bool:
    """Whether ``cost`` can be paid from the usable dice, with die ``die`` changed by ``delta``."""
    values = []
    for d in range(DICE):
        if mine["used"][d] or (solar and mine["flare"] >= 0 and d != mine["flare"]):
            continue
        v = mine["dice"][d] + (delta if d == die else 0)
        if v >= 1:
            values.append(v)
    if solar:
        return cost in values
    sums = {0}
    for v in values:
        sums |= {x + v for x in sums}
    return cost in sums


def _helpful_tweak(mine: Dict[str, Any], flags: Dict[str, int]) -> int:
    """The free tweak (action id) that makes the best-rated placeable card payable when it is not
    payable now; -1 if none does."""
    if flags["no_tweak"]:
        return -1
    solar = flags["solar"]
    best, best_rating = -1, 0
    for t in range(NUM_TINKER_TYPES):
        if not mine["hand"][t] or TINKER[t].rating <= best_rating or not _placeable(mine, t):
            continue
        cost = TINKER[t].cost
        if _payable(mine, solar, cost, -1, 0):
            continue
        for d in range(DICE):
            if mine["used"][d]:
                continue
            for up in (True, False):
                v = mine["dice"][d] + (1 if up else -1)
                if MIN_FACE <= v <= MAX_FACE and _payable(mine, solar, cost, d, 1 if up else -1):
                    best, best_rating = A.free_tweak(d, up), TINKER[t].rating
                    break
            if best_rating == TINKER[t].rating:
                break
    return best


def _recycle_mod(mine: Dict[str, Any]) -> int:
    """The Recycler Level 1 pick: the best-rated modification on a gadget of another faction (it
    loses no faction double), as an action id; -1 if none."""
    best, best_rating = -1, 0
    for g, gad in enumerate(mine["gadgets"]):
        for s in range(len(gad) - 1):
            m = gad[1 + s]
            if m >= 0 and TINKER[m].faction != TINKER[gad[0]].faction and TINKER[m].rating > best_rating:
                best, best_rating = A.mod(g, s), TINKER[m].rating
    return best


def _full_gadget(mine: Dict[str, Any]) -> int:
    """The first gadget with every socket filled (its index), or -1."""
    for g, gad in enumerate(mine["gadgets"]):
        if all(m >= 0 for m in gad[1:]):
            return g
    return -1


def _best_junk(mine: Dict[str, Any], placeable: bool) -> int:
    """The best-rated junkyard card type (placeable ones only if asked; lowest type on ties), or -1."""
    best = -1
    for t in range(NUM_TINKER_TYPES):
        if mine["junk"][t] and (not placeable or _placeable(mine, t)) and (
                best < 0 or TINKER[t].rating > TINKER[best].rating):
            best = t
    return best


def _worst(counts: List[int], keep: int) -> int:
    """The worst-rated card type in ``counts`` (lowest type on ties), sparing one copy of ``keep``; -1 if none."""
    worst = -1
    for t in range(NUM_TINKER_TYPES):
        n = counts[t] - (1 if t == keep else 0)
        if n > 0 and (worst < 0 or TINKER[t].rating < TINKER[worst].rating):
            worst = t
    return worst


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
    if step == "place":
        return _place(mine)
    if step == "move":
        return _move(legal, mine)
    if step == "todo":
        if A.LOCATION + L_TOWNHALL in legal:
            return _place(mine)  # To the Left! / To the Right!: one more assistant
        if any(A.MOVE <= a < A.FEAT for a in legal):
            return _move(legal, mine)  # Casino Night 3
    if step == "repl":
        # Replicator Level 1: the worst card goes, two come.
        return A.HAND + _worst(mine["hand"], -1)
    if step == "recy1":
        a = _recycle_mod(mine)
        return a if a in legal else A.DONE
    if step == "recy2":
        g = _full_gadget(mine)
        return A.GADGET + g if g >= 0 else A.DONE
    if step == "swap1":
        return A.HAND + _worst(mine["hand"], -1)
    if step == "swap2":
        return A.JUNK + _best_junk(mine, False)
    if step == "sh2a":
        worst = _worst(mine["junk"], _best_junk(mine, True))
        return A.JUNK + (worst if worst >= 0 else _worst(mine["junk"], -1))
    if step == "sh2b":
        t = _best_junk(mine, True)
        return A.JUNK + t if t >= 0 and A.JUNK + t in legal else A.DONE
    return _v2_step(state, rng, view, legal, mine)


def _main(view: Dict[str, Any], legal: List[int], mine: Dict[str, Any]) -> int:
    """The action phase: the locations that pay now, in the order that lets them pay (cards in from
    the Replicator and Storehouse, scored at the Recycler, a die tweaked at the Workshop), then
    :func:`_main_v2` (builds, the Town Hall with the spare dice, a draw, a feat)."""
    hand = sum(mine["hand"])
    junk = sum(mine["junk"])
    if A.activate(L_REPLICATOR, 1) in legal and hand:
        return A.activate(L_REPLICATOR, 1)
    if A.activate(L_RECYCLER, 2) in legal and _full_gadget(mine) >= 0:
        return A.activate(L_RECYCLER, 2)
    if A.activate(L_RECYCLER, 1) in legal and _recycle_mod(mine) >= 0:
        return A.activate(L_RECYCLER, 1)
    if A.activate(L_STOREHOUSE, 2) in legal and junk >= 2 and mine["ap"] >= 1:
        best = _best_junk(mine, True)
        if best >= 0 and TINKER[best].rating >= 2 and _worst(mine["junk"], best) >= 0:
            return A.activate(L_STOREHOUSE, 2)
    if A.activate(L_STOREHOUSE, 1) in legal and hand and junk:
        worst = _worst(mine["hand"], -1)
        if TINKER[_best_junk(mine, False)].rating > TINKER[worst].rating:
            return A.activate(L_STOREHOUSE, 1)
    if mine["ap"] >= 1 and not any(A.HAND <= a < A.SCRAP for a in legal):
        tweak = _helpful_tweak(mine, view["flags"])
        if tweak >= 0:
            if tweak in legal:
                return tweak
            if A.activate(L_WORKSHOP, 1) in legal:
                return A.activate(L_WORKSHOP, 1)
    return _main_v2(view, legal, mine)


def policy_v2(state: State, rng: random.Random) -> int:
    """The second policy (``heuristic(policy=v2)``): every assistant works the Town Hall; it draws no
    random numbers."""
    me = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(me)["internal"]
    return _v2_step(state, rng, view, legal, view["players"][me])


def _v2_step(state: State, rng: random.Random, view: Dict[str, Any], legal: List[int], mine: Dict[str, Any]) -> int:
    """:func:`policy_v2`'s move from the mover's view already read (``policy`` falls back to it)."""
    step = view["step"]
    if step == "main":
        return _main_v2(view, legal, mine)
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


def _main_v2(view: Dict[str, Any], legal: List[int], mine: Dict[str, Any]) -> int:
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
