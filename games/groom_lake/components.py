"""Unleashed From Groom Lake! component data: roles, supply cards, hazards and the 49 map tiles.

The rulebook's tiles and cards were published in a file we do not have; the
data below is the spec's (spec groom_lake.md "Supply cards (64) — our data",
"Hazards", "Map tiles (48 + the Groom Lake tile) — our data"). Rules live in
``rules.py``; this module holds only tables and tiny lookups over them.

Supply cards are *types* (identical cards are interchangeable), so hands,
decks and stacks are small count vectors of length :data:`NUM_TYPES`. Tiles
are numbered ``0..48`` (0 is Groom Lake, then the "3", "6" and "Compass"
stacks in the spec's order). The map lives on a bounded grid: a map of at
most 49 tiles grown orthogonally from Groom Lake never reaches farther than
48 steps from it, so coordinates ``-48..48`` always suffice.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Tuple

# -- players and roles (spec "Players, roles, life") ---------------------------------------
MIN_PLAYERS, MAX_PLAYERS = 3, 6
HUMAN, ALIEN, HUNTER = 0, 1, 2
ROLE_NAMES: Tuple[str, ...] = ("Human", "Alien", "Hunter")
#: Starting life tokens by player count.
START_LIFE: Dict[int, int] = {3: 6, 4: 5, 5: 4, 6: 3}


def has_hunter(players: int) -> bool:
    """Five or more players include a Hunter (rulebook character cards; spec "Players, roles, life")."""
    return players >= 5


#: Extra Alien Proof for the Hunter holding the Alien card (rulebook "kill another player").
ALIEN_CARD_AP = 50
#: Technology AP with which the Alien wins at once (rulebook "super cool disintegrator weapon").
ALIEN_WEAPON_AP = 50

# -- supply cards (spec "Supply cards (64) — our data") ------------------------------------
WATER, ROPE, SHOVEL, COMPASS, RECOVERY = 0, 1, 2, 3, 4
LIFEFORM = (5, 6, 7, 8)  # Alien Proof - Lifeform worth 5, 10, 15, 20
TECH = (9, 10, 11, 12)  # Alien Proof - Technology worth 5, 10, 15, 20
NUM_TYPES = 13
TYPE_NAMES: Tuple[str, ...] = (
    "Water", "Rope", "Shovel", "Compass", "Recovery",
    "Lifeform 5", "Lifeform 10", "Lifeform 15", "Lifeform 20",
    "Tech 5", "Tech 10", "Tech 15", "Tech 20")
#: Alien Proof value of each type (0 for tools and Recovery).
AP_VALUE: Tuple[int, ...] = (0, 0, 0, 0, 0, 5, 10, 15, 20, 5, 10, 15, 20)
#: Copies of each type: 9 of each tool, 6 Recovery, Lifeform 5,5,5,5,10,10,10,15,15,20,
#: Technology 5,5,5,5,10,10,10,10,15,15,15,20.
TYPE_COUNTS: Tuple[int, ...] = (9, 9, 9, 9, 6, 4, 3, 2, 1, 4, 4, 3, 1)
NUM_CARDS = sum(TYPE_COUNTS)
assert NUM_CARDS == 64 and len(TYPE_NAMES) == NUM_TYPES == len(AP_VALUE)
NUM_RECOVERY = TYPE_COUNTS[RECOVERY]


def is_alien_proof(t: int) -> bool:
    """True for Lifeform and Technology cards."""
    return AP_VALUE[t] > 0


def tech_ap(hand: List[int]) -> int:
    """Technology AP of a hand (count vector): what the Alien's weapon needs."""
    return sum(hand[t] * AP_VALUE[t] for t in TECH)


def total_ap(hand: List[int]) -> int:
    """All Alien Proof (Lifeform and Technology) of a hand (count vector)."""
    return sum(c * v for c, v in zip(hand, AP_VALUE))


# -- set-up (spec "Set-up") -----------------------------------------------------------------
FIRST_DEAL = 2  # supply cards per Human/Hunter stack (the Alien's are two Recovery cards)
SECOND_DEAL = 10
KEEP = 3
DISCARD_STACK_SIZE = 6

# -- hazards (spec "Hazards") --------------------------------------------------------------
NO_HAZARD, DEHYDRATION, CLIFF, SANDSTORM, LOST, PROBE, QUICKSAND, CRASH = range(8)
HAZARD_NAMES: Tuple[str, ...] = ("none", "Dehydration", "Cliff", "Sandstorm", "Lost", "Alien Probe",
                                 "Quicksand", "Crash Site")
