"""ISMCTSBot: reproducibility, budgets, analyses, on games chosen by property.

The games run on their reference engines: the numbers asserted here (seeded
analyses) then do not move when a native kernel changes; tests/test_search_api.py
runs every bot on the default engines. Exact play on given positions is tested in
the games' folders (``games/<game>/tests/test_<game>_ismcts.py``).
"""

from __future__ import annotations

import math
import random

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import ISMCTSBot
from aiplay.testing.choose import pick_variant

#: Short two-player hidden-information games: the largest (its trees do not complete within a few
#: thousand nodes) and the first in name order (a second game beside it).
HIDDEN, HIDDEN_OPTIONS = pick_variant(perfect_information=False, short=True, players=2, prefer="large")
OTHER, OTHER_OPTIONS = pick_variant(perfect_information=False, short=True, players=2)
#: A short perfect-information game.
PERFECT, PERFECT_OPTIONS = pick_variant(perfect_information=True, short=True)


def after_deal(seed, name=HIDDEN, options=HIDDEN_OPTIONS, moves=0):
    """A state at the first decision, chance drawn from ``seed``, then ``moves`` seeded random decisions."""
    state = aiplay.load(name, backend="reference", **options).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(aiplay.sample_chance_outcome(state, rng))
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(aiplay.sample_chance_outcome(state, rng))
    assert not state.is_terminal()
    return state


def without_time(analysis):
    data = analysis.to_dict()
    del data["counters"]["seconds"]  # wall-clock: the only non-reproducible field
    return data


def test_same_seed_same_move_and_same_analysis():
    states = [after_deal(s) for s in range(3)] + [after_deal(0, OTHER, OTHER_OPTIONS)]
    a, b = ISMCTSBot(iterations=200, seed=7), ISMCTSBot(iterations=200, seed=7)
    for state in states:  # a sequence of calls replays as well
        assert without_time(a.analyse(state)) == without_time(b.analyse(state))
    fresh = ISMCTSBot(iterations=200, seed=7).analyse(states[0])
    assert ISMCTSBot(iterations=200, seed=7).choose(states[0]) == fresh.action
    assert without_time(ISMCTSBot(iterations=200, seed=8).analyse(states[0])) != without_time(fresh)


def test_determinizations_do_not_depend_on_rollouts(monkeypatch):
    # Two searches with different exploration constants walk different
    # paths and draw different numbers of rollout randoms; with the same seed
    # they must still sample exactly the same worlds, in the same order.
    state = after_deal(11)
    state_class = type(state)
    original = state_class.determinize
    worlds = []

    def recording(self, observer, rng):
        world = original(self, observer, rng)
        worlds[-1].append(world.to_json())
        return world

    monkeypatch.setattr(state_class, "determinize", recording)
    analyses = []
    for uct_c in (0.3, 8.0):
        worlds.append([])
        analyses.append(ISMCTSBot(iterations=120, seed=5, uct_c=uct_c).analyse(state))
    assert analyses[0].stats != analyses[1].stats  # the searches did differ
    assert len(worlds[0]) == len(worlds[1]) == 120
    assert worlds[0] == worlds[1]
    assert len(set(worlds[0])) > 1  # and the worlds are really sampled


def test_state_is_not_mutated():
    for state in (after_deal(4), after_deal(1, OTHER, OTHER_OPTIONS, moves=1)):
        before = state.to_json()
        ISMCTSBot(iterations=150, seed=1).analyse(state)
        assert state.to_json() == before


def test_iterations_budget_and_availability_counts():
    state = after_deal(2)
    for budget in (1, 9, 300):
        analysis = ISMCTSBot(iterations=budget, seed=0).analyse(state)
        assert analysis.counters["iterations"] == budget
        assert sum(s.visits for s in analysis.stats) == budget
        for s in analysis.stats:
            # A child is available whenever its parent is left, once it exists.
            assert s.visits <= s.availability <= budget
        # The first expanded root action was available in every iteration.
        assert max(s.availability for s in analysis.stats) == budget


def test_nodes_budget_stops_at_the_first_iteration_past_it():
    state = after_deal(3)
    analysis = ISMCTSBot(nodes=2000, seed=0).analyse(state)
    done = analysis.counters["iterations"]
    assert analysis.counters["nodes"] >= 2000
    assert ISMCTSBot(iterations=done - 1, seed=0).analyse(state).counters["nodes"] < 2000
    assert without_time(ISMCTSBot(iterations=done, seed=0).analyse(state)) == without_time(analysis)


def test_seconds_budget_stops_in_time():
    analysis = ISMCTSBot(seconds=0.1, seed=0).analyse(after_deal(3))
    assert 0.1 <= analysis.counters["seconds"] < 1.0
    assert analysis.counters["iterations"] > 1


def test_analysis_shape():
    state = after_deal(6)
    analysis = ISMCTSBot(iterations=250, seed=2).analyse(state)
    assert analysis.bot == "ismcts" and analysis.player == state.current_player()
    assert [s.action for s in analysis.stats] == state.legal_actions()
    best = max(analysis.stats, key=lambda s: s.visits)
    assert analysis.action == best.action and analysis.value == best.value
    assert analysis.principal_variation[0] == analysis.action
    replay = state.clone()  # the PV is decisions only, legal from the state
    for action in analysis.principal_variation:
        assert not replay.is_chance_node()
        replay.apply_action(action)
    assert analysis.counters["max_depth"] >= 1


@pytest.mark.parametrize("kwargs, name", [
    ({"iterations": 0}, "iterations"), ({"iterations": 2.0}, "iterations"),
    ({"iterations": False}, "iterations"), ({"seconds": 0.0}, "seconds"),
    ({"seconds": math.nan}, "seconds"), ({"nodes": -1}, "nodes"),
    ({"uct_c": -1}, "uct_c"), ({"uct_c": None}, "uct_c"), ({"seed": "7"}, "seed"),
])
def test_bad_options_raise(kwargs, name):
    with pytest.raises(InvalidOptionError, match=name):
        ISMCTSBot(**kwargs)


def test_runs_on_a_perfect_information_game():
    state = aiplay.load(PERFECT, backend="reference", **PERFECT_OPTIONS).new_initial_state()
    while state.is_chance_node():
        state.apply_action(aiplay.sample_chance_outcome(state, random.Random(0)))
    analysis = ISMCTSBot(iterations=200, seed=0).analyse(state)
    assert analysis.action in state.legal_actions()
    assert analysis.counters["iterations"] == 200
