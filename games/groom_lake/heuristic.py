"""The Groom Lake heuristic: a static evaluation and a hand-written policy for each role.

The policy reads the state only through the public State API
(``current_player``, ``legal_actions``, ``view`` of its own seat), never
another player's role or cards, so it would play unchanged on a native engine:

* **Humans** head for Civilization (a breadth-first route over the public
  map), scout when no Civilization is in reach, keep Alien Proof (tools go
  first to hazards and to the Refresh stack), and vote against the most
  suspicious player when a vote comes;
* **the Alien** sabotages without being obvious: it scouts, places Canyons
  next to the Team and keeps Civilizations out of its way, gives a token card
  to hazards, keeps Technology (its weapon), and votes against Humans;
* **the Hunter** plays as a Human and strikes when its belief is high.

The belief is a simple one over roles from public play: every hazard round a
seat joined without contributing makes it more suspect (``stats`` in the
view: rounds joined, items given), normalised over the seats whose role the
believer does not know.
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, List, Optional, Tuple

from aiplay.game import State

from . import actions as A
from .components import (
    ALIEN, AP_VALUE, CANYON, CIVILIZATION, COMPASS, CRASH, DIRS, HELPS, HUNTER, MOUNTAIN, RECOVERY, ROPE, SHOVEL, TECH,
    TILES, WATER, cell_xy,
)

#: Belief in a seat being the Alien above which the Hunter strikes.
STRIKE_BELIEF = 0.55
#: Hazard rounds a seat must have joined before the Hunter trusts its belief.
MIN_ROUNDS = 3


def belief(view: Dict[str, Any]) -> List[float]:
    """The viewer's belief that each seat is the Alien, from public contributions (0 for known roles)."""
    me = view["observer"]
    roles = view["roles"]
    weights = []
    for q, (rounds, items) in enumerate(view["stats"]):
        if q == me or roles[q] is not None or view["life"][q] == 0:
            weights.append(0.0)
        else:
            weights.append(1.0 + max(0, rounds - items))
    total = sum(weights)
    return [w / total if total else 0.0 for w in weights]


def _keep_value(t: int, role: int) -> float:
    """How much a role wants to keep a card of type ``t`` (higher: keep)."""
    if role == ALIEN:
        return 3.0 * AP_VALUE[t] if t in TECH else (25.0 if t == RECOVERY else AP_VALUE[t] * 0.5 + 1)
    if t == RECOVERY:
        return 30.0
    return AP_VALUE[t] * 2.0 if AP_VALUE[t] else {WATER: 6.0, COMPASS: 6.0, SHOVEL: 5.0, ROPE: 5.0}[t]


def _feasible(view: Dict[str, Any], tile: List[int]) -> bool:
    """Whether entering ``tile`` looks worth it: no open hazard, a Crash Site, or enough dice in sight.

    The dice: the viewer's helping cards, its life tokens beyond two, and one
    item from every other living player (what the Team usually gives).
    """
    t = TILES[tile[0]]
    if not tile[4] or t.hazard == CRASH:
        return True
    me = view["observer"]
    hand = view["hand"]
    items = sum(hand[c] for c in HELPS[t.hazard] if AP_VALUE[c] == 0) + max(0, view["life"][me] - 2)
    items += sum(1 for q, life in enumerate(view["life"]) if q != me and life > 0)
    return 3.5 * items > t.number + 1


def _route(view: Dict[str, Any]) -> Tuple[Optional[int], bool]:
    """(first direction towards the nearest Civilization over passable tiles, whether one is in reach).

    Tiles with an open hazard the Team cannot expect to beat are avoided.
    """
    cells = {(t[1], t[2]): t for t in view["map"]}
    start = tuple(view["team"])
    frontier = [start]
    first: Dict[Tuple[int, int], Optional[int]] = {start: None}
    for pos in frontier:
        tile = cells[pos]
        if TILES[tile[0]].terrain == CIVILIZATION:
            return first[pos], True
        for d, (dx, dy) in enumerate(DIRS):
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt in cells and nxt not in first and TILES[cells[nxt][0]].terrain != CANYON \
                    and _feasible(view, cells[nxt]):
                first[nxt] = d if first[pos] is None else first[pos]
                frontier.append(nxt)
    return None, False


def policy(state: State, rng: random.Random) -> int:
    """The heuristic move of the player to act (see the module docstring)."""
    me = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(me)
    role = view["role"]
    hand = view["hand"]
    blocks = {A.decode(a)[0] for a in legal}
    if "refresh" in blocks:
        return min((a for a in legal), key=lambda a: (_keep_value(a - A.REFRESH, role), a))
    if "keep" in blocks:
        return max(legal, key=lambda a: (_keep_value(a - A.KEEP, role), -a))
    if "keep_tile" in blocks:
        return max(legal, key=lambda a: (_tile_value(a - A.KEEP_TILE, role), -a))
    if "place" in blocks:
        return max(legal, key=lambda a: (_place_value(view, a, role), -a))
    if "assign" in blocks:
        return A.ASSIGN + me
    if "give" in blocks:
        return A.GIVE + me
    if "yes" in blocks:
        return _vote(view, role)
    if "done" in blocks:
        return _contribute(view, legal, role, hand)
    return _turn(view, legal, role, hand)


