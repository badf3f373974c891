"""JSON form of a Sunken City state, and its full validation on load.

Cells are written as ``[row, col]``; streets as ``[row, col, "right"|"down"]``
from their upper-left cell; the adventurer at home as ``"village"``. Piles are
the six street spaces, ``draw_pile`` the 1-based space streets are drawn from.
Every inconsistency raises :class:`~aiplay.errors.InvalidStateError` naming
the field; ``SunkenCityGame.state_from_dict`` hands :func:`load_state` a fresh
state and returns it only once everything has been checked, so no caller ever
sees a half-loaded one.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from aiplay.errors import InvalidStateError
from aiplay.game import reject_unknown_fields, require_int, require_int_list

from . import board as B
from .actions import END_TURN
from .components import CARDS, MAX_STREETS, NUM_BUILDINGS, NUM_CARDS, NUM_CHIPS, NUM_PILES
from .phases import (
    CARRIED, PH_CARD, PH_CHOOSE, PH_MOVE, PH_NEPTUNE, PH_OVER, PH_RAISE, PH_ROLL, PHASE_NAMES, SECURED, VILLAGE,
)

#: A ``SunkenCityState``/``SunkenCityGame`` (``.rules`` sits above this module and hands
#: it a blank state to fill); typed loosely to keep the import tree.
SunkenCityState = Any
SunkenCityGame = Any

FIELDS = (
    "adventurers", "building_raised", "buildings", "card", "carried", "chip_used", "chips",
    "draw_pile", "end_triggered", "move_left", "moved", "neptune", "neptune_left", "neptune_moved",
    "phase", "played", "raise_left", "raised", "secured", "secured_values", "street_piles",
    "streets", "turn",
)
_DIRECTIONS = ("right", "down")


def _rc(cell: int) -> List[int]:
    return list(B.row_col(cell))


def state_to_dict(state: SunkenCityState) -> Dict[str, Any]:
    """The full state as JSON-ready data."""

    streets = []
    for anchor in B.piece_anchors(state.cover):
        cells = B.piece_cells(state.cover, anchor)
        if len(cells) == 2:
            direction = "right" if cells[1] == anchor + 1 else "down"
            streets.append(_rc(anchor) + [direction])
    n = state.game.players
    return {
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "card": None if state.card < 0 else state.card,
        "raise_left": state.raise_left,
        "move_left": state.move_left,
        "neptune_left": state.neptune_left,
        "raised": state.raised,
        "moved": state.moved,
        "neptune_moved": state.neptune_moved,
        "building_raised": state.building_raised,
        "chip_used": state.chip_used,
        "end_triggered": state.end_triggered,
        "streets": streets,
        "buildings": [None if state.building_cell[b] < 0 else _rc(state.building_cell[b])
                      for b in range(1, NUM_BUILDINGS + 1)],
        "neptune": _rc(state.neptune),
        "adventurers": ["village" if pos == VILLAGE else _rc(pos) for pos in state.adventurer],
        "carried": [state.carried(p) for p in range(n)],
        "secured": [state.secured(p) for p in range(n)],
        "secured_values": state.secured_values(),
        "chips": list(state.chips),
        "played": [list(p) for p in state.played],
        "street_piles": list(state.piles),
        "draw_pile": state.draw + 1,
    }


def _require_bool(data: Mapping[str, Any], key: str) -> bool:
    field = f"state.{key}"
    if key not in data:
        raise InvalidStateError(field, "missing")
    if not isinstance(data[key], bool):
        raise InvalidStateError(field, f"must be true or false, got {data[key]!r}")
    return data[key]


def _require_list(data: Mapping[str, Any], key: str, length: int = -1) -> list:
    field = f"state.{key}"
    if key not in data:
        raise InvalidStateError(field, "missing")
    value = data[key]
    if not isinstance(value, list):
        raise InvalidStateError(field, f"must be a list, got {value!r}")
    if length >= 0 and len(value) != length:
        raise InvalidStateError(field, f"must have {length} entries, got {len(value)}")
    return value


def _cell(value: Any, field: str) -> int:
    """A ``[row, col]`` pair inside the lake, as a cell number."""
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise InvalidStateError(field, f"must be [row, col], got {value!r}")
    row, col = value
    if not (0 <= row < B.SIZE and 0 <= col < B.SIZE):
        raise InvalidStateError(field, f"{value!r} is off the board (rows and columns are 0-8)")
    return B.cell_of(row, col)


def _int_list(value: Any, field: str, low: int, high: int) -> List[int]:
    if not isinstance(value, list):
        raise InvalidStateError(field, f"must be a list, got {value!r}")
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or not low <= item <= high:
            raise InvalidStateError(f"{field}[{i}]", f"must be an integer from {low} to {high}, got {item!r}")
    if len(set(value)) != len(value):
        raise InvalidStateError(field, f"has duplicates: {value!r}")
    return sorted(value)


def load_state(state: SunkenCityState, data: Mapping[str, Any]) -> SunkenCityState:
    """Validate :func:`state_to_dict` data and load it into ``state``, a blank state; returns it.

    On an error ``state`` may be half-filled: callers pass a fresh one and drop it.
    """
    game = state.game
    reject_unknown_fields(data, FIELDS)
    n = game.players
    state.cover = [B.EMPTY] * B.NUM_CELLS

    # -- pieces: streets, then buildings, never overlapping ------------------
    streets = _require_list(data, "streets")
    if len(streets) > MAX_STREETS:
        raise InvalidStateError("state.streets", f"{len(streets)} streets; the game has only {MAX_STREETS}")
    for i, street in enumerate(streets):
        field = f"state.streets[{i}]"
        if not isinstance(street, list) or len(street) != 3 or street[2] not in _DIRECTIONS:
            raise InvalidStateError(field, f"must be [row, col, 'right'|'down'], got {street!r}")
        anchor = _cell(street[:2], field)
        slot = anchor * 2 + _DIRECTIONS.index(street[2])
        cells = B.street_cells(slot)
        if cells is None:
            raise InvalidStateError(field, f"{street!r} runs off the board")
        if B.CENTRE in cells:
            raise InvalidStateError(field, f"{street!r} covers the centre, where only buildings rise")
        for c in cells:
            if state.cover[c] != B.EMPTY:
                raise InvalidStateError(field, f"{street!r} overlaps another piece at {B.cell_name(c)}")
        state._put_street(slot)
    buildings = _require_list(data, "buildings", NUM_BUILDINGS)
    for i, value in enumerate(buildings):
        b, field = i + 1, f"state.buildings[{i}]"
        if value is None:
            continue
        if b not in game.buildings:
            raise InvalidStateError(field, f"building {b} is not in the short game")
        cell = _cell(value, field)
        if not (B.IS_DARK[cell] or cell == B.CENTRE):
            raise InvalidStateError(field, f"building {b} on light cell {B.cell_name(cell)}; buildings rise on dark cells only")
        if state.cover[cell] != B.EMPTY:
            raise InvalidStateError(field, f"building {b} overlaps another piece at {B.cell_name(cell)}")
        state._put_building(b, cell)

    neptune = _cell(data.get("neptune"), "state.neptune") if "neptune" in data else None
    if neptune is None:
        raise InvalidStateError("state.neptune", "missing")
    if state.cover[neptune] == B.EMPTY:
        raise InvalidStateError("state.neptune", f"Neptune at {B.cell_name(neptune)} stands in the water")
    state.neptune = state.cover[neptune]

    adventurers = _require_list(data, "adventurers", n)
    for p, value in enumerate(adventurers):
        field = f"state.adventurers[{p}]"
        if value == "village":
            state.adventurer[p] = VILLAGE
            continue
        cell = _cell(value, field)
        if state.cover[cell] == B.EMPTY:
            raise InvalidStateError(field, f"adventurer at {B.cell_name(cell)} stands in the water")
        state.adventurer[p] = state.cover[cell]

    # -- treasures --------------------------------------------------------------
    carried = _require_list(data, "carried", n)
    secured = _require_list(data, "secured", n)
    for p in range(n):
        c = _int_list(carried[p], f"state.carried[{p}]", 1, 12)
        s = _int_list(secured[p], f"state.secured[{p}]", 1, 12)
        for field, items in ((f"state.carried[{p}]", c), (f"state.secured[{p}]", s)):
            bad = [t for t in items if t not in game.treasures]
            if bad:
                raise InvalidStateError(field, f"treasure {bad[0]} is not in this game (treasures: {list(game.treasures)})")
        both = sorted(set(c) & set(s))
        if both:
            raise InvalidStateError(f"state.carried[{p}]", f"treasure {both[0]} is both carried and secured")
        if c and state.adventurer[p] == VILLAGE:
            raise InvalidStateError(f"state.carried[{p}]", "an adventurer at home carries nothing: entering the village secures it")
        for t in c:
            state.treasure[p][t] = CARRIED
        for t in s:
            state.treasure[p][t] = SECURED
    values = require_int_list(data, "secured_values", n, 0, sum(game.treasures))
    if values != state.secured_values():
        raise InvalidStateError("state.secured_values", f"{values} do not add up to the secured treasures {state.secured_values()}")

    # -- chips and cards ------------------------------------------------------------
    chips = require_int_list(data, "chips", n, 0, NUM_CHIPS)
    if sum(chips) > NUM_CHIPS:
        raise InvalidStateError("state.chips", f"{sum(chips)} chips held; there are only {NUM_CHIPS}")
    if not game.chips_enabled and any(chips):
        raise InvalidStateError("state.chips", "the game is played without Neptune chips")
    state.chips = chips
    played = _require_list(data, "played", n)
    state.played = [_int_list(played[p], f"state.played[{p}]", 0, NUM_CARDS - 1) for p in range(n)]

    # -- street supply ----------------------------------------------------------------
    piles = require_int_list(data, "street_piles", NUM_PILES, 0, MAX_STREETS)
    draw = require_int(data, "draw_pile", 1, NUM_PILES) - 1
    on_board = len(streets)
    if on_board + sum(piles) != game.total_streets:
        raise InvalidStateError("state.street_piles", f"{sum(piles)} in the piles + {on_board} on the board != the game's {game.total_streets} streets")
    discard = min(draw + 1, NUM_PILES - 1)
    for i in range(NUM_PILES):
        if i < draw and piles[i]:
            raise InvalidStateError(f"state.street_piles[{i}]", f"space {i + 1} was used up before the draw pile {draw + 1}")
        if i == draw and draw < NUM_PILES - 1 and piles[i] == 0:
            raise InvalidStateError(f"state.street_piles[{i}]", "the draw pile is empty; the next space would be drawn from")
        if i > discard and piles[i] != (1 if i < NUM_PILES - 1 else 0):
            raise InvalidStateError(f"state.street_piles[{i}]", f"space {i + 1} is untouched until it becomes the discard pile")
    state.piles, state.draw = piles, draw

    # -- the turn ------------------------------------------------------------------------
    state.turn = require_int(data, "turn", 0, n - 1)
    if "phase" not in data:
        raise InvalidStateError("state.phase", "missing")
    if data["phase"] not in PHASE_NAMES:
        raise InvalidStateError("state.phase", f"must be one of {list(PHASE_NAMES)}, got {data['phase']!r}")
    state.phase = PHASE_NAMES.index(data["phase"])
    if "card" not in data:
        raise InvalidStateError("state.card", "missing")
    card = data["card"]
    max_pieces = max(pieces for pieces, _ in CARDS)
    max_points = max(points for _, points in CARDS)
    # A Neptune block is at most the territory reach or the highest face of
    # this player count's die (spec, "Neptune movement").
    max_neptune = max(game.territory_reach, max(value for value, _ in game.die_outcomes))
    state.raise_left = require_int(data, "raise_left", 0, max_pieces)
    state.move_left = require_int(data, "move_left", 0, max_points + len(game.treasures))
    state.neptune_left = require_int(data, "neptune_left", 0, max_neptune)
    state.raised = _require_bool(data, "raised")
    state.moved = _require_bool(data, "moved")
    state.neptune_moved = _require_bool(data, "neptune_moved")
    state.building_raised = _require_bool(data, "building_raised")
    state.chip_used = _require_bool(data, "chip_used")
    state.end_triggered = _require_bool(data, "end_triggered")
    mid_turn = state.phase not in (PH_CARD, PH_OVER)
    for p in range(n):
        if len(state.played[p]) == NUM_CARDS and not (p == state.turn and mid_turn):
            raise InvalidStateError(f"state.played[{p}]", "all six cards are out: they go back to the hand at the end of that turn")
    if state.phase in (PH_CARD, PH_OVER):
        if card is not None:
            raise InvalidStateError("state.card", f"no card is in play in phase {data['phase']!r}")
        if (state.raise_left or state.move_left or state.neptune_left or state.raised or state.moved
                or state.neptune_moved or state.building_raised or state.chip_used):
            raise InvalidStateError("state.phase", f"the turn's progress must be reset in phase {data['phase']!r}")
        if state.phase == PH_OVER and state.turn != 0:
            raise InvalidStateError("state.turn", "a finished game hands the turn back to seat 0")
        state.card = -1
    else:
        _check_turn_progress(game, state, card)
    if state.chip_used and not game.chips_enabled:
        raise InvalidStateError("state.chip_used", "the game is played without Neptune chips")
    _check_end(game, state)
    state._graph = None
    return state


def _check_turn_progress(game: SunkenCityGame, state: SunkenCityState, card: Any) -> None:
    """The card in play and the blocks' progress flags agree with one another (spec, "Turn").

    Each block is done in one go, so its leftovers exist only inside it, and
    every state the engine reaches has something to decide (blocks that
    cannot go on end by themselves; see the rulings in ``rules.py``).
    """
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < NUM_CARDS:
        raise InvalidStateError("state.card", f"must be a card index 0-{NUM_CARDS - 1}, got {card!r}")
    if card not in state.played[state.turn]:
        raise InvalidStateError("state.card", f"card {card} is in play but not among player {state.turn}'s played cards")
    state.card = card
    pieces, points = CARDS[card]
    phase = state.phase
    if pieces == 0 and not state.raised:
        # A card that raises nothing has no raise block (rules: played cards set
        # ``raised`` at once); offering one would raise without limit.
        raise InvalidStateError("state.raised", f"card {card} raises no piece, so its raise is done")
    if state.raise_left > pieces - (1 if state.building_raised else 0):
        raise InvalidStateError(
            "state.raise_left", f"card {card} raises only {pieces} pieces"
            + (", one of which was the building" if state.building_raised else ""))
    if state.building_raised and not (state.raised or phase == PH_RAISE):
        raise InvalidStateError("state.building_raised", "a building rises only inside the raise block")
    if state.building_raised and not any(state.building_cell[b] >= 0 for b in game.buildings):
        raise InvalidStateError("state.building_raised", "a building was raised this turn but none is on the board")
    if state.chip_used and not (state.moved or phase == PH_MOVE):
        raise InvalidStateError("state.chip_used", "a Neptune chip is played only inside the move block")
    # The chip adds at most one point per treasure of the game (RB "Neptune Chips").
    most = points + (len(game.treasures) if state.chip_used else 0)
    if state.move_left > most:
        raise InvalidStateError("state.move_left", f"card {card} gives {points} points"
                                + (" plus the chip's" if state.chip_used else "") + f", not {state.move_left}")
    if phase != PH_MOVE and state.move_left:
        raise InvalidStateError("state.move_left", "movement points are left only inside the move block")
    if phase != PH_NEPTUNE and state.neptune_left:
        raise InvalidStateError("state.neptune_left", "Neptune steps are left only inside his block")
    if phase != PH_RAISE and state.raise_left:
        raise InvalidStateError("state.raise_left", "pieces are left to raise only inside the raise block")
    if phase == PH_RAISE:
        if state.raised or state.raise_left == 0:
            raise InvalidStateError("state.raise_left", "the raise block needs pieces left to raise")
        if not state._can_raise():
            raise InvalidStateError("state.phase", "a raise block where nothing can be raised has already ended")
    elif phase == PH_MOVE:
        if state.moved:
            raise InvalidStateError("state.moved", "the move block is already over")
        if not state._chip_usable() and not (state.move_left > 0 and state._adventurer_steps()):
            raise InvalidStateError("state.phase", "a move block with no step and no chip left has already ended")
    elif phase == PH_NEPTUNE:
        if state.neptune_moved or state.neptune_left == 0:
            raise InvalidStateError("state.neptune_left", "Neptune's block needs steps left")
        if not state.neptune_can_move():
            raise InvalidStateError("state.phase", "the block of a Neptune who cannot move has already ended")
    elif phase == PH_ROLL:
        if state.neptune_moved or state.neptune_in_territory(state.turn):
            raise InvalidStateError("state.phase", "no die is rolled for Neptune in the player's territory")
        if not state.neptune_can_move():
            raise InvalidStateError("state.phase", "no die is rolled for a Neptune who cannot move")
    elif phase == PH_CHOOSE:
        if state._choose_actions() == [END_TURN]:
            raise InvalidStateError("state.phase", "with nothing left but ending the turn, the turn has already ended")


def _check_end(game: SunkenCityGame, state: SunkenCityState) -> None:
    """The end trigger agrees with its causes (spec, "End and scoring"; the frozen-lake ruling in ``rules.py``).

    The causes never go away once they hold: pile 5 stays empty, secured
    treasures stay secured, and a frozen lake can never change again. So a
    set flag needs a cause, and the first two causes set it at once. A frozen
    lake triggers the end only when a turn ends, so a position loaded with a
    frozen lake and no trigger (a hand-set puzzle, say) gets it then.
    """
    sand_timer = state.draw == NUM_PILES - 1
    all_secured = [p for p in range(game.players) if len(state.secured(p)) == len(game.treasures)]
    frozen = state.board_frozen()
    if sand_timer and not state.end_triggered:
        raise InvalidStateError("state.end_triggered", "the Sand Timer shows (pile 5 is empty), so the end is triggered")
    if all_secured and not state.end_triggered:
        raise InvalidStateError("state.end_triggered", f"player {all_secured[0]} secured every treasure, so the end is triggered")
    if state.end_triggered and not (sand_timer or all_secured or frozen):
        raise InvalidStateError("state.end_triggered", "nothing triggered the end (Sand Timer, all treasures secured or a frozen lake)")
    if state.phase == PH_OVER and not state.end_triggered:
        raise InvalidStateError("state.end_triggered", "the game cannot be over without an end trigger")
    if state.phase == PH_CARD and state.end_triggered and state.turn == 0:
        raise InvalidStateError("state.phase", "after an end trigger the game ends before seat 0 would play again")
