"""Text and SVG pictures of a state as one seat sees it (:func:`render_state`).

Shared by the protocol's ``view`` command, the command line's human play and
the Gymnasium adapter's ``render()``: a hidden-information game's own
``render(state, viewer)``, ``str(state)`` when nothing is hidden, or the
game's SVG module (:mod:`aiplay.views.svg`).
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Callable, Optional

from aiplay.game import State
from aiplay.views.hooks import reference_state
from aiplay.views.svg import svg_module

def _game_package(state: State) -> str:
    """The package of the game's reference engine (``aiplay.games.<name>``)."""
    return type(state).__module__.rsplit(".", 1)[0]


def _takes_two(fn: Callable[..., Any]) -> bool:
    """True when ``fn`` can be called as ``fn(state, viewer)`` (a renderer for one seat's eyes)."""
    try:
        inspect.signature(fn).bind(None, None)
    except (TypeError, ValueError):
        return False
    return True


def render_state(state: State, player: Optional[int], kind: str = "text") -> Optional[str]:
    """A picture of ``state`` as ``player`` sees it, when the game has a renderer for that; else None.

    Text: a hidden-information game's ``render(state, viewer)`` (exported by
    its package), or ``str(state)`` when nothing is hidden. SVG (``kind="svg"``):
    :func:`aiplay.svg.svg` of the board game (``player`` None: everything, which
    the ``view`` command allows only when nothing is hidden); elements a move can
    name carry ``data-target`` ids (docs/svg.md).
    """
    ref = reference_state(state)
    package = importlib.import_module(_game_package(ref))
    if kind == "text":
        fn = getattr(package, "render", None)
        if callable(fn) and _takes_two(fn):
            return str(fn(ref, player))
        return str(ref) if state.game.perfect_information else None
    if player is None and not state.game.perfect_information:
        return None
    module = svg_module(ref)
    return None if module is None else str(module.svg(ref, player))


__all__ = ["render_state"]
