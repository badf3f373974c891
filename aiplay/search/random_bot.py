"""The uniform random player: the baseline every searcher must beat."""

from __future__ import annotations

from typing import Optional

from aiplay.game import State
from aiplay.rng import SeedLike
from aiplay.search.base import ActionStats, Analysis, Bot, Budget


class RandomBot(Bot):
    """Plays a uniformly random legal action, drawn from its seeded generator.

    It searches nothing: its :class:`Analysis` has ``value=None``, one
    :class:`ActionStats` per legal action with every statistic ``None``, the
    principal variation ``[action]`` and zero counters.
    """

    kind = "random"

    def __init__(self, *, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 nodes: Optional[int] = None, seed: SeedLike = None):
        """``seed``: an int, a :class:`random.Random` (shared) or ``None`` (not reproducible).

        The budget options are accepted (and validated) so that every bot
        takes the same common options, e.g. from a command line; a random
        move spends nothing, so any budget is respected.
        """
        super().__init__(seed)
        Budget(iterations=iterations, seconds=seconds, nodes=nodes)  # validation only

    def _analyse(self, state: State) -> Analysis:
        """Pick a uniformly random legal action of the player to move."""
        player = self._root_player(state)
        legal = state.legal_actions()
        # One draw per move (randrange, not a branch), so the bot's moves
        # depend only on its seed and the number of legal actions it saw.
        action = legal[self._rng.randrange(len(legal))]
        return Analysis(
            bot=self.kind, player=player, action=action, value=None,
            stats=[ActionStats(action=a) for a in legal],
            principal_variation=[action],
            counters={"iterations": None, "nodes": 0, "seconds": 0.0, "max_depth": 0},
        )

    def __repr__(self) -> str:
        return "RandomBot()"
