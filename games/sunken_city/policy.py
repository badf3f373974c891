"""A hand-written Sunken City player for the heuristic bot.

It fetches the nearest treasure it has not found, brings its finds home, and
turns Neptune against the opponent with the most to lose. It reads the state
through the public API only (``current_player``, ``legal_actions``,
``to_dict``), so it plays on any engine that shares the action space; the
geometry comes from :mod:`.board`.

The kernel's ``policy_action`` (``games/sunken_city/kernel.pyx``) is an exact port:
with the same random stream (``aiplay.testing.kernel_rng.KernelRandom``) both choose
the same action (``tests/test_policy_agreement.py``). Hence every tie is broken
by a stated rule or by one uniform draw among the tied actions.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import networkx as nx

from . import board as B
from .actions import (
    BUILD_BASE, END_TURN, ENTER_VILLAGE, MOVE, NEPTUNE, NEPTUNE_STEP_BASE, NEPTUNE_STOP, PLAY_CARD, RAISE, STEP_BASE,
    STOP_MOVE, STREET_BASE, USE_CHIP,
)
from .components import CARDS

#: A die roll the policy counts on when Neptune is outside its territory.
EXPECTED_ROLL = 2


class _View:
    """The parts of ``to_dict()`` the policy reasons about, in cell numbers."""

    def __init__(self, state: Any):
        data = state.to_dict()
        self.num_treasures = 10 if state.game.options.get("short") else 11
        self.data = data
        self.player: int = state.current_player()
        self.n = len(data["adventurers"])
        self.seats: Tuple[int, ...] = B.SEATS_BY_PLAYERS[self.n]
        cover = [B.EMPTY] * B.NUM_CELLS
        for row, col, direction in data["streets"]:
            a = B.cell_of(row, col)
            cover[a] = a
            cover[a + 1 if direction == "right" else a + B.SIZE] = a
        self.building_at: Dict[int, int] = {}
        for i, pos in enumerate(data["buildings"]):
            if pos is not None:
                cell = B.cell_of(*pos)
                cover[cell] = cell
                self.building_at[cell] = i + 1
        self.cover = cover
        self.neptune = cover[B.cell_of(*data["neptune"])]
        self.positions: List[Optional[int]] = [
            None if pos == "village" else cover[B.cell_of(*pos)] for pos in data["adventurers"]]
        self.graph = B.piece_graph(cover, self.seats)

    # -- what the player wants -------------------------------------------------
    def found(self, player: int) -> Set[int]:
        return set(self.data["carried"][player]) | set(self.data["secured"][player])

    def wanted_buildings(self, player: int) -> Dict[int, int]:
        """Anchor -> value of the pieces whose entry would show ``player`` a new treasure."""
        found = self.found(player)
        out = {}
        for cell, b in self.building_at.items():
            value = (b if b not in found else 0) + (12 if cell == B.CENTRE and 12 not in found else 0)
            if value:
                out[cell] = value
        return out

    def source(self, player: int) -> int:
        pos = self.positions[player]
        return B.VILLAGE_NODE_BASE + self.seats[player] if pos is None else pos

    def distances(self, player: int, limit: int = 99) -> Dict[int, int]:
        """Graph distances for ``player``'s adventurer (other villages removed)."""
        others = [B.VILLAGE_NODE_BASE + s for s in self.seats if s != self.seats[player]]
        view = nx.restricted_view(self.graph, others, [])
        return B.reachable_within(view, self.source(player), limit)

    def home_node(self, player: int) -> int:
        return B.VILLAGE_NODE_BASE + self.seats[player]

    def component_cells(self, player: int) -> Set[int]:
        """Cells of the pieces ``player`` can walk to (any distance); the corner cell when at home and cut off."""
        cells: Set[int] = set()
        for node in self.distances(player):
            if node < B.NUM_CELLS:
                cells.update(B.piece_cells(self.cover, node))
        return cells


def _score_threat(view: _View, me: int) -> List[Tuple[float, int]]:
    """Opponents worth sinking, best first: (loss they would suffer, player)."""
    out = []
    secured = [len(s) for s in view.data["secured"]]
    for p in range(view.n):
        if p == me or view.positions[p] is None:
            continue
        # Finds are what a sinking destroys; the leader is the one to slow down.
        loss = len(view.data["carried"][p]) * 3 + (2 if secured[p] == max(secured) else 0) + 0.5
        out.append((loss, p))
    return sorted(out, reverse=True)


def _shortest_path(graph: nx.Graph, source: int, goal: int) -> Optional[List[int]]:
    """A shortest path from ``source`` to ``goal`` (both included), or None when there is none.

    Of several shortest paths it takes, step by step, the lowest-numbered node
    that is still on one: a fixed choice that the kernel's port makes too.
    """
    to_goal = B.reachable_within(graph, goal, B.NUM_CELLS + 4)
    if source not in to_goal:
        return None
    path = [source]
    while path[-1] != goal:
        here = path[-1]
        path.append(min(n for n in graph.neighbors(here) if to_goal.get(n) == to_goal[here] - 1))
    return path


