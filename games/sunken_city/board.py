"""The Sunken City lake as data, and the graph of the raised city pieces.

The board (spec, "Board"): a 9 x 9 grid of water cells numbered
``cell = row * 9 + col``.

* the **centre** cell (4,4) takes buildings only;
* **dark** cells (Manhattan distance 2 or 4 from the centre, 24 cells) take
  streets or buildings; no two of them touch, so buildings never touch;
* **light** cells (all others) take streets only;
* four **villages**, one outside each corner; board seat 0 at (0,0), 1 at
  (0,8), 2 at (8,8), 3 at (8,0), clockwise. A village touches the lake only
  through its corner cell;
* four **territories**: the 4 x 4 corner blocks; row 4 and column 4 are
  nobody's.

City pieces on the board are identified by their **anchor**: the lowest cell
they cover. A street is a domino placed at ``(cell, RIGHT)`` (covering
``cell`` and ``cell + 1``) or ``(cell, DOWN)`` (``cell`` and ``cell + 9``),
and its anchor is ``cell``; a building's anchor is its cell. Two pieces never
share a cell, so anchors are unique. A board position is the ``cover`` list:
for each cell the anchor of the piece on it, or :data:`EMPTY`.

Single steps are answered straight from ``cover`` (:func:`piece_neighbours`),
because the engine asks that at every atomic move. Questions about several
steps (what an adventurer can reach with k points, where Neptune can go) go
through a networkx graph of the pieces (:func:`piece_graph`), built on demand.
:func:`static_arrays` and :func:`piece_graph_arrays` export the same data as
flat numpy arrays for a native kernel.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import networkx as nx
import numpy as np

SIZE = 9
NUM_CELLS = SIZE * SIZE
CENTRE = 4 * SIZE + 4
EMPTY = -1

RIGHT = 0
DOWN = 1
#: Street slots ``cell * 2 + direction``: the size of the street action block.
NUM_STREET_SLOTS = NUM_CELLS * 2

#: Board seats by player count (spec: 2 players sit diagonally, seats 0 and 2;
#: 3 players use seats 0, 1 and 2).
SEATS_BY_PLAYERS: Dict[int, Tuple[int, ...]] = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
#: The corner cell each board seat's village touches.
VILLAGE_CORNER: Tuple[int, ...] = (0, 8, 80, 72)
#: Graph node of board seat ``s``'s village (pieces use their anchor cells 0..80).
VILLAGE_NODE_BASE = NUM_CELLS


def cell_of(row: int, col: int) -> int:
    """The cell number of ``(row, col)``."""
    return row * SIZE + col


def row_col(cell: int) -> Tuple[int, int]:
    """``(row, col)`` of a cell."""
    return divmod(cell, SIZE)


def cell_name(cell: int) -> str:
    """A short readable cell name, ``r2c3``."""
    row, col = row_col(cell)
    return f"r{row}c{col}"


def _distance_to_centre(cell: int) -> int:
    row, col = row_col(cell)
    return abs(row - 4) + abs(col - 4)


#: True for the 24 dark cells (streets or buildings).
IS_DARK: Tuple[bool, ...] = tuple(_distance_to_centre(c) in (2, 4) for c in range(NUM_CELLS))
#: The cells a building may rise on: the dark cells and the centre, in cell order.
BUILDING_SITES: Tuple[int, ...] = tuple(c for c in range(NUM_CELLS) if IS_DARK[c] or c == CENTRE)
#: Index of a cell in :data:`BUILDING_SITES`, or -1.
SITE_INDEX: Tuple[int, ...] = tuple(BUILDING_SITES.index(c) if c in BUILDING_SITES else -1
                                    for c in range(NUM_CELLS))
NUM_SITES = len(BUILDING_SITES)


def _territory(cell: int) -> int:
    row, col = row_col(cell)
    if row == 4 or col == 4:
        return -1
    if row < 4:
        return 0 if col < 4 else 1
    return 3 if col < 4 else 2


#: Board seat owning each cell's territory, or -1 (row 4 and column 4).
TERRITORY: Tuple[int, ...] = tuple(_territory(c) for c in range(NUM_CELLS))


def _neighbours(cell: int) -> Tuple[int, ...]:
    row, col = row_col(cell)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            out.append(cell_of(r, c))
    return tuple(out)


#: Orthogonal neighbour cells of each cell.
CELL_NEIGHBOURS: Tuple[Tuple[int, ...], ...] = tuple(_neighbours(c) for c in range(NUM_CELLS))


def street_cells(slot: int) -> Optional[Tuple[int, int]]:
    """The two cells of street slot ``cell * 2 + direction``, or None when it leaves the lake."""
    cell, direction = divmod(slot, 2)
    if not 0 <= cell < NUM_CELLS:
        return None
    row, col = row_col(cell)
    if direction == RIGHT:
        return (cell, cell + 1) if col < SIZE - 1 else None
    return (cell, cell + SIZE) if row < SIZE - 1 else None


#: For each street slot its two cells, or None when the slot can never hold a
#: street (off the lake, or touching the centre: spec, "Street tile").
STREET_SLOTS: Tuple[Optional[Tuple[int, int]], ...] = tuple(
    None if (cells := street_cells(s)) is None or CENTRE in cells else cells
    for s in range(NUM_STREET_SLOTS))
#: The slots that can hold a street somewhere, in slot order.
VALID_STREET_SLOTS: Tuple[int, ...] = tuple(s for s in range(NUM_STREET_SLOTS) if STREET_SLOTS[s])


def street_name(slot: int) -> str:
    """``r2c3-r2c4``: the two cells of a street slot."""
    a, b = STREET_SLOTS[slot]  # type: ignore[misc]
    return f"{cell_name(a)}-{cell_name(b)}"


# -- pieces on a board -----------------------------------------------------

def piece_cells(cover: Sequence[int], anchor: int) -> Tuple[int, ...]:
    """The cells covered by the piece anchored at ``anchor`` (1 or 2 cells)."""
    row, col = row_col(anchor)
    if col < SIZE - 1 and cover[anchor + 1] == anchor:
        return (anchor, anchor + 1)
    if row < SIZE - 1 and cover[anchor + SIZE] == anchor:
        return (anchor, anchor + SIZE)
    return (anchor,)


def piece_anchors(cover: Sequence[int]) -> List[int]:
    """The anchors of every piece on the board, sorted."""
    return [c for c in range(NUM_CELLS) if cover[c] == c]


def piece_neighbours(cover: Sequence[int], anchor: int) -> List[int]:
    """The anchors of the pieces adjacent to the piece at ``anchor`` (sorted).

    Adjacent means some cell of one touches some cell of the other
    orthogonally (spec, "Adjacency").
    """
    found = set()
    for cell in piece_cells(cover, anchor):
        for n in CELL_NEIGHBOURS[cell]:
            other = cover[n]
            if other != EMPTY and other != anchor:
                found.add(other)
    return sorted(found)


def piece_graph(cover: Sequence[int], village_seats: Iterable[int] = ()) -> nx.Graph:
    """The graph of the raised pieces: one node per piece (its anchor), edges between adjacent pieces.

    Each board seat in ``village_seats`` adds its village as node
    ``VILLAGE_NODE_BASE + seat``, joined to the piece covering its corner cell.
    Leave the villages out for Neptune, who never enters one.
    """
    graph = nx.Graph()
    anchors = piece_anchors(cover)
    graph.add_nodes_from(anchors)
    for anchor in anchors:
        for other in piece_neighbours(cover, anchor):
            if other > anchor:
                graph.add_edge(anchor, other)
    for seat in village_seats:
        node = VILLAGE_NODE_BASE + seat
        graph.add_node(node)
        corner_piece = cover[VILLAGE_CORNER[seat]]
        if corner_piece != EMPTY:
            graph.add_edge(node, corner_piece)
    return graph


def reachable_within(graph: nx.Graph, source: int, points: int) -> Dict[int, int]:
    """Every node reachable from ``source`` with at most ``points`` steps, with its distance.

    Entering a piece or a village costs one point, whatever its size (spec,
    "Adjacency"), so distances are plain edge counts.
    """
    if source not in graph:
        return {}
    return dict(nx.single_source_shortest_path_length(graph, source, cutoff=points))


# -- flat arrays for a native kernel ---------------------------------------

def static_arrays() -> Dict[str, np.ndarray]:
    """The lake's fixed data as flat int arrays (for a Cython kernel).

    * ``cell_neighbours``: (81, 4) neighbour cells, padded with -1;
    * ``is_dark``, ``is_centre``: (81,) 0/1;
    * ``territory``: (81,) owning board seat or -1;
    * ``building_sites``: (25,) cells; ``site_index``: (81,) index or -1;
    * ``street_slots``: (162, 2) the cells of each street slot, -1 when invalid;
    * ``village_corner``: (4,) corner cell per board seat.
    """
    neighbours = np.full((NUM_CELLS, 4), -1, dtype=np.int32)
    for cell, ns in enumerate(CELL_NEIGHBOURS):
        neighbours[cell, :len(ns)] = ns
    slots = np.full((NUM_STREET_SLOTS, 2), -1, dtype=np.int32)
    for slot, cells in enumerate(STREET_SLOTS):
        if cells:
            slots[slot] = cells
    is_centre = np.zeros(NUM_CELLS, dtype=np.int32)
    is_centre[CENTRE] = 1
    return {
        "cell_neighbours": neighbours,
        "is_dark": np.array(IS_DARK, dtype=np.int32),
        "is_centre": is_centre,
        "territory": np.array(TERRITORY, dtype=np.int32),
        "building_sites": np.array(BUILDING_SITES, dtype=np.int32),
        "site_index": np.array(SITE_INDEX, dtype=np.int32),
        "street_slots": slots,
        "village_corner": np.array(VILLAGE_CORNER, dtype=np.int32),
    }


def piece_graph_arrays(graph: nx.Graph) -> Tuple[np.ndarray, np.ndarray]:
    """The graph as CSR arrays ``(indptr, indices)`` over nodes ``0..84`` (pieces by anchor, then villages)."""
    num_nodes = VILLAGE_NODE_BASE + 4
    indptr = np.zeros(num_nodes + 1, dtype=np.int32)
    indices: List[int] = []
    for node in range(num_nodes):
        if node in graph:
            indices.extend(sorted(graph.neighbors(node)))
        indptr[node + 1] = len(indices)
    return indptr, np.array(indices, dtype=np.int32)
