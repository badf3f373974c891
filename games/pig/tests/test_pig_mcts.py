"""MCTSBot on pig: reproducibility, budgets, the analysis, and that it actually plays well (exact pig positions)."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.search import MCTSBot, RandomBot

ROLL, STOP = 0, 1


def pig(**options):
    return aiplay.load("pig", backend="reference", **options)


def pig_position(game, scores, turn_total=0, turn_player=0, total_moves=10):
    return game.state_from_dict({"scores": list(scores), "turn_total": turn_total,
                                 "turn_player": turn_player, "rolling": False,
                                 "total_moves": total_moves})


def play(game, bots, seed):
    """One game with seeded chance; returns the returns."""
    state = aiplay.play_out(game.new_initial_state(), random.Random(seed),
                            choose=lambda s: bots[s.current_player()].choose(s))
    return state.returns()


def without_time(analysis):
    data = analysis.to_dict()
    del data["counters"]["seconds"]  # wall-clock: the only non-reproducible field
    return data


def test_same_seed_same_move_and_same_analysis():
    game = pig(winscore=10)
    states = [game.new_initial_state(), pig_position(game, [4, 7], 3, 1)]
    a, b = MCTSBot(iterations=300, seed=42), MCTSBot(iterations=300, seed=42)
    for state in states:  # a sequence of calls replays too, not just the first
        first, second = a.analyse(state), b.analyse(state)
        assert without_time(first) == without_time(second)
    # choose() is analyse().action, with the same random stream.
    assert MCTSBot(iterations=300, seed=42).choose(states[0]) == MCTSBot(
        iterations=300, seed=42).analyse(states[0]).action
    # A different seed explores differently (the statistics differ).
    other = MCTSBot(iterations=300, seed=43).analyse(states[0])
    assert without_time(other) != without_time(MCTSBot(iterations=300, seed=42).analyse(states[0]))


def test_seed_may_be_a_shared_generator():
    game = pig(winscore=10)
    state = game.new_initial_state()
    x = MCTSBot(iterations=50, seed=random.Random(5)).analyse(state)
    y = MCTSBot(iterations=50, seed=random.Random(5)).analyse(state)
    assert without_time(x) == without_time(y)


def test_state_is_not_mutated():
    game = pig(winscore=10, diceoutcomes=4)
    state = pig_position(game, [3, 5], 2, 0)
    before = state.to_json()
    MCTSBot(iterations=200, seed=1).analyse(state)
    assert state.to_json() == before


def test_iterations_budget_is_exact():
    state = pig(winscore=10).new_initial_state()
    for budget in (1, 7, 250):
        analysis = MCTSBot(iterations=budget, seed=0).analyse(state)
        assert analysis.counters["iterations"] == budget
        assert sum(s.visits for s in analysis.stats) == budget


def test_nodes_budget_stops_at_the_first_iteration_past_it():
    state = pig(winscore=10).new_initial_state()
    budget = 3000
    analysis = MCTSBot(nodes=budget, seed=0).analyse(state)
    done = analysis.counters["iterations"]
    assert analysis.counters["nodes"] >= budget
    # The same seed replays the same iterations: one fewer stays under the
    # budget, so the search stopped at the first iteration that reached it.
    shorter = MCTSBot(iterations=done - 1, seed=0).analyse(state)
    assert shorter.counters["nodes"] < budget
    same = MCTSBot(iterations=done, seed=0).analyse(state)
    assert without_time(same) == without_time(analysis)


def test_seconds_budget_stops_in_time():
    state = pig(winscore=20).new_initial_state()
    analysis = MCTSBot(seconds=0.1, seed=0).analyse(state)
    assert 0.1 <= analysis.counters["seconds"] < 1.0
    assert analysis.counters["iterations"] > 1


def test_default_budget_is_1000_iterations():
    state = pig(winscore=6, diceoutcomes=3).new_initial_state()
    assert MCTSBot(seed=0).analyse(state).counters["iterations"] == 1000


def test_analysis_shape():
    game = pig(winscore=10)
    state = game.new_initial_state()
    analysis = MCTSBot(iterations=200, seed=3).analyse(state)
    assert analysis.bot == "mcts" and analysis.player == 0
    assert [s.action for s in analysis.stats] == state.legal_actions()
    best = max(analysis.stats, key=lambda s: s.visits)
    assert analysis.action == best.action and analysis.value == best.value
    assert all(s.availability is None for s in analysis.stats)
    assert analysis.principal_variation[0] == analysis.action
    assert analysis.counters["tree_nodes"] <= 201 and analysis.counters["max_depth"] >= 1
    assert analysis.counters["nodes"] > 200  # every iteration steps into at least one state
    # The PV is a playable line: its actions replay legally from the state.
    replay = state.clone()
    for action in analysis.principal_variation:
        replay.apply_action(action)


def test_terminal_and_chance_states_raise():
    game = pig(winscore=6, diceoutcomes=3)
    rolling = game.new_initial_state()
    rolling.apply_action(ROLL)
    with pytest.raises(ValueError, match="chance"):
        MCTSBot(iterations=10).choose(rolling)
    over = pig_position(game, [0, 6], 0, 0)
    assert over.is_terminal()
    with pytest.raises(ValueError, match="terminal"):
        MCTSBot(iterations=10).choose(over)


# The "obvious" positions below were checked against the exact optimal
# win probabilities of two-player pig, computed by value iteration over
# (own score, opponent score, turn total):
#   winscore 20, d3, (0, 0, 15): stop wins 0.917, roll 0.783;
#   winscore 10, d3, (0, 9, 8):  roll wins 0.694, stop 0.250.
# (Near the goal rolling is usually right in pig, because reaching winscore
# forces a winning stop; hence a large winscore for the stop case.)

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_banks_a_big_turn_total(seed):
    # 15 in the pot, 5 still needed, the opponent at 0: rolling risks
    # losing 15 on a 1 (one chance in three) for at most 3 more points.
    game = pig(winscore=20, diceoutcomes=3)
    state = pig_position(game, [0, 0], 15, 0)
    analysis = MCTSBot(iterations=500, seed=seed).analyse(state)
    assert analysis.action == STOP, analysis.stats
    assert analysis.value > analysis.stats_for(ROLL).value


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rolls_when_the_opponent_is_about_to_win(seed):
    # Player 0 has a turn total of 8 of 10, the opponent 9 banked: stopping
    # hands the opponent a 2/3 chance to win at once; rolling wins 2/3 now.
    game = pig(winscore=10, diceoutcomes=3)
    state = pig_position(game, [0, 9], 8, 0)
    analysis = MCTSBot(iterations=300, seed=seed).analyse(state)
    assert analysis.action == ROLL, analysis.stats
    assert analysis.value > analysis.stats_for(STOP).value


def test_three_player_search_runs():
    game = pig(players=3, winscore=8, diceoutcomes=3)
    state = pig_position(game, [7, 0, 0], 0, 0)  # roll: 2/3 chance of winning at once
    analysis = MCTSBot(iterations=400, seed=0).analyse(state)
    assert analysis.action == ROLL
    assert analysis.counters["iterations"] == 400


def test_beats_random_on_small_pig():
    game = pig(winscore=10)
    games, wins = 40, 0
    for i in range(games):
        seat = i % 2  # seats swapped: first-player advantage cancels out
        bots = [None, None]
        bots[seat] = MCTSBot(iterations=100, seed=i)
        bots[1 - seat] = RandomBot(seed=10_000 + i)
        wins += play(game, bots, seed=i)[seat] > 0
    assert wins / games > 0.7, wins
