"""The native backend: a game whose states live in a compiled kernel.

:class:`NativeGame` wraps a reference game and the kernel built for the same
options. It shares the reference game's name, options and validation: a JSON
position is checked by the reference engine, then copied into C memory.
"""

from __future__ import annotations

from typing import Any, Mapping

from aiplay._ext.kernel import Kernel, NativeState
from aiplay.game import Game, State

# NativeState is a Cython class and cannot inherit from the State ABC; register
# it so that isinstance(state, aiplay.State) holds for both engines.
State.register(NativeState)


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

    def __getattr__(self, name: str) -> Any:
        # Anything else a game defines (Sunken City's ``seats``, say) is the
        # reference game's: renderers and tools written against the reference
        # engine then work on native states too.
        if name == "reference" or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.reference, name)

    @property
    def num_players(self) -> int:
        return self.reference.num_players

    @property
    def num_distinct_actions(self) -> int:
        return self.reference.num_distinct_actions

    @property
    def max_chance_outcomes(self) -> int:
        return self.reference.max_chance_outcomes

    @property
    def min_utility(self) -> float:
        return self.reference.min_utility

    @property
    def max_utility(self) -> float:
        return self.reference.max_utility

    @property
    def perfect_information(self) -> bool:
        return self.reference.perfect_information

    @property
    def zero_sum(self) -> bool:
        return self.reference.zero_sum

    @property
    def constant_sum(self) -> bool:
        return self.reference.constant_sum

    def new_initial_state(self) -> NativeState:
        return NativeState.create(self.kernel, self)

    def state_from_dict(self, data: Mapping[str, Any]) -> NativeState:
        checked = self.reference.state_from_dict(data)  # raises InvalidStateError
        return self.from_reference(checked)

    def from_reference(self, state: State) -> NativeState:
        """The native copy of a reference-engine state of the same game."""
        return NativeState.from_dict(self.kernel, self, state.to_dict())
