"""Sunken City's action space: the numbering of every decision and its readable name.

Ids ``0..NUM_ACTIONS-1`` (``describe_action_space`` lists the ranges); the
board's cells, street slots and building sites are numbered in :mod:`.board`.
"""

from __future__ import annotations

from typing import List, Tuple

from . import board as B
from .components import CARDS, NUM_BUILDINGS, NUM_CARDS

PLAY_CARD = 0          # + card index
RAISE = 6
MOVE = 7
NEPTUNE = 8
END_TURN = 9
USE_CHIP = 10
STOP_MOVE = 11
ENTER_VILLAGE = 12
NEPTUNE_STOP = 13
STREET_BASE = 14       # + slot (cell*2 + dir)
BUILD_BASE = STREET_BASE + B.NUM_STREET_SLOTS          # 176: + (b-1)*25 + site index
STEP_BASE = BUILD_BASE + NUM_BUILDINGS * B.NUM_SITES   # 426: + anchor cell
NEPTUNE_STEP_BASE = STEP_BASE + B.NUM_CELLS            # 507: + anchor cell
NUM_ACTIONS = NEPTUNE_STEP_BASE + B.NUM_CELLS          # 588


def describe_action_space() -> List[Tuple[str, str]]:
    """The action space as ``(id range, meaning)`` rows, for documentation."""
    return [
        (f"{PLAY_CARD}..{PLAY_CARD + NUM_CARDS - 1}", "play movement card k"),
        (str(RAISE), "start the raise block"),
        (str(MOVE), "start the move block"),
        (str(NEPTUNE), "start the Neptune block"),
        (str(END_TURN), "end the turn"),
        (str(USE_CHIP), "use a Neptune chip"),
        (str(STOP_MOVE), "stop the adventurer"),
        (str(ENTER_VILLAGE), "enter the own village"),
        (str(NEPTUNE_STOP), "Neptune stops"),
        (f"{STREET_BASE}..{BUILD_BASE - 1}", "raise a street at slot cell*2+dir"),
        (f"{BUILD_BASE}..{STEP_BASE - 1}", "raise building b at site i"),
        (f"{STEP_BASE}..{NEPTUNE_STEP_BASE - 1}", "adventurer steps onto the piece anchored at cell c"),
        (f"{NEPTUNE_STEP_BASE}..{NUM_ACTIONS - 1}", "Neptune steps onto the piece anchored at cell c"),
    ]


def action_name(action: int) -> str:
    """The readable name of a decision action (unique per id)."""
    if PLAY_CARD <= action < PLAY_CARD + NUM_CARDS:
        pieces, points = CARDS[action - PLAY_CARD]
        return f"card raise {pieces} move {points}"
    fixed = {RAISE: "raise", MOVE: "move", NEPTUNE: "neptune", END_TURN: "end turn",
             USE_CHIP: "use chip", STOP_MOVE: "stop", ENTER_VILLAGE: "enter village",
             NEPTUNE_STOP: "neptune stops"}
    if action in fixed:
        return fixed[action]
    if STREET_BASE <= action < BUILD_BASE:
        slot = action - STREET_BASE
        if B.STREET_SLOTS[slot] is None:
            return f"action {action}"
        return f"street {B.street_name(slot)}"
    if BUILD_BASE <= action < STEP_BASE:
        b, site = divmod(action - BUILD_BASE, B.NUM_SITES)
        return f"building {b + 1} at {B.cell_name(B.BUILDING_SITES[site])}"
    if STEP_BASE <= action < NEPTUNE_STEP_BASE:
        return f"walk to {B.cell_name(action - STEP_BASE)}"
    if NEPTUNE_STEP_BASE <= action < NUM_ACTIONS:
        return f"neptune to {B.cell_name(action - NEPTUNE_STEP_BASE)}"
    return f"action {action}"


def street_action(cell_a: int, cell_b: int) -> int:
    """The raise action of the street on two adjacent cells (either order)."""
    a, b = sorted((cell_a, cell_b))
    direction = B.RIGHT if b == a + 1 else B.DOWN
    return STREET_BASE + a * 2 + direction


def building_action(b: int, cell: int) -> int:
    """The raise action of building ``b`` on ``cell``."""
    return BUILD_BASE + (b - 1) * B.NUM_SITES + B.SITE_INDEX[cell]


_ACTION_NAMES: Tuple[str, ...] = tuple(action_name(a) for a in range(NUM_ACTIONS))
