"""Which elements of a game's SVG picture each legal move touches: the seam a clicking frontend reads.

A board game's picture marks every element that a move can name with
``data-target="<id>"``. :func:`legal_move_targets` maps each legal action of
the seat to move to the ids of the elements it touches, so that a frontend
(the browser demo, through the protocol's ``view`` with ``"render": "svg"``)
can play a move when its element is clicked. An action that touches no
element (a card in hand, "end turn") is absent: it stays a button.

Where the mapping comes from, first found wins:

1. the shared picture module's ``aiplay.svg.legal_moves_on_svg(state,
   viewer)`` (issue 23 item 1, being written alongside this seam; it is
   looked up by name so that this module works with or without it);
2. the game package's own ``legal_moves_on_svg`` (or its ``render``
   module's);
3. a mapping kept here for games that have none yet (Sunken City's cells,
   villages, adventurers and Neptune, matching the ``data-target`` ids that
   ``games/sunken_city/render.svg_board`` draws);
4. otherwise no mapping: ``{}``, and a frontend falls back to buttons.

A mapping takes the state, or the state and the seat to move (the viewer
of the picture), and may return, per action, one id or a list of ids; this
module hands back lists of strings, only for actions that are legal now.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Callable, Dict, List, Mapping, Optional

from aiplay.errors import NotDecisionNodeError
from aiplay.game import State

#: A mapping function: a state (reference engine), and optionally the seat to move, to ``{action: ids}``.
TargetMapping = Callable[..., Mapping[int, Any]]

#: The function name a game package (or its ``render`` module) exports for its own mapping.
MAPPING_NAME = "legal_moves_on_svg"


def _game_module(name: str) -> Any:
    """A module of a game package, imported by name (this library module never imports a game statically)."""
    return importlib.import_module(f"aiplay.games.{name}")


def cell_target(cell: int) -> str:
    """The ``data-target`` id of Sunken City's lake cell ``cell`` (``row * 9 + col``): ``cell-40``."""
    return f"cell-{cell}"


def _sunken_city(state: State) -> Dict[int, List[str]]:
    """Sunken City: streets and buildings on their cells, steps onto every cell of the piece stepped on.

    Also the mover's village (enter it), the mover's adventurer (start or
    stop moving it) and Neptune (start or stop moving him). Cards, "raise",
    "end turn" and "use chip" have no place on the board.
    """
    A = _game_module("sunken_city.actions")
    B = _game_module("sunken_city.board")

    data = state.to_dict()
    mover = state.current_player()
    other_cell: Dict[int, int] = {}  # anchor of a street -> its second cell
    for row, col, direction in data["streets"]:
        a = B.cell_of(row, col)
        other_cell[a] = a + 1 if direction == "right" else a + B.SIZE

    def piece(anchor: int) -> List[str]:
        cells = [anchor] + ([other_cell[anchor]] if anchor in other_cell else [])
        return [cell_target(c) for c in cells]

    out: Dict[int, List[str]] = {}
    for action in state.legal_actions():
        if A.STREET_BASE <= action < A.BUILD_BASE:
            cells = B.STREET_SLOTS[action - A.STREET_BASE]
            if cells is not None:
                out[action] = [cell_target(c) for c in cells]
        elif A.BUILD_BASE <= action < A.STEP_BASE:
            site = (action - A.BUILD_BASE) % B.NUM_SITES
            out[action] = [cell_target(B.BUILDING_SITES[site])]
        elif A.STEP_BASE <= action < A.NEPTUNE_STEP_BASE:
            out[action] = piece(action - A.STEP_BASE)
        elif A.NEPTUNE_STEP_BASE <= action < A.NUM_ACTIONS:
            out[action] = piece(action - A.NEPTUNE_STEP_BASE)
        elif action == A.ENTER_VILLAGE:
            out[action] = [f"village-{state.game.seats[mover]}"]  # the board seat's village
        elif action in (A.MOVE, A.STOP_MOVE):
            out[action] = [f"adventurer-p{mover}"]
        elif action in (A.NEPTUNE, A.NEPTUNE_STOP):
            out[action] = ["neptune"]
    return out


#: Mappings kept here for games whose package does not export its own yet.
FALLBACK_MAPPINGS: Dict[str, TargetMapping] = {"sunken_city": _sunken_city}


def _package_mapping(state: State) -> Optional[TargetMapping]:
    """The shared ``aiplay.svg.legal_moves_on_svg``, else the game package's (or its ``render`` module's), if any."""
    package_name = type(state).__module__.rsplit(".", 1)[0]
    for name in ("aiplay.svg", package_name, package_name + ".render"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        fn = getattr(module, MAPPING_NAME, None)
        # A shared module says which games it draws (svg_module(state) is None for the others).
        covers = getattr(module, "svg_module", None)
        if callable(fn) and (not callable(covers) or covers(state) is not None):
            return fn  # type: ignore[no-any-return]
    return None


def _takes_viewer(fn: Callable[..., Any]) -> bool:
    """True when a mapping wants ``(state, viewer)`` rather than ``(state)`` (it is given the seat to move)."""
    try:
        inspect.signature(fn).bind(None, None)
    except (TypeError, ValueError):
        return False
    return True


def legal_move_targets(state: State) -> Dict[int, List[str]]:
    """``{action: [data-target ids]}`` for the legal actions of the seat to move that touch the picture.

    ``state`` may be of either engine (a native state is read through its
    reference copy). Games without a mapping give ``{}``. Raises
    :class:`~aiplay.errors.NotDecisionNodeError` at a chance node or a
    finished game, where no seat has a move to click.
    """
    if state.is_terminal() or state.is_chance_node():
        raise NotDecisionNodeError("no seat is to move here (a chance node or a finished game): nothing to click")
    to_reference = getattr(state, "to_reference", None)
    ref = to_reference() if callable(to_reference) else state
    mapping = _package_mapping(ref) or FALLBACK_MAPPINGS.get(ref.game.name)
    if mapping is None:
        return {}
    legal = set(ref.legal_actions())
    found = mapping(ref, ref.current_player()) if _takes_viewer(mapping) else mapping(ref)
    out: Dict[int, List[str]] = {}
    for action, ids in found.items():
        if action not in legal:
            continue
        listed = [ids] if isinstance(ids, str) else list(ids)
        if listed:
            out[int(action)] = [str(i) for i in listed]
    return out


__all__ = ["FALLBACK_MAPPINGS", "MAPPING_NAME", "TargetMapping", "cell_target", "legal_move_targets"]
