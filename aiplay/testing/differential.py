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
from typing import Any, Callable, List, Optional

from aiplay.game import CHANCE, TERMINAL, Game, State, sample_chance_outcome
from aiplay.registry import load
from aiplay.testing.simulate import random_walk


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
    for seat in range(reference.game.num_players):  # as each seat's search scores a cut playout
        _check_same(step, seed, history, f"heuristic values for seat {seat}", reference.heuristic_values_for(seat),
                    native.heuristic_values_for(seat))
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


# -- hidden information: info_hash and determinize (the checks of tests/test_differential.py, which a
#    game's own tests may run on more option sets) ---------------------------------------------------

# Playouts for the info-key check: every state is loaded through the reference engine
# once per seat, so games are played until about 4,000 states (at least 8 games, at
# most 150): long games (Area 51: ~1,000 states each) play few, short ones many.
INFO_STATES, INFO_MIN_GAMES, INFO_MAX_GAMES = 4_000, 8, 150


def native_random_states(game: Game, games: int, seed: int = 0, until_states: Optional[int] = None,
                         min_games: int = 1) -> List[State]:
    """Every state met along seeded random playouts (clones): ``games`` games, or fewer once
    ``until_states`` states are met and ``min_games`` games played."""
    states: List[State] = []
    for g in range(games):
        if until_states is not None and g >= min_games and len(states) >= until_states:
            break
        rng = random.Random(seed * 100_003 + g)
        states.extend(state.clone() for state in _random_walk(game.new_initial_state(), rng))
    return states


def hides_something(state: State, player: int) -> bool:
    """True when ``player`` sees less than some other seat: another seat's entry (``seats[q]``)
    as ``player`` sees it differs from that seat's own view of it, or a shared field differs.

    Views are compared without ``observer`` and the engine part ``internal`` (which repeats the
    readable fields in the engine's arrays); in a perfect-information game nothing differs.
    """
    mine = state.view(player)
    for q in range(state.game.num_players):
        if q == player:
            continue
        theirs = state.view(q)
        if mine["seats"][q] != theirs["seats"][q]:
            return True
        if any(mine[k] != theirs[k] for k in mine if k not in ("observer", "internal", "seats")):
            return True
    return False


def check_info_keys(name: str, options: dict) -> None:
    """Native ``information_state_key`` partitions states exactly as the reference engine's
    information state strings do, for every seat, along seeded random playouts."""
    from collections import Counter, defaultdict

    game = load(name, backend="native", **options)
    states = native_random_states(game, INFO_MAX_GAMES, until_states=INFO_STATES, min_games=INFO_MIN_GAMES)
    for player in range(game.num_players):
        keys_of = defaultdict(set)     # reference string -> native keys
        strings_of = defaultdict(set)  # native key -> reference strings
        for state in states:
            text = _reference(state).information_state_string(player)
            key = state.information_state_key(player)
            keys_of[text].add(key)
            strings_of[key].add(text)
        # Equal keys always mean equal reference information states.
        assert all(len(texts) == 1 for texts in strings_of.values()), f"player {player}: a key mixes strings"
        assert all(len(keys) == 1 for keys in keys_of.values()), f"player {player}: a string has two keys"
        if not game.perfect_information:
            # The check means something: many states share an information set.
            shared = Counter(_reference(state).information_state_string(player) for state in states)
            assert sum(1 for c in shared.values() if c > 1) >= 5


def check_determinize(name: str, options: dict) -> None:
    """Native ``determinize(p)`` keeps seat p's information state, gives positions both engines load,
    leaves the original alone, and varies the hidden part in most positions that hide something."""

    game = load(name, backend="native", **options)
    states = native_random_states(game, 40, seed=1)
    states = states[::max(1, len(states) // 150)]  # long games are thinned out
    hiding = varied = 0
    for i, state in enumerate(states):
        before = state.to_json()
        for player in range(game.num_players):
            key = state.information_state_key(player)
            text = state.information_state_string(player)
            samples = set()
            for seed in range(12):
                sample = state.determinize(player, random.Random(i * 1000 + player * 100 + seed))
                assert sample.information_state_key(player) == key
                assert sample.information_state_string(player) == text
                assert sample.current_player() == state.current_player()
                # The observer's own moves are known to it; at a deal the cards left
                # may differ, and another seat's moves depend on its redealt hand.
                if player == state.current_player():
                    assert sample.legal_actions() == state.legal_actions()
                # A consistent position: the reference engine accepts it, and its
                # native reload has the same bytes (derived fields were redone).
                loaded = game.state_from_json(sample.to_json())
                assert loaded.state_key() == sample.state_key()
                samples.add(sample.to_json())
            if not state.is_terminal() and hides_something(state, player):
                hiding += 1
                varied += len(samples) > 1
            elif game.perfect_information:
                assert samples == {before}
        assert state.to_json() == before, "determinize changed the original"
    # Knowledge can pin every hidden card in some positions (Area 51's exact
    # records: a deck forced to its bound), so variation is asked of most, not all.
    if not game.perfect_information:
        assert hiding > 0 and varied >= 0.75 * hiding, f"determinize varied in {varied} of {hiding} positions"


def _reference(state: State) -> Any:
    """The reference engine's copy of a native state (its ``to_reference()``)."""
    return getattr(state, "to_reference")()


def _random_walk(state: State, rng: random.Random):
    return random_walk(state, rng)