_ALIEN_PROOF = tuple(LIFEFORM + TECH)
#: Supply types that help against each bad hazard (life tokens help against all).
HELPS: Dict[int, Tuple[int, ...]] = {
    DEHYDRATION: (WATER, SHOVEL),
    CLIFF: (ROPE, COMPASS),
    SANDSTORM: (SHOVEL, COMPASS),
    LOST: (COMPASS, WATER),
    PROBE: (SHOVEL,) + _ALIEN_PROOF,
    QUICKSAND: (ROPE, WATER),
}

# -- terrain and tiles (spec "Map tiles") ---------------------------------------------------
DESERT, MOUNTAIN, CANYON, CIVILIZATION = range(4)
TERRAIN_NAMES: Tuple[str, ...] = ("Desert", "Mountain", "Canyon", "Civilization")
#: Actions a move onto each terrain costs (None: impassable). Rulebook "MOVE THE TEAM".
MOVE_COST: Tuple[object, ...] = (1, 2, None, 1)
STACK_3, STACK_6, STACK_COMPASS = 0, 1, 2
STACK_NAMES: Tuple[str, ...] = ("3", "6", "Compass")
NUM_STACKS = 3
#: Directions N, E, S, W as grid steps (x grows east, y grows north).
DIRS: Tuple[Tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIR_NAMES: Tuple[str, ...] = ("N", "E", "S", "W")
#: Diagonal neighbours NE, SE, SW, NW.
DIAGONALS: Tuple[Tuple[int, int], ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))


class Tile(NamedTuple):
    """One map tile: terrain, hazard (with toughness or investigation number), red-dot edges N,E,S,W."""

    terrain: int
    hazard: int
    number: int
    edges: Tuple[bool, bool, bool, bool]
    stack: int  # -1 for Groom Lake


def _parse(entry: str, stack: int) -> Tile:
    """``"Desert Crash 2 oooo"`` -> a Tile (the spec's notation)."""
    words = entry.split()
    terrain = TERRAIN_NAMES.index(words[0])
    edges = tuple(c == "o" for c in words[-1])
    middle = " ".join(words[1:-1])
    hazard, number = NO_HAZARD, 0
    if middle:
        name, num = middle.rsplit(" ", 1)
        hazard = {"Crash": CRASH}.get(name, HAZARD_NAMES.index(name) if name in HAZARD_NAMES else -1)
        number = int(num)
        assert hazard > 0, entry
    assert len(edges) == 4
    return Tile(terrain, hazard, number, edges, stack)  # type: ignore[arg-type]


_STACK_DATA: Tuple[Tuple[str, ...], ...] = (
    ("Desert Dehydration 5 oooo", "Desert Sandstorm 6 oo-o", "Desert Lost 4 o-o-", "Desert Alien Probe 7 oo--",
     "Desert Crash 2 oooo", "Desert Crash 1 o-oo", "Desert oooo", "Desert -o-o", "Mountain Cliff 6 oo-o",
     "Mountain Quicksand 7 o-o-", "Mountain Cliff 8 ooo-", "Mountain oo--", "Canyon o---", "Canyon oo--",
     "Canyon o-o-", "Canyon ----"),
    ("Desert Dehydration 9 oooo", "Desert Sandstorm 8 oo-o", "Desert Lost 10 o-o-", "Desert Alien Probe 9 oo--",
     "Desert Crash 3 oo-o", "Desert Crash 2 oooo", "Desert o-oo", "Mountain Cliff 10 oooo",
     "Mountain Quicksand 11 oo-o", "Mountain Sandstorm 9 o-o-", "Mountain Lost 11 oo--", "Mountain ooo-",
     "Canyon o---", "Canyon oo--", "Canyon o-o-", "Canyon ooo-"),
    ("Civilization oooo", "Civilization Lost 12 oo-o", "Civilization Dehydration 14 o-o-",
     "Civilization Quicksand 10 oo--", "Desert Sandstorm 12 oooo", "Desert Alien Probe 13 oo-o",
     "Desert Crash 3 o-oo", "Desert Dehydration 11 o-o-", "Desert oo--", "Mountain Cliff 14 oooo",
     "Mountain Quicksand 13 oo-o", "Mountain Lost 15 o-o-", "Canyon o---", "Canyon oo--", "Canyon o-o-",
     "Canyon ooo-"),
)
GROOM_LAKE = 0
TILES: Tuple[Tile, ...] = (Tile(DESERT, NO_HAZARD, 0, (True, True, True, True), -1),) + tuple(
    _parse(e, s) for s, entries in enumerate(_STACK_DATA) for e in entries)
