"""Rollout options of MCTS/ISMCTS and expectimax's leaf playouts, on both engines."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.registry import has_native
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot, make_bot
from aiplay.search.rollout import Rollout, playout
from aiplay.testing.choose import pick_game, pick_variant

#: Chosen by property: a long perfect-information game whose kernel plays its policy (BOARD), a
#: perfect-information game with a Python policy its kernel lacks (PY_POLICY), a game with no
#: policy at all (NO_POLICY), and a long hidden-information game for four whose kernel plays its policy.
BOARD, BOARD_OPTIONS = pick_variant(perfect_information=True, kernel_policy=True, players=2, short=False)
PY_POLICY = pick_game(perfect_information=True, heuristic=True, kernel_policy=False, native=True)
NO_POLICY = pick_game(heuristic=False, perfect_information=False, short=True)
HIDDEN4, HIDDEN4_OPTIONS = pick_variant(perfect_information=False, kernel_policy=True, players=4, short=False)

BACKENDS = ["reference"] + (["native"] if has_native(BOARD) else [])


def dealt(name):
    """The first decision of ``name`` (reference engine), its chance outcomes drawn."""
    return aiplay.skip_chance(aiplay.load(name, backend="reference").new_initial_state(), random.Random(0))


def midgame(name: str, moves: int, seed: int, backend: str = "auto", **options):
    game = aiplay.load(name, backend=backend, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    aiplay.skip_chance(aiplay.play_out(state, rng, max_steps=moves), rng)
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize("kwargs, names", [
    ({"rollout": "greedy"}, "rollout='greedy'"),
    ({"rollout_epsilon": 1.5}, "rollout_epsilon=1.5"),
    ({"rollout_epsilon": "x"}, "rollout_epsilon='x'"),
    ({"rollout_cutoff": -2}, "rollout_cutoff=-2"),
    ({"rollout_cutoff": 2.5}, "rollout_cutoff=2.5"),
])
@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_bad_rollout_options_are_named(kind, kwargs, names):
    with pytest.raises(InvalidOptionError, match=names.replace("(", r"\(")):
        make_bot(kind, **kwargs)


def test_policy_rollout_needs_a_policy():
    unplayable = dealt(NO_POLICY)
    with pytest.raises(InvalidOptionError, match="has none"):
        ISMCTSBot(iterations=10, rollout="policy", seed=1).choose(unplayable)
    if has_native(PY_POLICY):
        # This game has a Python policy but its kernel has no native port.
        state = aiplay.load(PY_POLICY, backend="native").new_initial_state()
        with pytest.raises(InvalidOptionError, match="kernel has none"):
            MCTSBot(iterations=10, rollout="policy", seed=1).choose(state)
        bot = MCTSBot(iterations=30, rollout="policy", seed=1, backend="reference")
        assert bot.choose(state) in state.legal_actions()


@pytest.mark.parametrize("backend", BACKENDS)
def test_cutoff_zero_scores_the_new_leaf_with_the_static_evaluation(backend):
    state = midgame(BOARD, 40, seed=3, backend=backend, **BOARD_OPTIONS)
    player = state.current_player()
    analysis = MCTSBot(iterations=1, rollout_cutoff=0, seed=5).analyse(state)
    (tried,) = [s for s in analysis.stats if s.visits]
    child = state.clone()
    child.apply_action(tried.action)
    assert not child.is_chance_node()  # (a chance child would end the iteration before its outcome)
    assert tried.value == pytest.approx(child.heuristic_values()[player], abs=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_policy_rollouts_are_seeded_and_differ_from_random_ones(backend):
    state = midgame(BOARD, 30, seed=8, backend=backend, **BOARD_OPTIONS)
    iterations = 200 if backend == "native" else 12
    first = MCTSBot(iterations=iterations, rollout="policy", seed=9).analyse(state)
    again = MCTSBot(iterations=iterations, rollout="policy", seed=9).analyse(state)
    plain = MCTSBot(iterations=iterations, seed=9).analyse(state)
    assert [(s.action, s.visits, s.value) for s in first.stats] == [(s.action, s.visits, s.value) for s in again.stats]
    assert [(s.visits, s.value) for s in first.stats] != [(s.visits, s.value) for s in plain.stats]
    # A policy playout is longer than the tree part alone: nodes count every move made.
    assert first.counters["nodes"] > iterations


def test_reference_playout_follows_the_policy_and_stops_at_the_cutoff():
    state = midgame(BOARD, 20, seed=2, backend="reference", **BOARD_OPTIONS)
    world = state.clone()
    values, steps = playout(world, random.Random(1), Rollout("policy", 0.0, 7))
    assert steps == 7
    assert values == world.heuristic_values()
    # Replaying the policy by hand reaches the same position.
    replay = state.clone()
    rng = random.Random(1)
    aiplay.play_out(replay, rng, choose=lambda s: s.game.heuristic_policy(s, rng), max_steps=7)
    assert replay.to_json() == world.to_json()


@pytest.mark.skipif(not has_native(HIDDEN4), reason="native extension not built")
def test_ismcts_policy_rollouts_on_a_hidden_information_game_run_natively_and_reproducibly():
    state = midgame(HIDDEN4, 25, seed=4, backend="native", **HIDDEN4_OPTIONS)
    one = ISMCTSBot(iterations=300, rollout="policy", rollout_cutoff=40, seed=2).analyse(state)
    two = ISMCTSBot(iterations=300, rollout="policy", rollout_cutoff=40, seed=2).analyse(state)
    assert one.action == two.action and one.counters["iterations"] == 300
    assert [s.visits for s in one.stats] == [s.visits for s in two.stats]
    # Every playout is cut at 40 moves at most: nodes <= 1 + iterations * (tree depth + 40).
    assert one.counters["nodes"] <= 1 + 300 * (one.counters["max_depth"] + 40)


@pytest.mark.parametrize("backend", BACKENDS)
def test_expectimax_leaf_playout_is_deterministic_and_used(backend):
    state = midgame(BOARD, 30, seed=6, backend=backend, **BOARD_OPTIONS)
    with_playout = ExpectimaxBot(depth=1, leaf_playout=15).analyse(state)
    again = ExpectimaxBot(depth=1, leaf_playout=15).analyse(state)
    static = ExpectimaxBot(depth=1).analyse(state)
    assert [s.value for s in with_playout.stats] == [s.value for s in again.stats]
    assert [s.value for s in with_playout.stats] != [s.value for s in static.stats]
    for s in with_playout.stats:
        assert 0.0 <= s.value <= 1.0


def test_expectimax_leaf_playout_options_are_checked():
    with pytest.raises(InvalidOptionError, match="leaf_playout"):
        ExpectimaxBot(leaf_playout=0)
    with pytest.raises(InvalidOptionError, match="exclude each other"):
        ExpectimaxBot(leaf_playout=3, evaluate=lambda s: [0.0, 0.0])
    unplayable = dealt(NO_POLICY)
    with pytest.raises(InvalidOptionError, match="has none"):
        ExpectimaxBot(depth=1, leaf_playout=3, allow_hidden_information=True).choose(unplayable)
