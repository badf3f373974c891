"""The game registry: ``aiplay.load(name)`` and ``aiplay.games_available()``.

A game is registered in exactly one place: its own folder. Each
``games/<game>/__init__.py`` calls :func:`register` with everything the generic
machinery needs (the reference class, the kernel module, the option sets of
the generic tests, the differential cases, the golden playthroughs, the
benchmark configuration). ``aiplay.games`` discovers the folders and imports
them; nothing else lists games. ``load`` returns the native engine when it is
built and the reference engine otherwise; both implement the same API and
behave identically (the differential tests check it).

Hidden games (``listed=False``, e.g. the ``template`` example game) are left
out of :func:`games_available` and ``aiplay games`` unless asked for
(``include_hidden=True``, ``aiplay games --all``, or the environment variable
``AIPLAY_SHOW_HIDDEN_GAMES=1``, which the test suite sets so that every
generic test covers them). They can always be loaded by name.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Type

from aiplay.errors import InvalidOptionError, SetupError, UnknownGameError
from aiplay.game import Game
from aiplay.limits import shown
from aiplay.native import NativeGame

#: The engines ``aiplay.load`` accepts (also the searchers' ``backend`` option).
BACKENDS = ("auto", "native", "reference")

#: Environment variable that makes hidden (example) games visible by default.
SHOW_HIDDEN_ENV = "AIPLAY_SHOW_HIDDEN_GAMES"


@dataclass(frozen=True)
class DifferentialCase:
    """One option set of the native-against-reference lockstep test and its number of seeded games.

    ``full_games`` is the count of the long run (``AIPLAY_FULL_DIFFERENTIAL=1``);
    None means the same as ``games``.
    """

    options: Mapping[str, Any]
    games: int
    full_games: Optional[int] = None


@dataclass(frozen=True)
class PlaythroughSpec:
    """One golden playthrough file ``games/<game>/playthroughs/<stem>.txt``: a seeded random game.

    Short games record everything at every step. Long games (board games) set
    ``state_every`` = k: every step still records the player, every legal
    action count, the action taken and its name, and hashes of the state and of
    every information state; the full state JSON is written every k steps and
    at the end (so the file stays reviewable while every step is still checked).
    ``max_steps`` stops the transcript after that many steps (None: the whole game).
    """

    stem: str
    options: Mapping[str, Any]
    seed: int
    state_every: int = 1
    max_steps: Optional[int] = None


@dataclass(frozen=True)
class GameEntry:
    """One registered game: everything the generic tests, tools and the CLI need to know.

    Attributes:
        name: the registry name (``reference.name``).
        reference: the reference engine's :class:`Game` subclass.
        kernel_module: import path of the native kernel (a module with
            ``make_kernel(reference_game)``), or None. Found by convention: the
            ``kernel`` module of the game's package (``games/<game>/kernel.pyx``,
            compiled as ``aiplay.games.<game>.kernel``), when the folder has one.
        no_kernel: when ``kernel_module`` is None, the reason why (a game with
            neither fails ``tests/test_registry.py``).
        no_heuristic: when the game has no ``heuristic_policy``, the reason why.
        no_kernel_policy: when the game has a heuristic but its kernel's
            ``policy_action`` is the generic uniform-random one, the reason why.
        contract_options: the option sets every generic test (contract,
            roundtrip, determinize, fuzz, metadata) runs over.
        differential: the lockstep cases of ``tests/test_differential.py``.
        playthroughs: the golden playthrough files.
        benchmark: options for ``benchmarks/board_games.py``, or None (not benchmarked there).
        max_game_length: ``f(game) -> int``, an upper bound on the number of
            moves (decisions and chance outcomes) of any game with those
            options, or None when the game declares none.
        listed: False for example/hidden games (left out of ``games_available()``).
        tensors: the game's :class:`aiplay.tensors.TensorEncoding`, or None (no tensors).
    """

    name: str
    reference: Type[Game]
    kernel_module: Optional[str] = None
    no_kernel: Optional[str] = None
    no_heuristic: Optional[str] = None
    no_kernel_policy: Optional[str] = None
    contract_options: Tuple[Mapping[str, Any], ...] = ({},)
    differential: Tuple[DifferentialCase, ...] = ()
    playthroughs: Tuple[PlaythroughSpec, ...] = ()
    benchmark: Optional[Mapping[str, Any]] = None
    max_game_length: Optional[Callable[[Game], int]] = None
    listed: bool = True
    tensors: Optional[Any] = None

    @property
    def title(self) -> str:
        return self.reference.title or self.name

    @property
    def package(self) -> str:
        """The import path of the game's package (``aiplay.games.<folder>``): where its rules class lives."""
        module = self.reference.__module__
        return module if _is_package(module) else module.rpartition(".")[0]

    @property
    def folder(self) -> Optional[Path]:
        """The game's folder on disk (its package directory), or None for a game not made from files."""
        spec = importlib.util.find_spec(self.package) if self.package else None
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        return Path(locations[0]) if locations else None


