"""The Area 1851 game object: options, metadata and loading (the top of the game's modules)."""

from __future__ import annotations

from typing import Any, Mapping

from aiplay.game import Game, int_option

from . import actions as A
from .heuristic import policy
from .rules import Area1851State
from .serialize import load_state


class Area1851Game(Game):
    """Area 1851 for 2 to 5 players (reference engine; spec area1851.md)."""

    name = "area1851"
    title = "Area 1851 (tinkering inventors), 2-5 players"
    option_spec = {
        "players": int_option(4, 2, 5, "number of players"),
        "block": int_option(4, 1, 6, "random events in each block of the event deck (spec 'Set-up' 3)"),
    }
    heuristic_policy = staticmethod(policy)

    def _check_options(self) -> None:
        self.players: int = self._options["players"]
        self.block: int = self._options["block"]

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    @property
    def max_chance_outcomes(self) -> int:
        return A.NUM_CHANCE

    @property
    def min_utility(self) -> float:
        return -1.0

    @property
    def max_utility(self) -> float:
        return 1.0

    @property
    def zero_sum(self) -> bool:
        return True

    @property
    def num_turns(self) -> int:
        """Turns in a game without Missing Time: the deck position of The End, plus one."""
        return 3 * self.block + 3

    def new_initial_state(self) -> Area1851State:
        return Area1851State(self)

    def state_from_dict(self, data: Mapping[str, Any]) -> Area1851State:
        return load_state(self, data)
