"""The desert map: placed tiles on a bounded grid, and the questions the rules ask of it.

The map is stored as the fixed-size grid form a C kernel can mirror: a list of
placed tiles ``[tile, x, y, rotation, open]`` (coordinates ``-48..48``, see
:mod:`components`) with a cell lookup. Connectivity questions -- the Team's
distance from Groom Lake, the region the Team can still walk, whether an
escape is left -- are answered with a networkx graph built from it (one node
per placed tile, one edge per pair of orthogonally adjacent tiles).

Rulings used here (spec groom_lake.md "A turn", "End"):

* tiles are always laid orthogonally next to an already placed tile, so the
  map stays connected: a diagonal placement (class B) also needs an
  orthogonally adjacent placed tile to match against (the rulebook's
  "diagonally" would otherwise leave a tile floating off the map, with no
  distance from Groom Lake);
* red dots restrict placement only: the Team may move across any shared edge;
* the distance counts orthogonal steps over all placed tiles, Canyons included
  (it measures the map, not a route the Team can walk).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import networkx as nx

from .components import (
    CANYON, CIVILIZATION, DIAGONALS, DIRS, TILES, cell_index, distinct_rotations, in_grid, rotated_edges,
)

#: One placed tile: [tile id, x, y, rotation, hazard open (0/1)].
Placed = List[int]
Grid = Dict[Tuple[int, int], int]


def make_grid(placed: Sequence[Placed]) -> Grid:
    """The cell lookup ``{(x, y): index into placed}``."""
    return {(p[1], p[2]): i for i, p in enumerate(placed)}


def fits(placed: Sequence[Placed], grid: Grid, x: int, y: int, tile: int, rot: int) -> bool:
    """True when ``tile`` turned ``rot`` may lie on the empty cell (x, y).

    Rulebook "SCOUT THE AREA": a red-dot edge must meet a red-dot edge, a blank
    edge a blank one; and (ruling above) at least one placed tile must lie
    orthogonally next to it.
    """
    if (x, y) in grid or not in_grid(x, y):
        return False
    edges = rotated_edges(tile, rot)
    touching = False
    for d, (dx, dy) in enumerate(DIRS):
        j = grid.get((x + dx, y + dy))
        if j is None:
            continue
        touching = True
        nb = placed[j]
        if rotated_edges(nb[0], nb[3])[(d + 2) % 4] != edges[d]:
            return False
    return touching


def _fitting(placed: Sequence[Placed], grid: Grid, cells: Sequence[Tuple[int, int]],
             tile: int) -> List[Tuple[int, int]]:
    out = []
    for x, y in cells:
        for rot in distinct_rotations(tile):
            if fits(placed, grid, x, y, tile, rot):
                out.append((cell_index(x, y), rot))
    return sorted(out)


def frontier(placed: Sequence[Placed], grid: Grid) -> List[Tuple[int, int]]:
    """Every empty in-grid cell orthogonally next to a placed tile."""
    cells = set()
    for p in placed:
        for dx, dy in DIRS:
            c = (p[1] + dx, p[2] + dy)
            if c not in grid and in_grid(*c):
                cells.add(c)
    return sorted(cells)


def placements(placed: Sequence[Placed], grid: Grid, team: Tuple[int, int], tile: int
               ) -> Tuple[Optional[str], List[Tuple[int, int]]]:
    """``(class, [(cell, rotation)...])``: where ``tile`` may go, by the rulebook's classes A, B, C.

    Rulebook "SCOUT THE AREA": (A) next to the Team's tile; if impossible (B)
    diagonally to it; if impossible (C) anywhere on the board, at the cost of a
    life token. ``(None, [])`` when the tile fits nowhere (spec: it goes to the
    discard pool).
    """
    tx, ty = team
    a = _fitting(placed, grid, [(tx + dx, ty + dy) for dx, dy in DIRS], tile)
    if a:
        return "A", a
    b = _fitting(placed, grid, [(tx + dx, ty + dy) for dx, dy in DIAGONALS], tile)
    if b:
        return "B", b
    c = _fitting(placed, grid, frontier(placed, grid), tile)
    if c:
        return "C", c
    return None, []


def build_graph(placed: Sequence[Placed]) -> "nx.Graph":
    """The map as a networkx graph: nodes (x, y) with their tile's terrain, edges between orthogonal neighbours."""
    g = nx.Graph()
    for p in placed:
        g.add_node((p[1], p[2]), terrain=TILES[p[0]].terrain)
    for p in placed:
        for dx, dy in ((1, 0), (0, 1)):
            other = (p[1] + dx, p[2] + dy)
            if other in g:
                g.add_edge((p[1], p[2]), other)
    return g


def distance_from_groom_lake(graph: "nx.Graph", team: Tuple[int, int]) -> int:
    """Orthogonal steps over placed tiles from Groom Lake (0, 0) to the Team (spec "Scout")."""
    return nx.shortest_path_length(graph, (0, 0), team)


def walkable_region(graph: "nx.Graph", team: Tuple[int, int]) -> List[Tuple[int, int]]:
    """The passable tiles (no Canyon) connected to the Team's tile through passable tiles."""
    passable = graph.subgraph([n for n, t in graph.nodes(data="terrain") if t != CANYON])
    return sorted(nx.node_connected_component(passable, team))


def escape_possible(graph: "nx.Graph", grid: Grid, team: Tuple[int, int], tiles_remain: bool) -> bool:
    """Whether the Team can still reach Civilization (spec "End": "no escape left" is the negation).

    An escape is left when the walkable region holds a Civilization tile, or
    when it has an empty orthogonal neighbour cell and tiles remain to be drawn.
    """
    region = walkable_region(graph, team)
    if any(graph.nodes[n]["terrain"] == CIVILIZATION for n in region):
        return True
    if not tiles_remain:
        return False
    return any((x + dx, y + dy) not in grid and in_grid(x + dx, y + dy) for x, y in region for dx, dy in DIRS)
