"""The games shipped with aiplay, one folder each (installed as ``aiplay.games``).

Importing this package imports every game folder (every subpackage, found on
disk, in name order); each folder's ``__init__.py`` registers its game with
:func:`aiplay.registry.register`. No list of games is kept here: adding a
folder adds the game (see docs/adding_a_game.md).

Extra game folders: the environment variable ``AIPLAY_GAMES_PATH`` lists
directories (separated by ``os.pathsep``, ``:`` on Linux and macOS) that hold
more game folders. They are appended to this package's ``__path__`` before
discovery, so a game there is imported as ``aiplay.games.<folder>`` exactly
like a shipped one, without editing the installed package. A shipped folder
wins over an extra one of the same name.

A folder that fails to import (a syntax error, a missing module, a failing
``register`` call) does not take the other games down: the error is recorded
(:func:`aiplay.registry.broken_games`), a :class:`BrokenGameWarning` names the
folder and the error, ``aiplay games`` lists it on stderr, and
``aiplay.load("<folder>")`` raises :class:`~aiplay.errors.SetupError` with the
reason.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import traceback
import warnings
from typing import Dict, List

from aiplay import registry as _registry

#: Environment variable listing extra directories of game folders (``os.pathsep``-separated).
GAMES_PATH_ENV = "AIPLAY_GAMES_PATH"


class BrokenGameWarning(UserWarning):
    """A game folder could not be imported; the other games are still loaded."""


def _extend_path() -> None:
    """Append the directories of ``AIPLAY_GAMES_PATH`` (existing ones, once each) to ``__path__``."""
    for directory in os.environ.get(GAMES_PATH_ENV, "").split(os.pathsep):
        directory = directory.strip()
        if not directory:
            continue
        full = os.path.abspath(os.path.expanduser(directory))
        if not os.path.isdir(full):
            warnings.warn(f"{GAMES_PATH_ENV}: {directory!r} is not a directory; ignored", BrokenGameWarning,
                          stacklevel=2)
            continue
        if full not in [os.path.abspath(p) for p in __path__]:
            __path__.append(full)


def _where(exc: BaseException) -> str:
    """The last frame of ``exc``'s traceback inside the game folder, as ``file:line`` (or '')."""
    frames = traceback.extract_tb(exc.__traceback__)
    return f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def _discover() -> List[str]:
    """Import every game folder of this package; return the module names of those that loaded."""
    names = sorted({info.name for info in pkgutil.iter_modules(__path__) if info.ispkg})
    loaded: List[str] = []
    for name in names:
        module = f"{__name__}.{name}"
        before: Dict[str, object] = dict(_registry._REGISTRY)
        try:
            importlib.import_module(module)
        except Exception as exc:  # one broken folder must not break every other game
            # Entries that the half-imported folder registered before failing go again.
            for game in [g for g in _registry._REGISTRY if before.get(g) is not _registry._REGISTRY[g]]:
                if game in before:
                    _registry._REGISTRY[game] = before[game]  # type: ignore[assignment]
                else:
                    del _registry._REGISTRY[game]
            for loaded_module in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
                del sys.modules[loaded_module]
            reason = f"{type(exc).__name__}: {exc}{_where(exc)}"
            _registry.record_broken_game(name, reason)
            warnings.warn(f"game folder {name!r} could not be imported and is skipped: {reason}",
                          BrokenGameWarning, stacklevel=2)
            continue
        loaded.append(name)
    return loaded


_extend_path()
GAME_PACKAGES: List[str] = _discover()