def _is_package(module: str) -> bool:
    spec = importlib.util.find_spec(module) if module else None
    return spec is not None and spec.submodule_search_locations is not None


def _conventional_kernel(reference: Type[Game]) -> Optional[str]:
    """``<game package>.kernel`` when the game's folder holds a kernel (built, or its ``kernel.pyx`` source)."""
    module = reference.__module__
    package = module if _is_package(module) else module.rpartition(".")[0]
    if not package:
        return None
    candidate = f"{package}.kernel"
    try:
        if importlib.util.find_spec(candidate) is not None:
            return candidate
    except (ImportError, ValueError):
        pass
    spec = importlib.util.find_spec(package)
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        if (Path(location) / "kernel.pyx").exists():
            return candidate  # the source is there; has_native() tells whether it is built
    return None


_REGISTRY: Dict[str, GameEntry] = {}
#: Game folders that failed to import: folder name -> the error, as text (see games/__init__.py).
_BROKEN: Dict[str, str] = {}
_loaded = False


def record_broken_game(folder: str, reason: str) -> None:
    """Record that the game folder ``folder`` failed to import (``aiplay.games`` discovery calls this)."""
    _BROKEN[folder] = reason


def broken_games() -> Dict[str, str]:
    """``{folder: error text}`` of the game folders that could not be imported (skipped, the others load)."""
    _ensure_loaded()
    return dict(_BROKEN)


def register(reference: Type[Game], kernel_module: Optional[str] = None, *,
             no_kernel: Optional[str] = None, no_heuristic: Optional[str] = None,
             no_kernel_policy: Optional[str] = None,
             contract_options: Sequence[Mapping[str, Any]] = ({},),
             differential: Sequence[DifferentialCase] = (),
             playthroughs: Sequence[PlaythroughSpec] = (),
             benchmark: Optional[Mapping[str, Any]] = None,
             max_game_length: Optional[Callable[[Game], int]] = None,
             listed: bool = True, tensors: Optional[Any] = None) -> GameEntry:
    """Register a game (see :class:`GameEntry` for the fields); returns its entry.

    Registering a name again replaces the entry (a game folder re-imported, or a
    test registering a copy at run time).
    """
    if not reference.name:
        raise ValueError(f"{reference.__name__} has no name")
    if kernel_module is None and no_kernel is None:
        kernel_module = _conventional_kernel(reference)
    if tensors is not None:
        reference.tensor_encoding = tensors  # the game holds its encoding (Game.tensor_encoding)
    else:
        tensors = reference.tensor_encoding
    entry = GameEntry(
        name=reference.name, reference=reference, kernel_module=kernel_module, no_kernel=no_kernel,
        no_heuristic=no_heuristic, no_kernel_policy=no_kernel_policy,
        contract_options=tuple(dict(o) for o in contract_options),
        differential=tuple(differential), playthroughs=tuple(playthroughs),
        benchmark=None if benchmark is None else dict(benchmark),
        max_game_length=max_game_length, listed=listed, tensors=tensors)
    _REGISTRY[reference.name] = entry
    return entry


