"""The Groom Lake action space: one fixed, bounded numbering of atomic decisions.

A turn is cut into small decisions (which action, which card, which die pool
contribution, which cell...). Each is one integer below :data:`NUM_ACTIONS`;
identical supply cards (same type) are one action.

==============  =====  ===================================================  ======
block           base   meaning                                              size
==============  =====  ===================================================  ======
END               0    spend no more actions this turn                          1
RECOVER           1    play a Recovery card (1 action)                          1
SCOUT             2    scout the area (1 action)                                1
MOVE              3    move the Team N, E, S, W (1 or 2 actions)                4
VOTE              7    call a vote against seat p (2 actions)                   6
STRIKE           13    Hunter's strike on seat p (2 actions)                    6
HALF             19    propose the Half-Win (variant ``half_win``; free)        1
YES / NO         20    a vote                                                   2
LIFE             22    discard a life token against the hazard                  1
DONE             23    stop contributing to the hazard                          1
CONTRIB          24    discard a helping supply card of type t (face up)       13
KEEP             37    keep a card of type t (set-up; investigation)           13
REFRESH          50    put a card of type t face down on the Refresh stack     13
ASSIGN           63    give the next investigation to seat p                    6
GIVE             69    hand the next face-down card to seat p                   6
KEEP_TILE        75    keep scouted tile t (the other goes to the pool)        49
PLACE           124    place the kept tile on cell c turned r: 124 + 4c + r  37636
==============  =====  ===================================================  ======

Cells number the bounded 97 x 97 grid (:func:`components.cell_index`).
Chance outcomes (at most :data:`MAX_CHANCE`): a seat (dealing roles), a card
type (draws), a tile id (tile draws) or a die face ``0..5`` (showing 1..6).
"""

from __future__ import annotations

from typing import Tuple

from .components import DIR_NAMES, MAX_PLAYERS, NUM_CELLS, NUM_TILES, NUM_TYPES, TYPE_NAMES, cell_xy, tile_name

END = 0
RECOVER = 1
SCOUT = 2
MOVE = 3
VOTE = MOVE + 4
STRIKE = VOTE + MAX_PLAYERS
HALF = STRIKE + MAX_PLAYERS
YES = HALF + 1
NO = YES + 1
LIFE = NO + 1
DONE = LIFE + 1
CONTRIB = DONE + 1
KEEP = CONTRIB + NUM_TYPES
REFRESH = KEEP + NUM_TYPES
ASSIGN = REFRESH + NUM_TYPES
GIVE = ASSIGN + MAX_PLAYERS
KEEP_TILE = GIVE + MAX_PLAYERS
PLACE = KEEP_TILE + NUM_TILES
NUM_ACTIONS = PLACE + 4 * NUM_CELLS
assert (VOTE, STRIKE, HALF, LIFE, CONTRIB, KEEP, REFRESH, ASSIGN, GIVE, KEEP_TILE, PLACE) == (
    7, 13, 19, 22, 24, 37, 50, 63, 69, 75, 124)
#: Chance outcomes: tile ids are the largest space (seats, card types and die faces are smaller).
MAX_CHANCE = NUM_TILES


def place(cell: int, rot: int) -> int:
    """Place the kept tile on ``cell`` turned ``rot`` quarter turns clockwise."""
    return PLACE + 4 * cell + rot


def decode(action: int) -> Tuple[str, int]:
    """``(block name, argument)`` of a decision id, e.g. ``("contrib", WATER)``; the argument is 0 if none."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"{action} is not a Groom Lake action (0..{NUM_ACTIONS - 1})")
    for name, base, size in _BLOCKS:
        if base <= action < base + size:
            return name, action - base
    raise AssertionError("unreachable")  # pragma: no cover


_BLOCKS: Tuple[Tuple[str, int, int], ...] = (
    ("end", END, 1), ("recover", RECOVER, 1), ("scout", SCOUT, 1), ("move", MOVE, 4), ("vote", VOTE, MAX_PLAYERS),
    ("strike", STRIKE, MAX_PLAYERS), ("half", HALF, 1), ("yes", YES, 1), ("no", NO, 1), ("life", LIFE, 1),
    ("done", DONE, 1), ("contrib", CONTRIB, NUM_TYPES), ("keep", KEEP, NUM_TYPES), ("refresh", REFRESH, NUM_TYPES),
    ("assign", ASSIGN, MAX_PLAYERS), ("give", GIVE, MAX_PLAYERS), ("keep_tile", KEEP_TILE, NUM_TILES),
    ("place", PLACE, 4 * NUM_CELLS),
)


def action_name(action: int) -> str:
    """The readable name of decision ``action`` (unique per id; ``string_to_action`` parses it back)."""
    block, arg = decode(action)
    if block == "move":
        return f"move {DIR_NAMES[arg]}"
    if block == "vote":
        return f"vote against player {arg}"
    if block == "strike":
        return f"strike player {arg}"
    if block == "contrib":
        return f"discard {TYPE_NAMES[arg]}"
    if block == "keep":
        return f"keep {TYPE_NAMES[arg]}"
    if block == "refresh":
        return f"refresh {TYPE_NAMES[arg]}"
    if block == "assign":
        return f"investigation to player {arg}"
    if block == "give":
        return f"card to player {arg}"
    if block == "keep_tile":
        return f"keep tile {tile_name(arg)}"
    if block == "place":
        x, y = cell_xy(arg // 4)
        return f"place at ({x},{y}) turned {arg % 4}"
    return {"end": "end turn", "recover": "play Recovery", "scout": "scout", "half": "propose Half-Win",
            "yes": "yes", "no": "no", "life": "discard a life token", "done": "done"}[block]
