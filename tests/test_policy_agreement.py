"""Every kernel's playout policy is its game's Python ``heuristic_policy``, decision for decision.

A kernel with ``has_policy`` ports the game's ``heuristic_policy`` to C
(``policy_action``). Both draw their randomness the same way, so with the
same random stream they must choose the same action: the Python policy runs
with ``aiplay.testing.kernel_rng.KernelRandom(seed)``, which reproduces the kernel's
``Rng``, and the kernel with ``kernel.policy_choice(state, seed)``.

Positions come from seeded games that mix uniformly random moves with the
kernel policy's own (so that late-game positions occur), spread over the
game's registered option sets; each position is checked with a few seeds.
The issue asks for >= 10,000 positions per game: every run checks that many
(about 30-45 s a game on a loaded 2-core machine).

Differences that cannot be removed would be listed in :data:`EXPLAINED`
with their reason; there are none today: every policy agrees exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, List, Sequence, Tuple

import pytest

import aiplay
from aiplay.testing.kernel_rng import KernelRandom
from aiplay.registry import game_entries, has_native

#: Decision positions per game (the issue's 10,000, in every run).
POSITIONS = 10_000
#: Seeds tried at every position: fixed ones and one drawn per position.
FIXED_SEEDS = (0, 1)
#: Share of moves played by the kernel policy in successive games (random, mixed, policy play).
POLICY_SHARES = (0.0, 0.5, 1.0)
#: Share of the decisions of those games that are checked: positions spread over whole
#: games (late-game ones included) and over several games even for long games.
SAMPLE_RATE = 0.1


@dataclass(frozen=True)
class Explained:
    """A class of known, explained disagreements: ``applies(state, seed, python, kernel)`` and why."""

    name: str
    reason: str
    applies: Callable[[Any, int, int, int], bool]


#: Every class of disagreement that cannot be removed. Empty: the ports are exact.
EXPLAINED: Sequence[Explained] = ()


def policy_games() -> List[str]:
    """The registered games whose built kernel has a playout policy of its own."""
    names = []
    for entry in game_entries(include_hidden=True):
        if entry.reference.heuristic_policy is None or not has_native(entry.name):
            continue
        options = entry.contract_options[0] if entry.contract_options else {}
        game: Any = aiplay.load(entry.name, backend="native", **options)
        if game.kernel.has_policy:
            names.append(entry.name)
    return names


GAMES = policy_games()


def decision_positions(game: Any, count: int, rng: random.Random, games: List[int]) -> Iterator[Any]:
    """``count`` decision states sampled from seeded games (the same object moves on: clone
    to keep one); ``games[0]`` counts the games started."""
    found = 0
    while found < count:
        share = POLICY_SHARES[games[0] % len(POLICY_SHARES)]
        games[0] += 1

        def choose(state: Any, share: float = share) -> int:
            if rng.random() < share:
                return state.kernel.policy_choice(state, rng.getrandbits(64))
            legal = state.legal_actions()
            return legal[rng.randrange(len(legal))]

        for state in aiplay.random_walk(game.new_initial_state(), rng, choose=choose):
            if state.is_terminal() or state.is_chance_node() or rng.random() >= SAMPLE_RATE:
                continue
            yield state
            found += 1
            if found >= count:
                return


@dataclass
class Comparison:
    """The outcome of comparing a Python policy with a kernel's over many positions."""

    games: int = 0
    positions: int = 0
    checks: int = 0
    engine_mismatches: int = 0   # the Python policy chose differently on the native state
    differences: List[Tuple[str, int, int, int]] = field(default_factory=list)  # (JSON, seed, python, kernel)
    explained: int = 0


def compare_policies(game: Any, python_policy: Callable[[Any, random.Random], int], count: int,
                     seed: int) -> Comparison:
    """Run ``python_policy`` (on the reference and the native state) and the kernel's policy at
    ``count`` positions of ``game`` (a native game), with the same seeds."""
    rng = random.Random(seed)
    result = Comparison()
    games = [0]
    for state in decision_positions(game, count, rng, games):
        reference = state.to_reference()
        result.positions += 1
        for policy_seed in FIXED_SEEDS + (rng.getrandbits(64),):
            expected = python_policy(reference, KernelRandom(policy_seed))
            if python_policy(state, KernelRandom(policy_seed)) != expected:
                result.engine_mismatches += 1
            actual = state.kernel.policy_choice(state, policy_seed)
            result.checks += 1
            if actual == expected:
                continue
            if any(e.applies(state, policy_seed, expected, actual) for e in EXPLAINED):
                result.explained += 1
            else:
                result.differences.append((state.to_json(), policy_seed, expected, actual))
    result.games = games[0]
    return result


def _options_sets(name: str) -> List[dict]:
    entry = next(e for e in game_entries(include_hidden=True) if e.name == name)
    return [dict(o) for o in entry.contract_options] or [{}]


def test_some_game_has_a_kernel_policy():
    # The comparison below must not be vacuous.
    assert GAMES, "no registered game has a kernel playout policy"


@pytest.mark.parametrize("name", GAMES)
def test_kernel_policy_agrees_with_the_python_policy(name):
    option_sets = _options_sets(name)
    per_set = -(-POSITIONS // len(option_sets))
    total = 0
    for index, options in enumerate(option_sets):
        game = aiplay.load(name, backend="native", **options)
        result = compare_policies(game, game.heuristic_policy, per_set, seed=1000 + index)
        assert result.positions == per_set
        assert result.games >= len(POLICY_SHARES), "random, mixed and policy games all contribute"
        assert result.engine_mismatches == 0, (
            f"{name} {options}: the Python policy chose differently on the native state "
            f"{result.engine_mismatches} times (it must read only the public API)")
        examples = "\n".join(f"seed {s}: python {p}, kernel {k}\n{js}" for js, s, p, k in result.differences[:3])
        assert not result.differences, (
            f"{name} {options}: {len(result.differences)} of {result.checks} policy choices differ "
            f"and fall in no explained class:\n{examples}")
        total += result.positions
    assert total >= POSITIONS


@pytest.mark.parametrize("name", GAMES)
def test_the_comparison_catches_a_different_policy(name):
    # A policy that is not the kernel's is caught; so is the right policy on a shifted
    # stream, whenever the game's policy draws random numbers at all.
    options = _options_sets(name)[0]
    game = aiplay.load(name, backend="native", **options)
    drawing = [0]

    def last_action(state, rng):
        return state.legal_actions()[-1]

    def counted(state, rng):
        before = rng.getstate()
        action = game.heuristic_policy(state, rng)
        drawing[0] += rng.getstate() != before
        return action

    def one_draw_ahead(state, rng):
        rng.random()
        return game.heuristic_policy(state, rng)

    assert compare_policies(game, last_action, 300, seed=5).differences
    assert not compare_policies(game, counted, 300, seed=5).differences
    if drawing[0]:
        assert compare_policies(game, one_draw_ahead, 300, seed=5).differences
