"""The heuristic bot: each game's own hand-written policy, as a fast baseline opponent.

A game offers one by setting ``heuristic_policy`` on its :class:`~aiplay.game.Game`
class: a function ``policy(state, rng) -> action`` that reads the state through
the public API only (so it works on both engines) and draws any randomness
from ``rng``. The bot is the "easy" opponent of the CLI and the yardstick that
search bots must beat.
"""

from __future__ import annotations

from typing import Any, Optional

from aiplay.errors import InvalidOptionError
from aiplay.game import State
from aiplay.rng import SeedLike, branch
from aiplay.search.base import ActionStats, Analysis, Bot, Budget


class HeuristicBot(Bot):
    """Plays the game's ``heuristic_policy``; budgets are accepted and ignored (it does not search)."""

    kind = "heuristic"

    def __init__(self, *, iterations: Optional[int] = None, seconds: Optional[float] = None,
                 nodes: Optional[int] = None, seed: SeedLike = None, policy: Optional[str] = None):
        """``policy`` names an earlier policy the game keeps in ``heuristic_policies`` (e.g.
        ``"v1"``, the baseline of the strength ladder); None plays the current one."""
        super().__init__(seed)
        Budget(iterations=iterations, seconds=seconds, nodes=nodes)  # validated, then unused
        if policy is not None and not isinstance(policy, str):
            raise InvalidOptionError(f"heuristic policy must be a name such as 'v1', not {policy!r}")
        self.policy = policy

    def _policy(self, game: Any) -> Any:
        """The policy function this bot plays on ``game``."""
        if self.policy is None:
            policy = getattr(game, "heuristic_policy", None)
            if policy is None:
                raise InvalidOptionError(
                    f"game {game.name!r} has no heuristic policy; use another bot "
                    f"(random, mcts, ismcts, expectimax)")
            return policy
        variants = getattr(game, "heuristic_policies", None) or {}
        if self.policy not in variants:
            raise InvalidOptionError(
                f"game {game.name!r} has no heuristic policy {self.policy!r}; "
                f"its earlier policies are: {', '.join(sorted(variants)) or 'none'}")
        return variants[self.policy]

    def _analyse(self, state: State) -> Analysis:
        """The policy's action; ``stats`` list the legal actions without figures."""
        player = self._root_player(state)
        policy = self._policy(state.game)
        action = policy(state, branch(self._rng))
        legal = state.legal_actions()
        if action not in legal:
            raise RuntimeError(f"{state.game.name}'s heuristic policy chose {action}, not among {legal}")
        return Analysis(
            bot=self.kind, player=player, action=action, value=None,
            stats=[ActionStats(action=a) for a in legal], principal_variation=[action],
            counters={"iterations": None, "nodes": None, "seconds": 0.0, "max_depth": None},
        )
