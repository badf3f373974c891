"""ISMCTSBot: reproducibility, budgets, no peeking at hidden cards, and sound poker play.

The poker games run on their reference engines: the numbers asserted here
(seeded analyses, the win margin) then do not move when a native kernel
changes; tests/test_search_api.py runs every bot on the default engines.
"""

from __future__ import annotations

import math
import random

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import ISMCTSBot, RandomBot

# Kuhn poker (OpenSpiel's ids): cards 0=J, 1=Q, 2=K; actions 0=pass/fold, 1=bet/call.
JACK, QUEEN, KING = 0, 1, 2
PASS, BET = 0, 1


def kuhn_state(*actions):
    state = aiplay.load("kuhn_poker", backend="reference").new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def leduc_after_deal(seed):
    """A leduc_poker state at player 0's first decision, private cards dealt from ``seed``."""
    state = aiplay.load("leduc_poker", backend="reference").new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(aiplay.sample_chance_outcome(state, rng))
    return state


def play(game, bots, seed):
    """One game with seeded chance; returns the returns."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(aiplay.sample_chance_outcome(state, rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state.returns()


def without_time(analysis):
    data = analysis.to_dict()
    del data["counters"]["seconds"]  # wall-clock: the only non-reproducible field
    return data


def test_same_seed_same_move_and_same_analysis():
    states = [leduc_after_deal(s) for s in range(3)] + [kuhn_state(KING, JACK)]
    a, b = ISMCTSBot(iterations=200, seed=7), ISMCTSBot(iterations=200, seed=7)
    for state in states:  # a sequence of calls replays as well
        assert without_time(a.analyse(state)) == without_time(b.analyse(state))
    fresh = ISMCTSBot(iterations=200, seed=7).analyse(states[0])
    assert ISMCTSBot(iterations=200, seed=7).choose(states[0]) == fresh.action
    assert without_time(ISMCTSBot(iterations=200, seed=8).analyse(states[0])) != without_time(fresh)


def test_search_sees_only_the_information_state():
    # Same seed, same information for player 0, different hidden card of
    # player 1: the search must be identical, or it peeked.
    for p0_card in (JACK, QUEEN, KING):
        analyses = []
        for p1_card in {JACK, QUEEN, KING} - {p0_card}:
            state = kuhn_state(p0_card, p1_card, PASS, BET)
            analyses.append(without_time(ISMCTSBot(iterations=150, seed=3).analyse(state)))
        assert analyses[0] == analyses[1]


def test_determinizations_do_not_depend_on_rollouts(monkeypatch):
    # Two searches with different exploration constants walk different
    # paths and draw different numbers of rollout randoms; with the same seed
    # they must still sample exactly the same worlds, in the same order.
    state = leduc_after_deal(11)
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
    for state in (leduc_after_deal(4), kuhn_state(QUEEN, KING, PASS, BET)):
        before = state.to_json()
        ISMCTSBot(iterations=150, seed=1).analyse(state)
        assert state.to_json() == before


def test_iterations_budget_and_availability_counts():
    state = leduc_after_deal(2)
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
    state = leduc_after_deal(3)
    analysis = ISMCTSBot(nodes=2000, seed=0).analyse(state)
    done = analysis.counters["iterations"]
    assert analysis.counters["nodes"] >= 2000
    assert ISMCTSBot(iterations=done - 1, seed=0).analyse(state).counters["nodes"] < 2000
    assert without_time(ISMCTSBot(iterations=done, seed=0).analyse(state)) == without_time(analysis)


def test_nodes_budget_ends_once_the_tree_is_complete():
    # From Kuhn's last decision the tree has 3 nodes; the budget counts
    # states stepped into, so it still ends.
    analysis = ISMCTSBot(nodes=3000, seed=0).analyse(kuhn_state(KING, JACK, PASS, BET))
    assert analysis.counters["tree_nodes"] == 3
    assert 3000 <= analysis.counters["nodes"] < 3005


def test_seconds_budget_stops_in_time():
    analysis = ISMCTSBot(seconds=0.1, seed=0).analyse(leduc_after_deal(3))
    assert 0.1 <= analysis.counters["seconds"] < 1.0
    assert analysis.counters["iterations"] > 1


def test_analysis_shape():
    state = leduc_after_deal(6)
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


def test_terminal_and_chance_states_raise():
    with pytest.raises(ValueError, match="chance"):
        ISMCTSBot(iterations=10).choose(kuhn_state())  # the deal
    over = kuhn_state(KING, JACK, BET, PASS)  # player 1 folds
    assert over.is_terminal()
    with pytest.raises(ValueError, match="terminal"):
        ISMCTSBot(iterations=10).analyse(over)


def test_runs_on_a_perfect_information_game():
    state = aiplay.load("pig", backend="reference", winscore=10, diceoutcomes=3).new_initial_state()
    analysis = ISMCTSBot(iterations=200, seed=0).analyse(state)
    assert analysis.action in state.legal_actions()
    assert analysis.counters["iterations"] == 200


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("p1_card", [JACK, QUEEN])
def test_kuhn_king_facing_a_bet_calls(seed, p1_card):
    # K after check-bet: calling always wins the showdown (+2), folding loses the ante.
    state = kuhn_state(KING, p1_card, PASS, BET)
    analysis = ISMCTSBot(iterations=200, seed=seed).analyse(state)
    assert analysis.action == BET, analysis.stats
    assert analysis.value == 2.0  # every sampled world is a won showdown


@pytest.mark.parametrize("seed", range(5))
def test_kuhn_jack_facing_a_bet_folds(seed):
    # J after check-bet: calling always loses 2, folding loses 1.
    state = kuhn_state(JACK, KING, PASS, BET)
    analysis = ISMCTSBot(iterations=200, seed=seed).analyse(state)
    assert analysis.action == PASS, analysis.stats
    assert analysis.value == -1.0


def test_beats_random_at_leduc_poker():
    game = aiplay.load("leduc_poker", backend="reference")
    games, total = 200, 0.0
    for i in range(games):
        seat = i % 2  # seats swapped: position effects cancel out
        bots = [None, None]
        bots[seat] = ISMCTSBot(iterations=200, seed=i)
        bots[1 - seat] = RandomBot(seed=50_000 + i)
        total += play(game, bots, seed=i)[seat]
    # Measured: about +1.5 chips a game (standard error about 0.3).
    assert total / games > 0.5, total / games
