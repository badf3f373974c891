"""The game registry: ``aiplay.load(name)`` and ``aiplay.games_available()``.

Each game folder in ``aiplay.games`` registers its reference engine and, when
it has one, the module of its native kernel. ``load`` returns the native
engine when it is built and the reference engine otherwise; both implement the
same API and behave identically (the differential tests check it).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Type

from aiplay.errors import InvalidOptionError, SetupError, UnknownGameError
from aiplay.game import Game

BACKENDS = ("auto", "native", "reference")


@dataclass(frozen=True)
class GameEntry:
    """One registered game: its reference engine class and its kernel module, if any."""

    name: str
    reference: Type[Game]
    kernel_module: Optional[str] = None

    @property
    def title(self) -> str:
        return self.reference.title or self.name


_REGISTRY: Dict[str, GameEntry] = {}
_loaded = False


def register(reference: Type[Game], kernel_module: Optional[str] = None) -> None:
    """Register a game. ``kernel_module`` is the import path of its native kernel."""
    if not reference.name:
        raise ValueError(f"{reference.__name__} has no name")
    _REGISTRY[reference.name] = GameEntry(reference.name, reference, kernel_module)


def _ensure_loaded() -> None:
    global _loaded
    if not _loaded:
        try:
            importlib.import_module("aiplay.games")  # each game registers itself on import
        except ModuleNotFoundError as exc:
            if exc.name != "aiplay.games":
                raise
            # The source checkout's aiplay/ folder shadows the installed package when
            # Python runs from the repository root; the games live in games/ there.
            import aiplay
            raise SetupError(
                f"aiplay was imported from {Path(aiplay.__file__).parent}, a source folder that is not "
                f"installed: its games are missing. From the repository root, install it in place with "
                f"`python3 -m venv .venv && .venv/bin/pip install -e .` and use .venv/bin/python, or run "
                f"Python from another directory") from None
        _loaded = True


def games_available() -> List[str]:
    """The names of every registered game, sorted."""
    _ensure_loaded()
    return sorted(_REGISTRY)


def game_entry(name: str) -> GameEntry:
    """The registry entry of ``name``; raises :class:`UnknownGameError` listing the known games."""
    _ensure_loaded()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownGameError(f"unknown game {name!r}; available games: {known}") from None


def has_native(name: str) -> bool:
    """True when ``name`` has a kernel and it is built (importable)."""
    entry = game_entry(name)
    if entry.kernel_module is None:
        return False
    try:
        importlib.import_module(entry.kernel_module)
    except ImportError:
        return False
    return True


def load(name: str, backend: str = "auto", **options: Any) -> Game:
    """Create the game ``name`` with ``options`` (e.g. ``load("pig", winscore=20)``).

    ``backend`` is ``"auto"`` (the native kernel when built, else the reference
    engine), ``"native"`` (error when there is no kernel) or ``"reference"``.
    """
    entry = game_entry(name)
    if backend not in BACKENDS:
        raise InvalidOptionError(f"option backend={backend!r} is invalid; it accepts one of {list(BACKENDS)}")
    reference = entry.reference(**options)
    if backend == "reference" or (backend == "auto" and not has_native(name)):
        return reference
    if entry.kernel_module is None:
        raise InvalidOptionError(f"game {name!r} has no native kernel; use backend='reference' or 'auto'")
    if not has_native(name):
        raise InvalidOptionError(
            f"the native kernel of {name!r} ({entry.kernel_module}) is not built; reinstall aiplay "
            f"with a C compiler, or use backend='reference'")
    from aiplay.native import NativeGame  # late: needs the compiled extension

    module = importlib.import_module(entry.kernel_module)
    return NativeGame(reference, module.make_kernel(reference))
