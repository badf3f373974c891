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

    def new_initial_state(self) -> NativeState:
        return NativeState.create(self.kernel, self)

    def state_from_dict(self, data: Mapping[str, Any]) -> NativeState:
        checked = self.reference.state_from_dict(data)  # raises InvalidStateError
        return self.from_reference(checked)

    def from_reference(self, state: State) -> NativeState:
        """The native copy of a reference-engine state of the same game."""
        return NativeState.from_dict(self.kernel, self, state.to_dict())
