"""The differential harness: drive two engines of one game in lockstep.

The reference engine is the statement of the rules; a native kernel must match
it move for move. :func:`compare_engines` plays seeded games on both engines
with the same actions and the same chance outcomes, and at every step compares
the current player, the legal actions, the chance outcomes, the serialized
state, the static evaluation and the returns. Every game with a kernel reuses it (see ``tests/test_differential.py``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Callable, List, Optional

from aiplay.game import CHANCE, TERMINAL, Game, State, sample_chance_outcome


class EngineMismatch(AssertionError):
    """The two engines disagreed; the message gives the seed, the step and the moves so far."""


@dataclass
class DifferentialReport:
    """What a differential run covered."""

    games: int = 0
    steps: int = 0
    terminal_games: int = 0
    returns_seen: List[List[float]] = field(default_factory=list)


def _check_same(step: int, seed: int, history: List[int], what: str, ref: object, fast: object) -> None:
    if ref != fast:
        raise EngineMismatch(
            f"seed {seed}, step {step}: {what} differ\n  reference: {ref!r}\n  native:    {fast!r}\n"
            f"  moves so far: {history}")


def compare_states(reference: State, native: State, *, seed: int = -1, step: int = -1,
                   history: Optional[List[int]] = None) -> None:
    """Raise :class:`EngineMismatch` unless the two states agree on everything observable."""
    history = history if history is not None else []
    player = reference.current_player()
    _check_same(step, seed, history, "current player", player, native.current_player())
    _check_same(step, seed, history, "legal actions", reference.legal_actions(), native.legal_actions())
    ref_chance = reference.chance_outcomes()
    fast_chance = native.chance_outcomes()
    _check_same(step, seed, history, "chance outcome ids", [a for a, _ in ref_chance], [a for a, _ in fast_chance])
    for (a, p), (_, q) in zip(ref_chance, fast_chance):
        if not math.isclose(p, q, rel_tol=1e-12, abs_tol=1e-15):
            _check_same(step, seed, history, f"probability of outcome {a}", p, q)
    _check_same(step, seed, history, "serialized state", reference.to_json(), native.to_json())
    _check_same(step, seed, history, "heuristic values", reference.heuristic_values(), native.heuristic_values())
    ref_returns, fast_returns = reference.returns(), native.returns()
    if any(not math.isclose(x, y, abs_tol=1e-12) for x, y in zip(ref_returns, fast_returns)):
        _check_same(step, seed, history, "returns", ref_returns, fast_returns)


def compare_engines(reference_game: Game, native_game: Game, seeds: range, *,
                    max_steps: int = 100_000,
                    choose: Optional[Callable[[State, random.Random], int]] = None,
                    progress: Optional[Callable[[int], None]] = None) -> DifferentialReport:
    """Play one game per seed on both engines in lockstep and compare at every step.

    Decisions are uniform random from a ``random.Random(seed)`` unless
    ``choose(reference_state, rng)`` is given; chance outcomes are drawn with
    their exact probabilities. Returns a report; raises :class:`EngineMismatch`
    at the first disagreement.
    """
    if reference_game.name != native_game.name or reference_game.options != native_game.options:
        raise ValueError("the two engines must be of the same game with the same options")
    report = DifferentialReport()
    for seed in seeds:
        rng = random.Random(seed)
        ref = reference_game.new_initial_state()
        fast = native_game.new_initial_state()
        history: List[int] = []
        for step in range(max_steps):
            compare_states(ref, fast, seed=seed, step=step, history=history)
            player = ref.current_player()
            if player == TERMINAL:
                report.terminal_games += 1
                report.returns_seen.append(ref.returns())
                break
            if player == CHANCE:
                action = sample_chance_outcome(ref, rng)
            elif choose is not None:
                action = choose(ref, rng)
            else:
                legal = ref.legal_actions()
                action = legal[rng.randrange(len(legal))]
            ref.apply_action(action)
            fast.apply_action(action)
            history.append(action)
            report.steps += 1
        report.games += 1
        if progress is not None:
            progress(report.games)
    return report