def _tile_value(tile: int, role: int) -> float:
    t = TILES[tile]
    value = {CIVILIZATION: 10.0, MOUNTAIN: 3.0, CANYON: 0.0}.get(t.terrain, 5.0) - 0.2 * t.number
    return -value if role == ALIEN else value


def _place_value(view: Dict[str, Any], action: int, role: int) -> float:
    cell, _ = divmod(action - A.PLACE, 4)
    x, y = cell_xy(cell)
    tx, ty = view["team"]
    near = abs(x - tx) + abs(y - ty)
    # The tile being placed is the scout's own (its view shows it).
    held = view["held"] or [0]
    terrain = TILES[held[0]].terrain
    good = terrain != CANYON
    score = -near if good else near
    return -score if role == ALIEN else score


def _vote(view: Dict[str, Any], role: int) -> int:
    target = view["target"]
    if view["step"] == "half_vote":
        return A.NO if role == ALIEN else A.YES
    if target == view["observer"]:
        return A.NO
    # The Alien votes like a Human (on public suspicion) so as not to stand out.
    b = belief(view)
    return A.YES if 0 <= target < len(b) and b[target] >= max(b) and b[target] > 0.4 else A.NO


def _contribute(view: Dict[str, Any], legal: List[int], role: int, hand: List[int]) -> int:
    tile = TILES[view["map"][view["target"]][0]]
    dice = view["count"]
    cards = [a for a in legal if A.decode(a)[0] == "contrib"]
    if role == ALIEN:
        # A token card from a hand with spare tools keeps the Alien from looking idle.
        mine = [a for a in cards if AP_VALUE[a - A.CONTRIB] == 0 and hand[a - A.CONTRIB] >= 2]
        return mine[0] if mine and dice == 0 else A.DONE
    # Give until the dice in sight (those given, and one item from each player still to come) look enough.
    later = len(view["queue"]) - 1
    if 3.5 * (dice + later) > tile.number + 2:
        return A.DONE
    tools = sorted((a for a in cards if AP_VALUE[a - A.CONTRIB] == 0), key=lambda a: (-hand[a - A.CONTRIB], a))
    if tools:
        return tools[0]
    if A.LIFE in legal and view["life"][view["observer"]] >= 3:
        return A.LIFE
    return A.DONE


def _turn(view: Dict[str, Any], legal: List[int], role: int, hand: List[int]) -> int:
    me = view["observer"]
    life = view["life"][me]
    if role == HUNTER:
        b = belief(view)
        q = max(range(len(b)), key=lambda i: b[i])
        if A.STRIKE + q in legal and b[q] >= STRIKE_BELIEF and view["stats"][q][0] >= MIN_ROUNDS:
            return A.STRIKE + q
    if A.RECOVER in legal and life <= 2:
        return A.RECOVER
    direction, reachable = _route(view)
    if role == ALIEN:
        if A.SCOUT in legal:
            return A.SCOUT
        # Wander, but never onto the way out.
        for d in range(4):
            if A.MOVE + d in legal and d != direction:
                return A.MOVE + d
        return A.END
    if direction is not None and A.MOVE + direction in legal:
        return A.MOVE + direction
    if not reachable and A.SCOUT in legal:
        return A.SCOUT
    return A.END


def static_values(state: Any) -> List[float]:
    """Each seat's value in [-1, 1]: the chance of an escape (from the map) and the AP race.

    A cheap static estimate (no graph search): Civilization tiles on the map and
    the Team's distance to them raise the escape chance; living Humans and the
    Hunter gain from it by their Alien Proof rank, the Alien loses from it.
    """
    if state.is_terminal():
        return state.returns()
    n = state.n
    civ = [(t[1], t[2]) for t in state.placed if TILES[t[0]].terrain == CIVILIZATION]
    tx, ty = state.team
    near = min((abs(x - tx) + abs(y - ty) for x, y in civ), default=12)
    escape = min(0.9, max(0.1, 0.3 + 0.15 * len(civ) - 0.02 * near))
    team = [p for p in range(n) if state.life[p] > 0 and state.roles[p] != ALIEN]
    aps = [state.ap_of(p) for p in team]
    mean = sum(aps) / len(aps) if aps else 0.0
    out = []
    for p in range(n):
        if state.roles[p] == ALIEN:
            v = 0.9 * (1 - 2 * escape)
        elif state.life[p] == 0:
            v = -0.9
        else:
            v = 0.8 * (2 * escape - 1) + 0.1 * math.tanh((state.ap_of(p) - mean) / 20.0)
        out.append(max(-1.0, min(1.0, v)))
    return out