def _neptune_graph(view: _View, me: int) -> nx.Graph:
    """The pieces Neptune may cross to attack: no village, and not the piece ``me`` stands on.

    Neptune sinks every piece he leaves, so a path through my own piece would drown me.
    """
    avoid = [B.VILLAGE_NODE_BASE + s for s in view.seats]
    if view.positions[me] is not None:
        avoid.append(view.positions[me])
    return nx.restricted_view(view.graph, avoid, [])


def _neptune_plan(view: _View, me: int, steps: int) -> Optional[List[int]]:
    """A Neptune path (anchors after the start) that sinks an opponent's piece within ``steps``, or None.

    The victims are tried by :func:`_score_threat`. Neptune walks a shortest
    path that avoids my piece onto the victim's piece, then one step more to
    a piece off that path: leaving the victim's piece sinks it.
    """
    mine = view.positions[me]
    if view.neptune == mine:
        return None  # any step away from here sinks me
    graph = _neptune_graph(view, me)
    for _, target in _score_threat(view, me):
        goal = view.positions[target]
        if goal == mine:
            continue  # sinking him would sink me too
        if goal == view.neptune:
            # He stands under Neptune: any step away sinks him.
            steps_away = sorted(graph.neighbors(view.neptune))
            if steps_away:
                return steps_away[:1]
            continue
        path = _shortest_path(graph, view.neptune, goal)
        if path is None or len(path) - 1 + 1 > steps:
            continue
        exits = [x for x in graph.neighbors(goal) if x not in path]
        if not exits:
            continue
        return path[1:] + [min(exits)]
    return None


def _choose_card(view: _View, legal: Sequence[int], me: int) -> int:
    dist = view.distances(me, 7)
    wanted = view.wanted_buildings(me)
    targets = [d for node, d in dist.items() if node in wanted]
    if view.data["carried"][me] and view.home_node(me) in dist and dist[view.home_node(me)] > 0:
        targets.append(dist[view.home_node(me)])
    cards = [(a, CARDS[a - PLAY_CARD]) for a in legal]
    if targets:
        need = min(targets)
        enough = [(pts, -pieces, a) for a, (pieces, pts) in cards if pts >= need]
        if enough:
            return min(enough)[2]
        return max((pts, pieces, a) for a, (pieces, pts) in cards)[2]
    return max((pieces, pts, a) for a, (pieces, pts) in cards)[2]


def _raise_target(view: _View, me: int, reach: Set[int]) -> int:
    """The cell the raise should build toward: a wanted building, home with finds, or a free dark site."""
    origin = reach or {B.VILLAGE_CORNER[view.seats[me]]}

    def manhattan(cell: int) -> int:
        r, c = B.row_col(cell)
        return min(abs(r - B.row_col(o)[0]) + abs(c - B.row_col(o)[1]) for o in origin)

    if view.data["carried"][me] and view.home_node(me) not in view.distances(me):
        return B.VILLAGE_CORNER[view.seats[me]]
    wanted = [cell for cell in view.wanted_buildings(me) if cell not in reach]
    if wanted:
        return min(wanted, key=lambda cell: (manhattan(cell), cell))
    free = [cell for cell in B.BUILDING_SITES if view.cover[cell] == B.EMPTY]
    return min(free, key=lambda cell: (manhattan(cell), cell)) if free else B.CENTRE


def _choose_raise(view: _View, legal: Sequence[int], me: int, rng: random.Random) -> int:
    reach = view.component_cells(me)
    corner = B.VILLAGE_CORNER[view.seats[me]]
    target = _raise_target(view, me, reach)
    tr, tc = B.row_col(target)
    found = view.found(me)

    def touches(cells: Sequence[int]) -> bool:
        if not reach:
            return corner in cells
        return any(n in reach for cell in cells for n in B.CELL_NEIGHBOURS[cell])

    best: List[Tuple[float, int]] = []  # (score, action) in the order of ``legal``
    for a in legal:
        if a < BUILD_BASE:
            cells = B.STREET_SLOTS[a - STREET_BASE]
            assert cells is not None
        else:
            b, site = divmod(a - BUILD_BASE, B.NUM_SITES)
            cells = (B.BUILDING_SITES[site],)
        dist = min(abs(B.row_col(cell)[0] - tr) + abs(B.row_col(cell)[1] - tc) for cell in cells)
        score = -float(dist)
        if touches(cells):
            score += 20
        if a >= BUILD_BASE:
            b = (a - BUILD_BASE) // B.NUM_SITES + 1
            # A building only helps when its treasure is still to find, and
            # then the more valuable the better (RB "Strategy Hints").
            score += (6 + b / 2) if b not in found else -10
        best.append((score, a))
    # Scores are multiples of 1/2, so ties are exact: one uniform draw among them.
    top = max(score for score, _ in best)
    return rng.choice([a for score, a in best if score == top])


