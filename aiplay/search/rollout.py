"""How MCTS and ISMCTS finish an iteration: the rollout (simulation) step.

A :class:`Rollout` says which moves a playout makes and when it stops:

* ``kind="random"``: uniformly random legal moves (the textbook default);
* ``kind="policy"``: the game's own playout policy. On the reference engine
  that is the game's ``heuristic_policy`` (the same function the
  ``heuristic`` bot plays); on a native engine it is the kernel's
  ``policy_action``, a C port of the same decision rules (it may break ties
  differently, so the two backends are not move-for-move equal here);
* ``epsilon``: with ``kind="policy"``, the chance of a uniformly random move
  instead of the policy's, which keeps playouts diverse;
* ``cutoff``: stop after this many playout moves (chance outcomes included)
  and score the position with the game's static evaluation
  (``heuristic_values()``) instead of playing to the end. ``None`` plays to
  the end; ``0`` evaluates the leaf itself.

Why: in long board games a uniformly random playout says little about a
position (random Sunken City players rarely bring a treasure home), so a
guided or truncated playout is a much better value estimate per iteration.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

from aiplay.errors import InvalidOptionError
from aiplay.game import CHANCE, TERMINAL, State, sample_chance_outcome
from aiplay.limits import check_fraction

#: The rollout kinds.
ROLLOUT_KINDS = ("random", "policy")


@dataclass(frozen=True)
class Rollout:
    """A rollout configuration (see the module docstring); validated on construction."""

    kind: str = "random"
    epsilon: float = 0.0
    cutoff: Optional[int] = None

    def __post_init__(self) -> None:
        if self.kind not in ROLLOUT_KINDS:
            raise InvalidOptionError(
                f"rollout={self.kind!r} is invalid; it accepts one of: {', '.join(ROLLOUT_KINDS)}")
        check_fraction("rollout_epsilon", self.epsilon)
        cut = self.cutoff
        if cut is not None and (isinstance(cut, bool) or not isinstance(cut, int) or not 0 <= cut <= 2 ** 31 - 1):
            raise InvalidOptionError(
                f"rollout_cutoff={cut!r} is invalid; it accepts None (play to the end; "
                f"null in a bot spec such as ismcts(rollout_cutoff=null)) or an integer from 0 to 2**31-1")

    def check_game(self, state: State) -> None:
        """Raise :class:`InvalidOptionError` when the game cannot do this rollout."""
        if self.kind == "policy" and getattr(state.game, "heuristic_policy", None) is None:
            raise InvalidOptionError(
                f"rollout='policy' needs a playout policy, and {state.game.name!r} has none; use rollout='random'")

    def native_arguments(self, kernel: Any, game_name: str) -> Tuple[str, float, int]:
        """The (rollout, epsilon, cutoff) arguments of the native ``TreeSearch``."""
        if self.kind == "policy" and not kernel.has_policy:
            raise InvalidOptionError(
                f"rollout='policy' needs a playout policy, and the {game_name!r} kernel has none; "
                "use rollout='random' or backend='reference'")
        return self.kind, float(self.epsilon), -1 if self.cutoff is None else self.cutoff

    def __str__(self) -> str:
        parts = [self.kind]
        if self.kind == "policy" and self.epsilon:
            parts.append(f"epsilon={self.epsilon}")
        if self.cutoff is not None:
            parts.append(f"cutoff={self.cutoff}")
        return ", ".join(parts)


def playout(state: State, rng: random.Random, rollout: Rollout = Rollout(),
            searcher: Optional[int] = None) -> Tuple[List[float], int]:
    """Finish ``state`` as ``rollout`` says; return the values and the moves made.

    ``searcher``: the seat whose search plays it out; the cutoff's evaluation is then
    ``heuristic_values_for(searcher)`` (a game may score a position as that seat's
    role sees it), else ``heuristic_values()``.

    Mutates ``state`` (callers pass a scratch copy). Chance nodes are sampled
    with their exact probabilities. The values are the returns at a terminal
    state, else the static evaluation at the cutoff. The move count (chance
    outcomes included) feeds the ``nodes`` counter.
    """
    policy = state.game.heuristic_policy if rollout.kind == "policy" else None
    epsilon = rollout.epsilon
    cutoff = rollout.cutoff
    steps = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return state.returns(), steps
        if cutoff is not None and steps >= cutoff:
            if searcher is None:
                return state.heuristic_values(), steps
            return state.heuristic_values_for(searcher), steps
        if player == CHANCE:
            state.apply_action(sample_chance_outcome(state, rng))
        elif policy is not None and (epsilon <= 0.0 or rng.random() >= epsilon):
            state.apply_action(policy(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1


def random_playout(state: State, rng: random.Random) -> Tuple[List[float], int]:
    """Play ``state`` to the end with uniformly random moves (``playout`` with the default rollout)."""
    return playout(state, rng, Rollout())


__all__ = ["ROLLOUT_KINDS", "Rollout", "playout", "random_playout"]