def option_values(name: str, option: Any) -> List[Any]:
    """The values of one option that the option-grid tests try (:func:`option_grid`).

    Booleans both ways; ``players`` at every count from its least to its most; other
    integers at their least, middle and most value (an unbounded one at its least and
    its default); a choice (:func:`aiplay.game.choice_option`) at each of its values; any
    other kind at its default.
    """
    if option.choices is not None:
        return list(option.choices)
    if option.kind is bool:
        return [False, True]
    if option.kind is int and option.low is not None:
        if option.high is None:
            return sorted({option.low, option.default})
        if name == "players":
            return list(range(option.low, option.high + 1))
        return sorted({option.low, (option.low + option.high) // 2, option.high})
    return [option.default]


def option_grid(name: str) -> List[Dict[str, Any]]:
    """Option sets that cover every value of every option of game ``name`` (see :func:`option_values`).

    Every player count is paired with every value of every other option, the
    remaining options at their defaults (so a leak that shows only for five
    players and six events a block is met); a game without ``players`` gets each
    value of each option in turn. Sets the game refuses are left out; the order
    is fixed, and each set is given only in full (every option named).
    """
    reference = game_entry(name).reference
    spec = dict(reference.option_spec)
    defaults = {k: o.default for k, o in spec.items()}
    axes = {k: option_values(k, o) for k, o in spec.items()}
    counts = axes.pop("players", [defaults.get("players")]) if "players" in spec else [None]
    out: List[Dict[str, Any]] = []
    for count in counts:
        base = dict(defaults) if count is None else {**defaults, "players": count}
        candidates = [base] + [{**base, key: value} for key, values in axes.items() for value in values]
        for options in candidates:
            if options in out:
                continue
            try:
                reference(**options)
            except InvalidOptionError:
                continue
            out.append(options)
    return out


def unregister(name: str) -> None:
    """Remove ``name`` from the registry (for tests that register a game at run time)."""
    _REGISTRY.pop(name, None)


def _ensure_loaded() -> None:
    global _loaded
    if not _loaded:
        try:
            importlib.import_module("aiplay.games")  # discovers and imports every game folder
        except ModuleNotFoundError as exc:
            if exc.name != "aiplay.games":
                raise
            # The source checkout's aiplay/ folder shadows the installed package when
            # Python runs from the repository root; the games live in games/ there.
            raise SetupError(
                f"aiplay was imported from {Path(__file__).resolve().parent}, a source folder that is not "
                f"installed: its games are missing. From the repository root, install it in place with "
                f"`python3 -m venv .venv && .venv/bin/pip install -e .` and use .venv/bin/python, or run "
                f"Python from another directory") from None
        _loaded = True


def hidden_games_shown() -> bool:
    """True when ``AIPLAY_SHOW_HIDDEN_GAMES`` asks for hidden games by default (the test suite sets it)."""
    return os.environ.get(SHOW_HIDDEN_ENV, "").strip() not in ("", "0")


def game_entries(include_hidden: Optional[bool] = None) -> List[GameEntry]:
    """The registry entries, sorted by name; hidden ones as :func:`games_available` decides."""
    _ensure_loaded()
    if include_hidden is None:
        include_hidden = hidden_games_shown()
    return [_REGISTRY[n] for n in sorted(_REGISTRY) if include_hidden or _REGISTRY[n].listed]


def games_available(include_hidden: Optional[bool] = None) -> List[str]:
    """The names of the registered games, sorted.

    Hidden (example) games are included when ``include_hidden`` is True, or
    when it is None and ``AIPLAY_SHOW_HIDDEN_GAMES=1`` is set.
    """
    return [e.name for e in game_entries(include_hidden)]


def game_entry(name: str) -> GameEntry:
    """The registry entry of ``name``; raises :class:`UnknownGameError` listing the known games."""
    _ensure_loaded()
    if not isinstance(name, str):  # a list or a dict would be unhashable: a TypeError, not a game
        known = ", ".join(games_available())
        raise UnknownGameError(f"a game name is a string, got {shown(name)}; available games: {known}")
    try:
        return _REGISTRY[name]
    except KeyError:
        folder = name if name in _BROKEN else f"_{name}" if f"_{name}" in _BROKEN else None
        if folder is not None:
            raise SetupError(f"game {name!r} is not available: its folder {folder!r} could not be imported: "
                             f"{_BROKEN[folder]}") from None
        known = ", ".join(games_available())
        raise UnknownGameError(f"unknown game {name!r}; available games: {known}") from None


def contract_options(include_hidden: Optional[bool] = None) -> Dict[str, List[dict]]:
    """``{name: [options, ...]}``: the option sets of the generic tests, per game."""
    return {e.name: [dict(o) for o in e.contract_options] for e in game_entries(include_hidden)}


def benchmark_configs(include_hidden: Optional[bool] = None) -> Dict[str, dict]:
    """``{name: options}`` of every game with a benchmark configuration."""
    return {e.name: dict(e.benchmark) for e in game_entries(include_hidden) if e.benchmark is not None}


class LiveTable(Mapping[str, Any]):
    """A read-only ``{game name: value}`` mapping recomputed from the registry at every access.

    Module-level tables built from the registry (the tests' option sets, the
    benchmarks' game list) use it, so that a game registered at run time is
    seen by every reader without re-importing anything.
    """

    def __init__(self, compute: Callable[[], Mapping[str, Any]]):
        self._compute = compute

    def __getitem__(self, name: str) -> Any:
        return self._compute()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._compute())

    def __len__(self) -> int:
        return len(self._compute())

    def __repr__(self) -> str:
        return f"LiveTable({dict(self._compute())!r})"


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
    """Create the game ``name`` with ``options`` (e.g. ``load("my_game", players=3)``).

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
    module = importlib.import_module(entry.kernel_module)
    return NativeGame(reference, module.make_kernel(reference))