NUM_TILES = len(TILES)
assert NUM_TILES == 49
#: Tile ids of each stack, in the spec's order.
STACK_TILES: Tuple[Tuple[int, ...], ...] = tuple(
    tuple(i for i in range(1, NUM_TILES) if TILES[i].stack == s) for s in range(NUM_STACKS))
assert all(len(t) == 16 for t in STACK_TILES)


def tile_name(t: int) -> str:
    """``"Desert Crash 2"``, ``"Groom Lake"``: a tile's readable name (with its id, which is unique)."""
    if t == GROOM_LAKE:
        return "Groom Lake"
    tile = TILES[t]
    text = TERRAIN_NAMES[tile.terrain]
    if tile.hazard:
        text += f" {HAZARD_NAMES[tile.hazard]} {tile.number}"
    return f"{text} #{t}"


def _turned(t: int, rot: int) -> Tuple[bool, bool, bool, bool]:
    e = TILES[t].edges
    return tuple(e[(d - rot) % 4] for d in range(4))  # type: ignore[return-value]


#: ``ROTATED[t][r]``: edges N,E,S,W of tile ``t`` turned ``r`` quarter turns clockwise (a table: the
#: placement search asks for them thousands of times per scout).
ROTATED: Tuple[Tuple[Tuple[bool, bool, bool, bool], ...], ...] = tuple(
    tuple(_turned(t, r) for r in range(4)) for t in range(NUM_TILES))


def rotated_edges(t: int, rot: int) -> Tuple[bool, bool, bool, bool]:
    """Edges N,E,S,W of tile ``t`` turned ``rot`` quarter turns clockwise (what was north faces east)."""
    return ROTATED[t][rot]


def _distinct(t: int) -> Tuple[int, ...]:
    seen, out = set(), []
    for r in range(4):
        if ROTATED[t][r] not in seen:
            seen.add(ROTATED[t][r])
            out.append(r)
    return tuple(out)


#: The rotations of each tile that give different edges (a symmetric tile has fewer than four).
DISTINCT_ROTATIONS: Tuple[Tuple[int, ...], ...] = tuple(_distinct(t) for t in range(NUM_TILES))


def distinct_rotations(t: int) -> Tuple[int, ...]:
    """The rotations of ``t`` that give different edges (a symmetric tile has fewer than four)."""
    return DISTINCT_ROTATIONS[t]


# -- the bounded grid ---------------------------------------------------------------------------
#: Farthest a tile can lie from Groom Lake: 48 tiles in a line.
GRID_RADIUS = NUM_TILES - 1
GRID_SIZE = 2 * GRID_RADIUS + 1  # 97 cells a side
NUM_CELLS = GRID_SIZE * GRID_SIZE


def cell_index(x: int, y: int) -> int:
    """The cell number of grid coordinates (x, y), each in -48..48."""
    return (y + GRID_RADIUS) * GRID_SIZE + (x + GRID_RADIUS)


def cell_xy(c: int) -> Tuple[int, int]:
    """Grid coordinates (x, y) of cell number ``c``."""
    return c % GRID_SIZE - GRID_RADIUS, c // GRID_SIZE - GRID_RADIUS


def in_grid(x: int, y: int) -> bool:
    """True when (x, y) lies inside the bounded grid."""
    return -GRID_RADIUS <= x <= GRID_RADIUS and -GRID_RADIUS <= y <= GRID_RADIUS


#: Tiles drawn per Scout action (rulebook "SCOUT THE AREA").
SCOUT_DRAW = 2
#: Supply cards drawn per Crash Site investigation (rulebook "A single investigation").
INVESTIGATION_DRAW = 2
#: Distance bands of the stacks: <=3 -> "3", 4..6 -> "6", >=7 -> "Compass" (spec "A turn").
def stack_for_distance(d: int) -> int:
    """The stack a Scout draws from at distance ``d`` from Groom Lake (before falling through)."""
    return STACK_3 if d <= 3 else STACK_6 if d <= 6 else STACK_COMPASS


ACTIONS_PER_TURN = 2
