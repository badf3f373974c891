"""What the search-speed work (issue 26) must leave as it was: names, pickles, the release build."""

import pickle
import random

import pytest

import aiplay
from aiplay.search import ISMCTSBot, MCTSBot
from aiplay.search.base import name_line
from aiplay.testing.choose import pick_variant
from aiplay.testing.simulate import skip_chance

mcts_ext = pytest.importorskip("aiplay._ext.mcts")


#: A short game with hidden information (for ISMCTS) and one with perfect information and chance (for MCTS).
HIDDEN, HIDDEN_OPTIONS = pick_variant(perfect_information=False, short=True, native=True)
CHANCE, CHANCE_OPTIONS = pick_variant(perfect_information=True, chance=True, short=True, native=True)


def _hidden_root():
    return skip_chance(aiplay.load(HIDDEN, **HIDDEN_OPTIONS).new_initial_state(), random.Random(4))


def test_principal_variation_names_read_the_searched_position_even_after_the_state_moves_on():
    state = _hidden_root()
    analysis = ISMCTSBot(iterations=300, seed=2).analyse(state)
    expected = name_line(state.clone(), analysis.principal_variation)
    # Named on first use, from a private copy: never from the caller's object, which may move on.
    assert analysis.__dict__["_pv_state"] is not state
    state.apply_action(analysis.action)  # the caller plays on before asking for the names
    assert analysis.principal_variation_names == expected
    assert "_pv_state" not in analysis.__dict__  # the copy is dropped once the names exist
    assert len(expected) == len(analysis.principal_variation) >= 1


def test_a_pickled_analysis_keeps_its_names_and_carries_no_state():
    analysis = MCTSBot(iterations=200, seed=3).analyse(skip_chance(aiplay.load(CHANCE, **CHANCE_OPTIONS).new_initial_state(),
                                                                   random.Random(1)))
    copy = pickle.loads(pickle.dumps(analysis))
    assert copy == analysis
    assert copy.principal_variation_names == analysis.principal_variation_names
    assert "_pv_state" not in copy.__dict__


def test_one_worker_reports_what_the_merge_of_one_worker_reported():
    state = _hidden_root()
    analysis = ISMCTSBot(iterations=500, seed=5, workers=1).analyse(state)
    counters = analysis.counters
    assert counters["workers"] == 1 and counters["backend"] == "native"
    assert counters["iterations"] == 500
    assert sum(s.visits for s in analysis.stats) == 500  # every iteration leaves the root by one action
    for key in ("nodes", "tree_nodes", "max_depth", "reused_tree", "reused_visits", "seconds"):
        assert key in counters


def test_the_release_build_carries_no_profile_timers():
    assert mcts_ext.PROFILE_BUILD is False
    analysis = ISMCTSBot(iterations=50, seed=1).analyse(_hidden_root())
    assert "profile" not in analysis.counters