def _choose_step(view: _View, legal: Sequence[int], me: int, points: int) -> int:
    """A step of the move block, or STOP_MOVE / USE_CHIP.

    Preference: a wanted building from which home is still reachable this
    turn; else home when carrying finds; else a wanted building within
    reach (while carrying little); else head home with finds, or toward the
    nearest wanted building.
    """
    graph = nx.restricted_view(view.graph, [B.VILLAGE_NODE_BASE + s for s in view.seats
                                            if s != view.seats[me]], [])
    source = view.source(me)
    dist = B.reachable_within(graph, source, 99)
    home = view.home_node(me)
    from_home = B.reachable_within(graph, home, 99)
    wanted = {node: v for node, v in view.wanted_buildings(me).items() if node in dist and dist[node] > 0}
    carried = len(view.data["carried"][me])
    bonus = _roofs(view, me) if USE_CHIP in legal else 0

    def best_round_trip(budget: int) -> Optional[int]:
        trips = [(-v, dist[w] + from_home[w], w) for w, v in wanted.items()
                 if w in from_home and dist[w] + from_home[w] <= budget]
        return min(trips)[2] if trips else None

    goal = best_round_trip(points)
    if goal is None and carried and home in dist and 0 < dist[home] <= points:
        goal = home
    if goal is None and carried < 3:
        # A point of distance is worth 20 of value (an exact integer key, no rounding).
        near = [(20 * dist[w] - v, w) for w, v in wanted.items() if dist[w] <= points]
        if near:
            goal = min(near)[1]
    if goal is None and bonus and (best_round_trip(points + bonus) is not None or any(
            dist[w] <= points + bonus for w in wanted)):
        return USE_CHIP
    if goal is None and carried and home in dist and dist[home] > 0:
        goal = home
    if goal is None and wanted:
        goal = min((20 * dist[w] - v, w) for w, v in wanted.items())[1]
    if goal is None:
        return STOP_MOVE
    path = _shortest_path(graph, source, goal)
    assert path is not None  # the goal was chosen among the reachable nodes
    nxt = path[1]
    action = ENTER_VILLAGE if nxt == home else STEP_BASE + nxt
    return action if action in legal else STOP_MOVE


def _roofs(view: _View, me: int) -> int:
    """Treasures still roof-side up: what a Neptune chip would add."""
    return view.num_treasures - len(view.found(me))


def _neptune_in_my_territory(view: _View, me: int) -> bool:
    return any(B.TERRITORY[c] == view.seats[me] for c in B.piece_cells(view.cover, view.neptune))


def heuristic_policy(state: Any, rng: random.Random) -> int:
    """Choose an action for the player to move: greedy treasure hunting plus opportunistic Neptune attacks."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    view = _View(state)
    me = view.player
    phase = view.data["phase"]
    if phase == "card":
        return _choose_card(view, legal, me)
    if phase == "raise":
        return _choose_raise(view, legal, me, rng)
    if phase == "move":
        return _choose_step(view, legal, me, view.data["move_left"])
    if phase == "neptune":
        plan = _neptune_plan(view, me, view.data["neptune_left"])
        if plan and NEPTUNE_STEP_BASE + plan[0] in legal:
            return NEPTUNE_STEP_BASE + plan[0]
        if not view.data["raised"] and view.neptune != view.positions[me]:
            # The lake is full: sink something (not under me) to keep streets flowing.
            steps = [a for a in legal if a >= NEPTUNE_STEP_BASE]
            safe = [a for a in steps if a - NEPTUNE_STEP_BASE != view.positions[me]]
            if safe:
                return rng.choice(safe)
        return NEPTUNE_STOP
    # Choosing the next block: raise first (it opens paths), then move, then
    # Neptune when an attack is in reach.
    if RAISE in legal:
        return RAISE
    if MOVE in legal:
        dist = view.distances(me)
        useful = any(node in view.wanted_buildings(me) for node in dist) or (
            view.data["carried"][me] and view.home_node(me) in dist)
        if useful or USE_CHIP in legal:
            return MOVE
    if NEPTUNE in legal:
        steps = view.data.get("neptune_left") or 0
        reach = (4 if view.n == 2 else 3) if _neptune_in_my_territory(view, me) else EXPECTED_ROLL
        if _neptune_plan(view, me, max(steps, reach)) is not None:
            return NEPTUNE
        if not view.data["raised"] and view.neptune != view.positions[me]:
            return NEPTUNE  # nothing could rise: the lake is full, so make room
    if END_TURN in legal:
        return END_TURN
    return legal[0]


__all__ = ["heuristic_policy"]
