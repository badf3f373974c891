"""The native backend: a game whose states live in a compiled kernel.

:class:`NativeGame` wraps a reference game and the kernel built for the same
options. It shares the reference game's name, options and validation: a JSON
position is checked by the reference engine, then copied into C memory.

Pickling (and so ``copy.deepcopy``, ``multiprocessing``, Dask): a native game
pickles as its reference game plus the name of its kernel module, and is
rebuilt on the other side (one game object per options in each process). A
native state pickles as its game and the kernel's own bytes of the position
(a state is plain C data, the same bytes a ``clone()`` copies), stamped with
:func:`kernel_build`: a pickle is for another process of the same build, and
a different build refuses it (:class:`~aiplay.errors.InvalidStateError`).
For storage across versions use the JSON form (``state.to_json()``).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from typing import Any, Dict, Mapping, Tuple

from aiplay.errors import InvalidStateError
from aiplay.game import Game, State

try:  # the optional compiled extension: without it there is no native engine (aiplay.load says so)
    from aiplay._ext.kernel import Kernel, NativeState
except ImportError:  # pragma: no cover - a build without a C compiler
    Kernel = NativeState = None  # type: ignore[assignment, misc]
else:
    # NativeState is a Cython class and cannot inherit from the State ABC; register
    # it so that isinstance(state, aiplay.State) holds for both engines.
    State.register(NativeState)


def _from_reference(name: str) -> Any:
    """A read-only property that returns the reference game's attribute ``name``."""
    return property(lambda self: getattr(self.reference, name), doc=f"The reference game's ``{name}``.")


class NativeGame(Game):
    """A game on its native kernel; same API and behaviour as its reference engine."""

    backend = "native"

    def __init__(self, reference: Game, kernel: Kernel):
        # Options were validated by the reference game; share them rather than re-parse.
        self.reference = reference
        self.kernel = kernel
        self._options = reference.options
        self.name = reference.name  # type: ignore[misc]
        self.title = reference.title  # type: ignore[misc]
        self.option_spec = reference.option_spec  # type: ignore[misc]
        self.heuristic_policy = reference.heuristic_policy  # type: ignore[misc]
        self.bot_presets = reference.bot_presets  # type: ignore[misc]
        self.difficulty_levels = reference.difficulty_levels  # type: ignore[misc]
        self.level_ties = reference.level_ties  # type: ignore[misc]
        self.tensor_encoding = reference.tensor_encoding  # type: ignore[misc]

    def __getattr__(self, name: str) -> Any:
        # Anything else a game defines (Sunken City's ``seats``, say) is the
        # reference game's: renderers and tools written against the reference
        # engine then work on native states too.
        if name == "reference" or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.reference, name)

    # The game's constants are the reference game's (the kernel is built from it).
    num_players = _from_reference("num_players")
    num_distinct_actions = _from_reference("num_distinct_actions")
    max_chance_outcomes = _from_reference("max_chance_outcomes")
    min_utility = _from_reference("min_utility")
    max_utility = _from_reference("max_utility")
    perfect_information = _from_reference("perfect_information")
    zero_sum = _from_reference("zero_sum")
    constant_sum = _from_reference("constant_sum")

    def __reduce__(self) -> Tuple[Any, ...]:
        return _restore_game, (self.reference, type(self.kernel).__module__)

    def pickle_state(self, state: NativeState) -> Tuple[Any, ...]:
        """The pickle of one of this game's states (``NativeState.__reduce__`` asks its game):
        the kernel's bytes of the position, stamped with :func:`kernel_build`."""
        return _restore_state, (self, kernel_build(self.kernel), state._buffer())

    def __copy__(self) -> "NativeGame":
        return self  # a game never changes once made: a copy may be the game itself

    def __deepcopy__(self, memo: Dict[int, Any]) -> "NativeGame":
        return self

    def new_initial_state(self) -> NativeState:
        state = NativeState.create(self.kernel, self)
        # The reference engine's own start: names and views need no reload of the position.
        state.set_reference(self.reference.new_initial_state())
        return state

    def state_from_dict(self, data: Mapping[str, Any]) -> NativeState:
        checked = self.reference.state_from_dict(data)  # raises InvalidStateError
        load_validated = getattr(self.kernel, "load_validated", None)
        if load_validated is None:
            state = self.from_reference(checked)
        else:
            # The kernel's load_dict would run the reference loader again on the same data.
            state = NativeState.create(self.kernel, self)
            load_validated(state, checked.to_dict())
        state.set_reference(checked)  # validated just now, and ours alone: the cache of names and views
        return state

    def from_reference(self, state: State) -> NativeState:
        """The native copy of a reference-engine state of the same game."""
        return NativeState.from_dict(self.kernel, self, state.to_dict())


#: The native games rebuilt from pickles in this process, by (reference class, kernel module, options):
#: every state unpickled with the same game shares one kernel, as states made here do.
_RESTORED: Dict[Tuple[type, str, str], NativeGame] = {}
#: kernel_build's answer per kernel module (the hash of a compiled file is read once per process).
_BUILDS: Dict[str, str] = {}


def kernel_build(kernel: Kernel) -> str:
    """An identifier of the compiled module that ``kernel`` comes from (a hash of the file).

    Two processes agree on it exactly when they run the same build of the
    kernel, that is when the kernel's bytes of a state mean the same thing.
    """
    module_name = type(kernel).__module__
    build = _BUILDS.get(module_name)
    if build is None:
        path = getattr(sys.modules.get(module_name), "__file__", None)
        if path is None:  # not from a file: only this process can read its bytes
            build = f"{module_name}@process"
        else:
            with open(path, "rb") as handle:
                build = f"{module_name}@{hashlib.blake2b(handle.read(), digest_size=12).hexdigest()}"
        _BUILDS[module_name] = build
    return build


def _restore_game(reference: Game, kernel_module: str) -> NativeGame:
    """Unpickle a :class:`NativeGame`: the one of this process for that game and those options."""
    key = (type(reference), kernel_module, json.dumps(reference.options, sort_keys=True))
    game = _RESTORED.get(key)
    if game is None:
        module = importlib.import_module(kernel_module)
        game = NativeGame(reference, module.make_kernel(reference))
        _RESTORED[key] = game
    return game


def _restore_state(game: NativeGame, build: str, data: bytes) -> NativeState:
    """Unpickle a :class:`NativeState`: the kernel's bytes of the position, checked against the build."""
    if not isinstance(game, NativeGame) or not isinstance(data, bytes):
        raise InvalidStateError("<pickle>", "not a pickled native state")
    here = kernel_build(game.kernel)
    if build != here:
        raise InvalidStateError(
            "<pickle>", f"made by another build of the {game.name!r} kernel ({build}, this one is {here}); "
            f"a pickle is for processes of one build: store positions with state.to_json() instead")
    state = NativeState.create(game.kernel, game)
    state._load_buffer(data)  # checks the length
    return state
