"""The native search path must agree with the reference path of the same bot.

Expectimax is deterministic: values must be equal. MCTS and ISMCTS sample,
and the two paths draw different random numbers, so their root visit
distributions are compared within a stated tolerance (TOLERANCE, in visit
share per action, plus three standard errors of the seed-to-seed spread),
averaged over twelve seeds.
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

import aiplay
from aiplay import InvalidOptionError
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot
from aiplay.testing.choose import games_with, pick_variant, variants_with

#: Chosen by property: a short perfect-information game with chance and a kernel, for two (PERFECT) and
#: for three (PERFECT3), and the short hidden-information listed games with a kernel (HIDDEN_GAMES; HIDDEN
#: is the largest of them).
PERFECT, PERFECT_OPTIONS = pick_variant(perfect_information=True, chance=True, native=True, short=True, players=2)
PERFECT3, PERFECT3_OPTIONS = pick_variant(perfect_information=True, chance=True, native=True, short=True, players=3)
HIDDEN_GAMES = games_with(perfect_information=False, native=True, short=True, listed=True)
HIDDEN = games_with(perfect_information=False, native=True, short=True, listed=True, prefer="large")[0]

#: Allowed difference in an action's mean share of root visits between paths,
#: on top of three standard errors of the measured seed-to-seed spread.
TOLERANCE = 0.05


def positions(name, count, seed, **options):
    """Pairs (reference state, native state) of the same decision positions from a random game."""
    ref_game = aiplay.load(name, backend="reference", **options)
    native_game = aiplay.load(name, backend="native", **options)
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        for state in aiplay.random_walk(ref_game.new_initial_state(), rng):
            if len(pairs) == count:
                break
            if not (state.is_chance_node() or state.is_terminal()):
                pairs.append((state.clone(), native_game.from_reference(state)))
    return pairs


def visit_shares(analysis):
    total = sum(s.visits for s in analysis.stats)
    return {s.action: s.visits / total for s in analysis.stats}


def assert_same_visit_distribution(make_bot, ref, native, seeds=range(12)):
    """Mean root visit shares over seeds agree within TOLERANCE plus three standard errors.

    Visit shares vary a lot from seed to seed where two actions are close in
    value, so the bound widens with the measured spread.
    """
    for action in ref.legal_actions():
        ref_runs = [visit_shares(make_bot(seed).analyse(ref))[action] for seed in seeds]
        native_runs = [visit_shares(make_bot(seed).analyse(native))[action] for seed in seeds]
        n = len(ref_runs)
        diff = abs(statistics.mean(ref_runs) - statistics.mean(native_runs))
        se = math.sqrt((statistics.variance(ref_runs) + statistics.variance(native_runs)) / n)
        assert diff <= TOLERANCE + 3 * se, (ref.to_dict(), action, ref_runs, native_runs)


@pytest.mark.parametrize("pruning", ["none", "star1", "star2"])
@pytest.mark.parametrize("depth", [1, 3, 5])
def test_expectimax_paths_give_equal_values(pruning, depth):
    for ref, native in positions(PERFECT, 12, seed=depth, **PERFECT_OPTIONS):
        expected = ExpectimaxBot(depth=depth).analyse(ref)
        got = ExpectimaxBot(depth=depth, pruning=pruning).analyse(native)
        assert got.action == expected.action
        assert got.value == pytest.approx(expected.value, abs=1e-12)
        assert [s.action for s in got.stats] == [s.action for s in expected.stats]
        for mine, theirs in zip(got.stats, expected.stats):
            assert mine.value == pytest.approx(theirs.value, abs=1e-12)
        assert got.counters["completed_depth"] == expected.counters["completed_depth"]


def test_expectimax_paths_agree_on_three_player_maxn_and_paranoid():
    for ref, native in positions(PERFECT3, 8, seed=5, **PERFECT3_OPTIONS):
        for paranoid in (False, True):
            expected = ExpectimaxBot(depth=3, paranoid=paranoid).analyse(ref)
            got = ExpectimaxBot(depth=3, paranoid=paranoid).analyse(native)
            assert got.action == expected.action
            assert got.value == pytest.approx(expected.value, abs=1e-12)


def test_expectimax_pruning_saves_nodes_without_changing_values():
    ref, native = positions(PERFECT, 3, seed=11, **PERFECT_OPTIONS)[2]
    plain = ExpectimaxBot(depth=6, pruning="none", use_tt=False).analyse(native)
    star2 = ExpectimaxBot(depth=6, pruning="star2").analyse(native)
    assert star2.value == pytest.approx(plain.value, abs=1e-12)
    assert star2.counters["nodes"] < plain.counters["nodes"]


def test_expectimax_native_budget_keeps_depth_one():
    _, native = positions(PERFECT, 1, seed=2, **PERFECT_OPTIONS)[0]
    analysis = ExpectimaxBot(depth=30, nodes=5).analyse(native)
    assert analysis.counters["completed_depth"] >= 1
    assert analysis.action in native.legal_actions()


def test_mcts_paths_agree_in_distribution():
    for ref, native in positions(PERFECT, 4, seed=3, **PERFECT_OPTIONS):
        assert_same_visit_distribution(lambda seed: MCTSBot(iterations=1000, seed=seed), ref, native)


@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_ismcts_paths_agree_in_distribution(name):
    for ref, native in positions(name, 5, seed=8):
        assert_same_visit_distribution(lambda seed: ISMCTSBot(iterations=1000, seed=seed), ref, native)


def test_native_analysis_has_the_reference_structure():
    ref, native = positions(HIDDEN, 1, seed=1)[0]
    for bot_class in (ISMCTSBot,):
        a = bot_class(iterations=300, seed=1).analyse(ref)
        b = bot_class(iterations=300, seed=1).analyse(native)
        assert set(a.to_dict()) == set(b.to_dict())
        assert set(a.counters) <= set(b.counters)
        assert [s.action for s in a.stats] == [s.action for s in b.stats]
        assert b.principal_variation[0] == b.action
        assert sum(s.visits for s in b.stats) == 300


@pytest.mark.parametrize("bot_class", [MCTSBot, ISMCTSBot])
def test_native_same_seed_same_analysis(bot_class):
    _, native = positions(PERFECT, 3, seed=4, **PERFECT_OPTIONS)[2]
    first = bot_class(iterations=800, seed=9).analyse(native).to_dict()
    second = bot_class(iterations=800, seed=9).analyse(native).to_dict()
    for d in (first, second):
        d["counters"].pop("seconds")
    assert first == second


def test_backend_native_rejects_a_reference_state():
    state = aiplay.load(PERFECT, backend="reference").new_initial_state()
    with pytest.raises(InvalidOptionError, match="backend='native'"):
        MCTSBot(iterations=10, backend="native").analyse(state)


def test_workers_merge_root_statistics():
    _, native = positions(HIDDEN, 2, seed=6)[1]
    analysis = ISMCTSBot(iterations=2001, seed=1, workers=2).analyse(native)
    assert analysis.counters["workers"] == 2
    assert analysis.counters["iterations"] == 2001
    assert sum(s.visits for s in analysis.stats) == 2001


def test_memory_cap_bounds_the_tree_and_iterations_go_on():
    _, native = positions(PERFECT, 1, seed=1, **PERFECT_OPTIONS)[0]
    analysis = MCTSBot(iterations=5000, max_nodes=200, seed=1).analyse(native)
    assert analysis.counters["tree_nodes"] <= 200
    assert analysis.counters["iterations"] == 5000


def test_nodes_budget_stops_the_native_search():
    _, native = positions(PERFECT, 1, seed=1, **PERFECT_OPTIONS)[0]
    analysis = MCTSBot(nodes=3000, seed=1).analyse(native)
    assert 3000 <= analysis.counters["nodes"] < 3000 + 2000  # one iteration may overshoot
    assert analysis.counters["iterations"] < 3000


def _so(**kw):
    return ISMCTSBot(**kw)


def _mo(**kw):
    return ISMCTSBot(variant="mo", **kw)


def _mcts(**kw):
    return MCTSBot(**kw)


@pytest.mark.parametrize("name,make", [(HIDDEN, _mo)] + [(name, _so) for name in HIDDEN_GAMES] + [(PERFECT, _mcts)])
@pytest.mark.parametrize("reuse", [False, True])
def test_choose_plays_what_analyse_reports(name, make, reuse):
    """choose() takes the native searches' own pick (no report built): the same move as the
    analysis of a twin bot, move after move, so the trees and generators stay in step too."""
    chooser, analyser = (make(iterations=60, seed=7, reuse_tree=reuse) for _ in range(2))
    rng = random.Random(5)
    moves = 0
    for _, state in positions(name, 8, seed=3):
        while not state.is_terminal() and moves < 60:
            if state.is_chance_node():
                state.apply_action(aiplay.sample_chance_outcome(state, rng))
                continue
            action = chooser.choose(state)
            assert action == analyser.analyse(state).action
            state.apply_action(action)
            moves += 1
    assert moves >= 8
