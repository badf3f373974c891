"""Where a game's optional text modules are found: ``games/<g>/<name>.py``, by convention.

The pictures are found the same way (:func:`aiplay.views.svg.svg_module`): the
package of the game's reference engine, then its submodule ``name``. A game
without the module gets the generic text of the caller (a fallback, never an error).
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from types import ModuleType
from typing import Any, Optional

from aiplay.errors import AiplayError
from aiplay.game import Game, State
from aiplay.registry import game_entry


def reference_state(state: State) -> State:
    """The reference engine's copy of ``state`` (the per-game text modules read it)."""
    to_reference = getattr(state, "to_reference", None)
    return to_reference() if callable(to_reference) else state


def game_package(game: Any) -> str:
    """The import path of the package of a game given as a name, a Game or a State."""
    if isinstance(game, str):
        return game_entry(game).package
    if isinstance(game, State):
        game = game.game
    try:
        return game_entry(game.name).package
    except AiplayError:  # a game built outside the registry (a test's toy game): its class's package
        module = type(game).__module__
        return module.rsplit(".", 1)[0] if "." in module else module


@functools.lru_cache(maxsize=None)
def _module(package: str, name: str) -> Optional[ModuleType]:
    if not package:
        return None  # a game whose class lives in no package (a script's toy game): no modules beside it
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{package}.{name}":
            return None  # the game has no such module: the caller's fallback applies
        raise


def game_module(game: Any, name: str) -> Optional[ModuleType]:
    """The game's ``name`` module (``games/<g>/<name>.py``), or None when it has none."""
    return _module(game_package(game), name)


def game_file(game: Any, filename: str) -> Optional[Path]:
    """A data file in the game's folder (``games/<g>/<filename>``), or None when it is not there."""
    module = importlib.import_module(game_package(game))
    path = Path(module.__file__ or "").parent / filename
    return path if path.is_file() else None


def game_name(game: Any) -> str:
    """The registry name of a game given as a name, a Game or a State."""
    if isinstance(game, str):
        return game
    if isinstance(game, State):
        game = game.game
    if isinstance(game, Game):
        return game.name
    return str(getattr(game, "name", game))


__all__ = ["game_file", "game_module", "game_name", "game_package", "reference_state"]
