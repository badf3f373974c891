"""Area 51 component data: the 104 artifact cards, the boards, towers, caps and number markers.

Everything here comes from ``../shared/spec/area51.md`` (relative to the repository
root; it settles what the rulebook leaves to pictures and the reference card). Rules live in ``rules.py``;
this module only holds tables and tiny lookups over them.

Card *types* are ``(colour, value)`` pairs, numbered ``colour * 4 + value - 1``
(16 types; green 4 has no copies). The "S" mark of starting cards never changes
a rule, so it is not part of a type; the engine keeps the starting cards apart
only while they form the top layer of the deck.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

#: Bunker, tower, vehicle and artifact colours, in type order.
COLOURS: Tuple[str, ...] = ("green", "blue", "brown", "orange")
NUM_COLOURS = 4
MAX_VALUE = 4
NUM_TYPES = NUM_COLOURS * MAX_VALUE  # 16

# One data table (spec, "Artifact cards"): colour -> (start 1, 2, 3), (main 1, 2, 3, 4).
CARD_TABLE: Dict[str, Tuple[Tuple[int, int, int], Tuple[int, int, int, int]]] = {
    "green": ((5, 4, 1), (1, 3, 8, 0)),
    "blue": ((5, 4, 1), (0, 2, 6, 7)),
    "brown": ((4, 4, 2), (0, 3, 7, 7)),
    "orange": ((4, 5, 1), (1, 3, 8, 8)),
}


def card_type(colour: int, value: int) -> int:
    """The type number of the artifact ``colour`` (0..3) ``value`` (1..4)."""
    return colour * MAX_VALUE + value - 1


def type_colour(t: int) -> int:
    """The colour (0..3) of card type ``t``."""
    return t // MAX_VALUE


def type_value(t: int) -> int:
    """The value (1..4) of card type ``t``."""
    return t % MAX_VALUE + 1


def type_name(t: int) -> str:
    """``"blue 3"``: the readable name of card type ``t``."""
    return f"{COLOURS[type_colour(t)]} {type_value(t)}"


#: Copies of each type in the starting deck and the main deck.
START_COUNTS: List[int] = [0] * NUM_TYPES
MAIN_COUNTS: List[int] = [0] * NUM_TYPES
for _c, _name in enumerate(COLOURS):
    _start, _main = CARD_TABLE[_name]
    for _v, _n in enumerate(_start, start=1):
        START_COUNTS[card_type(_c, _v)] = _n
    for _v, _n in enumerate(_main, start=1):
        MAIN_COUNTS[card_type(_c, _v)] = _n
#: Copies of each type in the whole game.
TOTAL_COUNTS: List[int] = [s + m for s, m in zip(START_COUNTS, MAIN_COUNTS)]
NUM_CARDS = sum(TOTAL_COUNTS)
NUM_START_CARDS = sum(START_COUNTS)
assert NUM_CARDS == 104 and NUM_START_CARDS == 40

#: Types that exist (green 4 does not).
EXISTING_TYPES: Tuple[int, ...] = tuple(t for t in range(NUM_TYPES) if TOTAL_COUNTS[t])

# -- boards ---------------------------------------------------------------
NUM_REGIONS = 3
#: (building spaces, hangars, security markers) of a small and a large region.
SMALL = (5, 2, 11)
LARGE = (8, 3, 17)
MAX_SPACES = 8
MAX_HANGARS = 3
#: Region sides by player count (spec "Players and board"; 2 players use the 4-player board).
REGION_SIDES: Dict[int, Tuple[Tuple[int, int, int], ...]] = {
    2: (LARGE, SMALL, SMALL),
    3: (SMALL, SMALL, SMALL),
    4: (LARGE, SMALL, SMALL),
    5: (LARGE, LARGE, SMALL),
    6: (LARGE, LARGE, LARGE),
}

# -- towers, caps, vehicles, markers --------------------------------------
TOWERS_PER_COLOUR = 5
#: Towers removed by player count, in colour order (green, blue, brown, orange).
TOWERS_REMOVED: Dict[int, Tuple[int, int, int, int]] = {
    2: (0, 1, 1, 1), 3: (1, 2, 2, 2), 4: (0, 1, 1, 1), 5: (0, 1, 1, 1), 6: (0, 0, 0, 0),
}


def towers_available(players: int) -> List[int]:
    """Towers of each colour in play for ``players`` players."""
    return [TOWERS_PER_COLOUR - r for r in TOWERS_REMOVED[players]]


CAPS_PER_OWNER = 5
#: Start cards shuffled into the main deck, by player count (2 players as 4).
START_TO_MAIN: Dict[int, int] = {2: 16, 3: 24, 4: 16, 5: 8, 6: 0}
HAND_START = 5
FACE_UP = 6
TAKE_PER_COLLECT = 3

VEHICLE_KINDS: Tuple[str, ...] = ("truck", "train")
#: Vehicle ``v`` has colour ``v // 2`` and kind ``v % 2`` (one truck and one train per colour).
NUM_VEHICLES = NUM_COLOURS * len(VEHICLE_KINDS)
MAX_VEHICLE_NUMBER = 8
#: Double-sided number markers: (the two sides, copies).
MARKER_KINDS: Tuple[Tuple[Tuple[int, int], int], ...] = (((1, 2), 7), ((3, 4), 6), ((5, 6), 6), ((7, 8), 5))
MARKER_COPIES: Tuple[int, ...] = tuple(n for _, n in MARKER_KINDS)


def marker_kind_of(value: int) -> int:
    """The marker kind that shows ``value`` (1..8) on one side."""
    return (value - 1) // 2


#: Ordered region pairs a vehicle can point along: (from, to).
ROUTES: Tuple[Tuple[int, int], ...] = tuple((a, b) for a in range(NUM_REGIONS) for b in range(NUM_REGIONS) if a != b)

#: End-of-game points for the highest, second and third bunker of a region.
HIGHEST_BUNKER_POINTS: Tuple[int, ...] = (5, 3, 2)

#: Owner (cap colour) names: seat ``p`` owns ``p`` with 3+ players; in the
#: two-player variant seat 0 owns pink and purple, seat 1 black and white.
OWNER_NAMES_2P: Tuple[str, ...] = ("pink", "purple", "black", "white")
OWNER_NAMES: Tuple[str, ...] = ("white", "pink", "yellow", "blue", "purple", "black")


def region_name(r: int) -> str:
    """``"R0"``..``"R2"`` (spec)."""
    return f"R{r}"


def vehicle_name(v: int) -> str:
    """``"blue truck"``: vehicle ``v`` is colour ``v // 2``, kind ``v % 2``."""
    return f"{COLOURS[v // 2]} {VEHICLE_KINDS[v % 2]}"


def shown_number(markers: Sequence[Sequence[int]]) -> int:
    """The number a vehicle shows: the sum of its markers' shown sides."""
    return sum(value for _, value in markers)


def markers_for(k: int, supply: Sequence[int]) -> Optional[List[List[int]]]:
    """Markers from ``supply`` showing ``k``: one marker if possible, else two summing to ``k``.

    Spec: "a vehicle's number k is shown by one marker with k on a side, or by
    two markers whose shown sides sum to k". Engine ruling: the pair is chosen
    by the engine (largest first side first), as the choice of pair has no
    effect on play beyond which markers stay in the supply.
    """
    kind = marker_kind_of(k)
    if supply[kind] > 0:
        return [[kind, k]]
    for a in range(k - 1, (k + 1) // 2 - 1, -1):
        b = k - a
        if b < 1:
            continue
        ka, kb = marker_kind_of(a), marker_kind_of(b)
        if (ka != kb and supply[ka] > 0 and supply[kb] > 0) or (ka == kb and supply[ka] > 1):
            return [[ka, a], [kb, b]]
    return None
