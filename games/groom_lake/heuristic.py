"""The Groom Lake heuristic: a static evaluation and a hand-written policy for each role.

The policy reads the state only through the public State API
(``current_player``, ``legal_actions``, ``view`` of its own seat), never
another player's role or cards, so it would play unchanged on a native engine:

* **Humans** head for Civilization (a breadth-first route over the public
  map), scout when no Civilization is in reach, keep Alien Proof (tools go
  first to hazards and to the Refresh stack), give their life tokens to a
  hazard the dice look short for (keeping one; from a full hand, whose limit
  would fall, keeping three), and vote against the most suspicious player
  when a vote comes;
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
    ALIEN, AP_VALUE, CANYON, CIVILIZATION, COMPASS, CRASH, DESERT, DIAGONALS, DIRS, HELPS, HUNTER, MOUNTAIN, RECOVERY,
    ROPE, SHOVEL, TECH, TILES, WATER, cell_xy, in_grid,
)
from .board import make_grid, placements

#: Belief in a seat being the Alien above which the Hunter strikes.
STRIKE_BELIEF = 0.55
#: Hazard rounds a seat must have joined before the Hunter trusts its belief.
MIN_ROUNDS = 3
#: Life at or below which a seat plays Recovery and never risks a class-C placement. At 3, not 2:
#: a Human who gives its lives to hazards (``LIFE_WHEN_SHORT``) heals before the clock catches it.
LOW_LIFE = 3
SCOUT_MIN_LIFE = 1
#: Suspicion weights (see :func:`suspicion`): the Hunter strikes, a seat calls a vote, a voter
#: says yes at these, when the suspect leads the next one by ``LEAD``.
STRIKE_WEIGHT = 4
VOTE_WEIGHT = 4
YES_WEIGHT = 3
LEAD = 2
STRIKE_LEAD = 2
RATIO = 2
#: Life at which a Human with no helping card gives a life token: while the dice look short, and
#: to keep its record of giving. Down to its last life: a failed hazard wastes every card and token
#: given to it and sends the Team back, and the clock takes a life from everyone anyway.
LIFE_WHEN_SHORT = 2
LIFE_ALIBI = 99
#: The same from a full hand (a life given from it also costs a card).
LIFE_WHEN_SHORT_FULL = 4
#: What a Human's tool is worth to keep (Alien Proof is worth twice its AP, Recovery 60).
TOOL_VALUE = 21
#: Rounds joined beyond items given at which the Alien gives a token card to look busy.
ALIEN_TOKEN_DEFICIT = 3


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


def _keep_value_new(t: int, role: int) -> int:
    """The new policy's card values (higher: keep). Humans value a tool above the smallest Alien
    Proof: a hand of proof alone beats no hazard, and tools given to hazards also refill the
    Discard Stack (each card there is a turn before everyone loses a life)."""
    if role == ALIEN:
        return 3 * AP_VALUE[t] if t in TECH else (25 if t == RECOVERY else AP_VALUE[t] // 2 + 1)
    if t == RECOVERY:
        return 60
    if AP_VALUE[t]:
        return 2 * AP_VALUE[t]
    return TOOL_VALUE + (1 if t in (WATER, COMPASS) else 0)


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


def suspicion(view: Dict[str, Any]) -> List[int]:
    """The public evidence against each seat, as integer weights: 1 plus the hazard rounds it joined
    beyond the items it gave (0 for the viewer, dead seats and seats whose role the viewer knows)."""
    me = view["observer"]
    roles = view["roles"]
    out = []
    for q, (rounds, items) in enumerate(view["stats"]):
        if q == me or roles[q] is not None or view["life"][q] == 0:
            out.append(0)
        else:
            out.append(1 + max(0, rounds - items))
    return out


def _suspect(weights: List[int]) -> Tuple[int, int, int]:
    """(the most suspect seat or -1, its weight, the next weight); ties go to the lower seat."""
    best, top, second = -1, 0, 0
    for q, w in enumerate(weights):
        if w > top:
            best, top, second = q, w, top
        elif w > second:
            second = w
    return best, top, second


def _cells(view: Dict[str, Any]) -> Dict[Tuple[int, int], List[int]]:
    return {(t[1], t[2]): t for t in view["map"]}


def _lake_distances(cells: Dict[Tuple[int, int], List[int]]) -> Dict[Tuple[int, int], int]:
    """Orthogonal steps over placed tiles from Groom Lake (the distance that picks the scouting stack)."""
    dist = {(0, 0): 0}
    frontier = [(0, 0)]
    for pos in frontier:
        for dx, dy in DIRS:
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt in cells and nxt not in dist:
                dist[nxt] = dist[pos] + 1
                frontier.append(nxt)
    return dist


def _open_cell(cells: Dict[Tuple[int, int], List[int]], pos: Tuple[int, int], dirs: Any) -> bool:
    """Whether an empty in-grid cell lies next to ``pos`` in one of ``dirs``."""
    return any((pos[0] + dx, pos[1] + dy) not in cells and in_grid(pos[0] + dx, pos[1] + dy) for dx, dy in dirs)


def _beatable(view: Dict[str, Any], tile: List[int]) -> bool:
    """Whether entering ``tile`` looks worth it to the new policy: no open hazard, a Crash Site, or
    enough dice in sight: the viewer's helping tools, its life tokens beyond two, and an item from
    every other living player's half (not all of them have a helping card, and the Alien gives none).
    """
    t = TILES[tile[0]]
    if not tile[4] or t.hazard == CRASH:
        return True
    me = view["observer"]
    hand = view["hand"]
    items = sum(hand[c] for c in HELPS[t.hazard] if AP_VALUE[c] == 0) + max(0, view["life"][me] - 2)
    others = sum(1 for q, life in enumerate(view["life"]) if q != me and life > 0)
    return 7 * (items + (others + 1) // 2) > 2 * (t.number + 2)


def _explore(view: Dict[str, Any], cells: Dict[Tuple[int, int], List[int]]) -> Optional[int]:
    """Where the Humans scout next: -1 here, a direction to walk in, or None when no tile will do.

    The candidates are the passable tiles in reach (over tiles whose hazard looks beatable) with an
    empty orthogonal neighbour cell, where a scouted tile lands without a life's cost; the best is
    far from Groom Lake (farther tiles draw from the "6" and then the Compass stack, the only one
    with Civilization) and near the Team: 2 x its lake distance minus its walk.
    """
    lake = _lake_distances(cells)
    start = tuple(view["team"])
    first: Dict[Tuple[int, int], int] = {start: -1}
    cost = {start: 0}
    frontier = [start]
    best: Optional[int] = None
    best_score = 0
    for pos in frontier:
        if _open_cell(cells, pos, DIRS):
            score = 2 * lake[pos] - cost[pos]
            if best is None or score > best_score:
                best, best_score = first[pos], score
        for d, (dx, dy) in enumerate(DIRS):
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt in cells and nxt not in first and TILES[cells[nxt][0]].terrain != CANYON \
                    and _beatable(view, cells[nxt]):
                first[nxt] = d if first[pos] < 0 else first[pos]
                tile = cells[nxt]
                # An open hazard costs cards and maybe a retreat: it counts as three steps.
                cost[nxt] = cost[pos] + (3 if tile[4] and TILES[tile[0]].hazard != CRASH else 1)
                frontier.append(nxt)
    return best


def policy(state: State, rng: random.Random) -> int:
    """The heuristic move of the player to act (see the module docstring)."""
    me = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(me)["internal"]
    role = view["role"]
    hand = view["hand"]
    blocks = {A.decode(a)[0] for a in legal}
    if "refresh" in blocks:
        return min((a for a in legal), key=lambda a: (_keep_value_new(a - A.REFRESH, role), a))
    if "keep" in blocks:
        return max(legal, key=lambda a: (_keep_value_new(a - A.KEEP, role), -a))
    if "keep_tile" in blocks:
        return max(legal, key=lambda a: (_tile_value(view, a - A.KEEP_TILE, role), -a))
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
    return _turn(view, legal, role)


def _tile_value(view: Dict[str, Any], tile: int, role: int) -> int:
    """How much the scout wants to keep ``tile``: Humans the easy ground, and they pay heavily for
    a tile that could only go anywhere (class C: a life token); the Alien the Canyons."""
    t = TILES[tile]
    if t.terrain == CIVILIZATION:
        value = 120 - t.number
    elif t.terrain == CANYON:
        value = 0
    else:
        value = 40 if t.terrain == DESERT else 25
        value += 2 * t.number if t.hazard == CRASH else -t.number
    if role == ALIEN:
        return -value  # a class-C tile costs the Alien a life, and lands far from the Team
    life = view["life"][view["observer"]]
    cells = view["map"]
    if placements(cells, make_grid(cells), (view["team"][0], view["team"][1]), tile)[0] == "C":
        value -= 200 if life <= LOW_LIFE else 30
    return value


def _place_value(view: Dict[str, Any], action: int, role: int) -> int:
    """Humans lay passable tiles outward next to the Team and Canyons inward, away from it; the
    Alien lays Canyons next to the Team and passable tiles as far from it as it can."""
    cell, _ = divmod(action - A.PLACE, 4)
    x, y = cell_xy(cell)
    tx, ty = view["team"]
    near = abs(x - tx) + abs(y - ty)
    out = abs(x) + abs(y)
    held = view["held"] or [0]
    good = TILES[held[0]].terrain != CANYON
    if role == ALIEN:
        return near if good else -near
    return 2 * out - 3 * near if good else 3 * near - 2 * out


def _vote(view: Dict[str, Any], role: int) -> int:
    target = view["target"]
    if view["step"] == "half_vote":
        return A.NO if role == ALIEN else A.YES
    if target == view["observer"]:
        return A.NO
    if role == ALIEN:
        return A.YES  # every death but its own brings the Alien closer to its win
    q, top, second = _suspect(suspicion(view))
    return A.YES if q == target and top >= YES_WEIGHT and second > 0 and top >= RATIO * second else A.NO


def _contribute(view: Dict[str, Any], legal: List[int], role: int, hand: List[int]) -> int:
    me = view["observer"]
    rounds, items = view["stats"][me]
    tile = TILES[view["map"][view["target"]][0]]
    cards = [a for a in legal if A.decode(a)[0] == "contrib"]
    tools = sorted((a for a in cards if AP_VALUE[a - A.CONTRIB] == 0), key=lambda a: (-hand[a - A.CONTRIB], a))
    if role == ALIEN:
        # A token card from a hand with spare tools, once the record starts to look idle.
        spare = [a for a in tools if hand[a - A.CONTRIB] >= 2]
        return spare[0] if spare and rounds - items >= ALIEN_TOKEN_DEFICIT else A.DONE
    # Give while the dice in sight (those given, one item from each player still to come) look
    # short, and one tool a round anyway: a Human's record of giving is its alibi.
    short = 7 * (view["count"] + len(view["queue"]) // 2) <= 2 * (tile.number + 2)
    if not short and items >= rounds:
        return A.DONE
    if tools:
        return tools[0]
    # A life given from a full hand also costs a card (the hand limit falls with it), so a full hand
    # gives only from higher life: its proof is what wins the Team's escape for it.
    life = view["life"][me]
    if short:
        floor = LIFE_WHEN_SHORT_FULL if sum(hand) >= life else LIFE_WHEN_SHORT
    else:
        floor = LIFE_ALIBI
    if A.LIFE in legal and life >= floor:
        return A.LIFE
    return A.DONE


def _turn(view: Dict[str, Any], legal: List[int], role: int) -> int:
    me = view["observer"]
    life = view["life"][me]
    cells = _cells(view)
    team = (view["team"][0], view["team"][1])
    safe = _open_cell(cells, team, DIRS) or _open_cell(cells, team, DIAGONALS)
    if role == ALIEN:
        return _alien_turn(view, legal, life)
    q, top, second = _suspect(suspicion(view))
    # Act only on a clear suspect, ahead of another one (a lone candidate is no evidence); a vote
    # also wants a factor: late in a game everyone has joined many rounds without a card to give.
    if q >= 0 and second > 0 and view["stats"][q][0] >= MIN_ROUNDS:
        if role == HUNTER and top >= STRIKE_WEIGHT and top - second >= STRIKE_LEAD and A.STRIKE + q in legal:
            return A.STRIKE + q
        if top >= VOTE_WEIGHT and top - second >= LEAD and top >= RATIO * second and A.VOTE + q in legal:
            return A.VOTE + q
    if A.RECOVER in legal and life <= LOW_LIFE:
        return A.RECOVER
    direction, reachable = _route(view)
    if direction is not None and A.MOVE + direction in legal:
        return A.MOVE + direction
    if reachable:
        return A.END
    target = _explore(view, cells)
    if target is not None and target >= 0 and A.MOVE + target in legal:
        return A.MOVE + target
    # At one life a class-C placement kills: the last life scouts nowhere (the others may).
    if A.SCOUT in legal and life > SCOUT_MIN_LIFE and (target == -1 or safe or (target is None and life > LOW_LIFE)):
        return A.SCOUT
    return A.END


def _alien_turn(view: Dict[str, Any], legal: List[int], life: int) -> int:
    """The Alien: calls a vote on the seat the Humans suspect most, else scouts whenever it can (to
    lay Canyons by the Team, waste passable tiles far from it, and keep Civilization in the pool),
    whatever it costs in life: the Alien wins dead or alive."""
    me = view["observer"]
    public = [1 + max(0, r - i) if view["life"][p] > 0 and view["roles"][p] in (None, ALIEN) else 0
              for p, (r, i) in enumerate(view["stats"])]
    mine = public[me]
    public[me] = 0
    q, top, second = _suspect(public)
    if q >= 0 and top >= VOTE_WEIGHT and top - second >= LEAD and top - mine >= LEAD and A.VOTE + q in legal:
        return A.VOTE + q
    if A.RECOVER in legal and life <= LOW_LIFE:
        return A.RECOVER
    if A.SCOUT in legal:
        return A.SCOUT
    return A.END


def policy_v1(state: State, rng: random.Random) -> int:
    """The first heuristic (kept as the ladder's baseline ``heuristic(policy=v1)``): it scouts
    at the lake until class-C placements kill its Humans, never votes and rarely strikes."""
    me = state.current_player()
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = state.view(me)["internal"]
    role = view["role"]
    hand = view["hand"]
    blocks = {A.decode(a)[0] for a in legal}
    if "refresh" in blocks:
        return min((a for a in legal), key=lambda a: (_keep_value(a - A.REFRESH, role), a))
    if "keep" in blocks:
        return max(legal, key=lambda a: (_keep_value(a - A.KEEP, role), -a))
    if "keep_tile" in blocks:
        return max(legal, key=lambda a: (_tile_value_v1(a - A.KEEP_TILE, role), -a))
    if "place" in blocks:
        return max(legal, key=lambda a: (_place_value_v1(view, a, role), -a))
    if "assign" in blocks:
        return A.ASSIGN + me
    if "give" in blocks:
        return A.GIVE + me
    if "yes" in blocks:
        return _vote_v1(view, role)
    if "done" in blocks:
        return _contribute_v1(view, legal, role, hand)
    return _turn_v1(view, legal, role, hand)


def _tile_value_v1(tile: int, role: int) -> float:
    t = TILES[tile]
    value = {CIVILIZATION: 10.0, MOUNTAIN: 3.0, CANYON: 0.0}.get(t.terrain, 5.0) - 0.2 * t.number
    return -value if role == ALIEN else value


def _place_value_v1(view: Dict[str, Any], action: int, role: int) -> float:
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


def _vote_v1(view: Dict[str, Any], role: int) -> int:
    target = view["target"]
    if view["step"] == "half_vote":
        return A.NO if role == ALIEN else A.YES
    if target == view["observer"]:
        return A.NO
    # The Alien votes like a Human (on public suspicion) so as not to stand out.
    b = belief(view)
    return A.YES if 0 <= target < len(b) and b[target] >= max(b) and b[target] > 0.4 else A.NO


def _contribute_v1(view: Dict[str, Any], legal: List[int], role: int, hand: List[int]) -> int:
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


def _turn_v1(view: Dict[str, Any], legal: List[int], role: int, hand: List[int]) -> int:
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


#: The escape model of :func:`static_values`: a logistic regression of "the Team escapes" on
#: features of a turn's start, fitted on 55,947 turn starts of 2,400 games of the heuristic policy
#: (3 to 6 players, half of them with 5 % random moves; mean log-likelihood -0.554 against -0.675
#: for the base rate; benchmarks/RESULTS.md, "Groom Lake's static evaluation"). By table size: the
#: intercept.
ESCAPE_BIAS = {3: -2.90, 4: -2.64, 5: -1.94, 6: -1.89}
#: A Civilization tile without an open hazard next to the Team: the next move escapes.
ESCAPE_CIV_NEXT = 4.92
#: A Civilization tile without an open hazard on the map, and each step (up to ``ESCAPE_STEP_CAP``)
#: from the Team to the nearest one.
ESCAPE_CIV_CLEAR, ESCAPE_CIV_STEP, ESCAPE_STEP_CAP = 0.24, -0.17, 8
#: A Civilization tile whose hazard is still open (its toughness is 10 to 14).
ESCAPE_CIV_HAZARD = -0.18
#: Each orthogonal step of the Team from Groom Lake, up to ``ESCAPE_LAKE_CAP`` (the Compass stack,
#: the only one with Civilization, is drawn from 7 steps on).
ESCAPE_LAKE, ESCAPE_LAKE_CAP = 0.19, 8
#: Each tile on the map (time passing: the tile stacks run down).
ESCAPE_TILE = -0.011
#: The living Humans and Hunter as a share of the seats that start on the Team: a Team member's death
#: costs every hazard after it one player's cards and tokens (3 players: from 60 % to 23 % escapes).
ESCAPE_TEAM = 1.37
#: The Team's life tokens and its cards without Alien Proof (tools and Recovery), per starting member.
ESCAPE_LIFE, ESCAPE_CARDS = 0.39, 0.49
#: The Alien still alive (it lays Canyons, gives nothing, and votes Humans out).
ESCAPE_ALIEN = -0.86
#: The Alien Proof race: who of the Team wins an escape, as a softmax over AP at this scale (the
#: scale of the best fit to the escapes' winners, 10 to 30 AP tried).
AP_SCALE = 15.0


def escape_inputs(state: Any) -> Tuple[int, bool, int, int, int, int]:
    """What the escape model reads of ``state`` besides the table size, the Team's place and the tiles.

    ``(steps from the Team to the nearest Civilization without an open hazard, or -1;
    whether a Civilization with an open hazard is on the map; the living Team members;
    their life tokens; their cards without Alien Proof; 1 if the Alien is alive, else 0)``.
    """
    tx, ty = state.team
    clear = -1
    hazard = False
    for t in state.placed:
        if TILES[t[0]].terrain == CIVILIZATION:
            if t[4]:
                hazard = True
            else:
                d = abs(t[1] - tx) + abs(t[2] - ty)
                if clear < 0 or d < clear:
                    clear = d
    members = life = cards = 0
    alien_alive = 0
    for p in range(state.n):
        if state.roles[p] == ALIEN:
            alien_alive = 1 if state.life[p] > 0 else 0
        elif state.life[p] > 0:
            members += 1
            life += state.life[p]
            cards += sum(c for t, c in enumerate(state.hands[p]) if AP_VALUE[t] == 0)
    return clear, hazard, members, life, cards, alien_alive


def escape_chance(state: Any) -> float:
    """The chance that the Team escapes, by the logistic model of :data:`ESCAPE_BIAS` and the weights after it.

    Read from the true state (roles included), as a searcher reads a sampled world.
    (The kernel's ``evaluate`` repeats these float operations in this order.)
    """
    n = state.n
    tx, ty = state.team
    clear, hazard, members, life, cards, alien_alive = escape_inputs(state)
    x = ESCAPE_BIAS[n]
    if clear == 1:
        x += ESCAPE_CIV_NEXT
    if clear >= 0:
        x += ESCAPE_CIV_CLEAR + ESCAPE_CIV_STEP * min(clear, ESCAPE_STEP_CAP)
    if hazard:
        x += ESCAPE_CIV_HAZARD
    x += ESCAPE_LAKE * min(abs(tx) + abs(ty), ESCAPE_LAKE_CAP)
    x += ESCAPE_TILE * len(state.placed)
    x += (ESCAPE_TEAM * members + ESCAPE_LIFE * life + ESCAPE_CARDS * cards) / (n - 1)
    x += ESCAPE_ALIEN * alien_alive
    return 1.0 / (1.0 + math.exp(-x))


def static_values(state: Any) -> List[float]:
    """Each seat's expected return, in [-1, 1]: the chance of an escape times each Team member's share of it.

    The hand-fitted evaluation the searches read before issue 41's learned one
    (``value_model.learned_values``, now ``heuristic_values``); kept as the
    baseline the fitting script (``benchmarks/groom_lake_value_fit.py``) scores against.

    An escape is won by the living Team member with the most Alien Proof (all the
    living Team with a Half-Win), so a member's chance to win is
    :func:`escape_chance` times its softmax share of the AP race (``AP_SCALE``);
    a winner gets +1 and each loser ``-1 / (n - 1)`` (the game's returns with
    one winner). The Alien wins when the Team does not escape. So a Team member
    who votes another out gains a larger share of a smaller chance: the model
    prices the lost Team member (``ESCAPE_TEAM``, ``ESCAPE_LIFE``), which a
    search's 40-move playouts rarely reach.
    """
    if state.is_terminal():
        return state.returns()
    n = state.n
    escape = escape_chance(state)
    team = [p for p in range(n) if state.life[p] > 0 and state.roles[p] != ALIEN]
    if state.half_agreed:  # the variant: the living Team shares the win, AP is worthless
        shares = {p: 1.0 / len(team) for p in team}
    else:
        best = max((state.ap_of(p) for p in team), default=0)
        weights = {p: math.exp((state.ap_of(p) - best) / AP_SCALE) for p in team}
        total = sum(weights.values())
        shares = {p: w / total for p, w in weights.items()}
    return expected_returns(state, escape, shares)


def expected_returns(state: Any, escape: float, shares: Dict[int, float]) -> List[float]:
    """Each seat's expected return from the chance of an ``escape`` and the living Team's ``shares`` of it.

    ``shares``: each living Team member's chance to be the winner of an escape (the
    whole living Team with a Half-Win, whose members then share the win). A winner
    gets ``+1`` (its share with a Half-Win), a loser ``-1 / (n - winners)``. Both
    evaluations use it: the hand-fitted one here and the learned one (``value_model``).
    """
    n = state.n
    winners = len(shares) if state.half_agreed else 1
    # A loser's return: after an escape (``winners`` of the Team won), and after the Alien's win.
    lost_escape = -1.0 / (n - winners)
    lost_alien = -1.0 / (n - 1)
    out = []
    for p in range(n):
        if state.roles[p] == ALIEN:
            v = (1.0 - escape) + escape * lost_escape
        elif p in shares:
            if state.half_agreed:
                v = escape * shares[p] + (1.0 - escape) * lost_alien
            else:
                win = escape * shares[p]
                v = win + (1.0 - win) * lost_alien
        else:
            v = escape * lost_escape + (1.0 - escape) * lost_alien
        out.append(v)
    return out
