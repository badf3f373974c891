"""ExpectimaxBot on pig: exact agreement with OpenSpiel's expectiminimax, and its own guarantees on small pig variants."""

from __future__ import annotations

import random
import re
from typing import List

import pytest

import aiplay
from aiplay.search import ExpectimaxBot

# Small pig variants: depth-4 trees stay in the low thousands of nodes.
PIG_CONFIGS = [{"winscore": 6, "diceoutcomes": 3}, {"winscore": 10, "diceoutcomes": 4}]
# Start positions: the initial state, then positions reached by seeded random play.
START_SEEDS = [None, 1, 3, 4]

_PIG_TEXT = re.compile(r"Scores: ([\d ]+), Turn total: (\d+)\nCurrent player: (\d+)")


def pig_value_for_player0(text: str, winscore: int) -> float:
    """(player 0's score + its turn total - player 1's score [- theirs]) / winscore, from the state text.

    Both engines print the same text (OpenSpiel's format), so the same
    function evaluates an aiplay state and a pyspiel state.
    """
    match = _PIG_TEXT.search(text)
    assert match, text
    scores = [int(s) for s in match.group(1).split()]
    turn_total, turn_player = int(match.group(2)), int(match.group(3))
    lead = scores[0] - scores[1] + (turn_total if turn_player == 0 else -turn_total)
    return lead / winscore


def aiplay_evaluate(winscore: int):
    def evaluate(state) -> List[float]:
        v = pig_value_for_player0(str(state), winscore)
        return [v, -v]
    return evaluate


def play_random(state, seed, plies: int, pyspiel_state=None) -> List[int]:
    """Play ``plies`` seeded random actions (decisions and chance), then chance until a decision.

    Mirrors every action on ``pyspiel_state`` when given. Returns the actions.
    """
    rng = random.Random(seed)
    actions = []

    def step(action):
        state.apply_action(action)
        if pyspiel_state is not None:
            pyspiel_state.apply_action(action)
        actions.append(action)

    for _ in range(plies):
        if state.is_terminal():
            break
        step(aiplay.sample_chance_outcome(state, rng) if state.is_chance_node()
             else rng.choice(state.legal_actions()))
    while state.is_chance_node():
        step(aiplay.sample_chance_outcome(state, rng))
    return actions


def start_state(config, seed, pyspiel_game=None):
    game = aiplay.load("pig", backend="reference", **config)
    state = game.new_initial_state()
    theirs = pyspiel_game.new_initial_state() if pyspiel_game is not None else None
    if seed is not None:
        play_random(state, seed, plies=6 + 2 * seed, pyspiel_state=theirs)
    assert not state.is_terminal() and not state.is_chance_node()
    return state, theirs


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", START_SEEDS)
@pytest.mark.parametrize("config", PIG_CONFIGS, ids=lambda c: f"w{c['winscore']}d{c['diceoutcomes']}")
def test_matches_openspiel_expectiminimax(config, seed, depth):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.minimax import expectiminimax

    winscore = config["winscore"]
    game = pyspiel.load_game("pig", dict(config))
    ours, theirs = start_state(config, seed, game)
    assert str(ours).strip() == str(theirs).strip()
    player = ours.current_player()
    assert theirs.current_player() == player

    def value_function(pyspiel_state) -> float:
        v = pig_value_for_player0(str(pyspiel_state), winscore)
        return v if player == 0 else -v

    expected_value, expected_action = expectiminimax(theirs, depth, value_function, player)
    analysis = ExpectimaxBot(depth=depth, evaluate=aiplay_evaluate(winscore)).analyse(ours)

    assert analysis.player == player
    assert analysis.action == expected_action
    # Same tree, same float operations in the same order: equal, not just close.
    assert analysis.value == expected_value
    assert analysis.counters["completed_depth"] == depth
    # Every root action's value is OpenSpiel's value of that child one ply shallower.
    for stat in analysis.stats:
        child = theirs.clone()
        child.apply_action(stat.action)
        child_value, _ = expectiminimax(child, depth - 1, value_function, player)
        assert stat.value == child_value, stat
    assert analysis.principal_variation[0] == analysis.action


def _pig_positions():
    for config in PIG_CONFIGS:
        for seed in START_SEEDS:
            yield config, start_state(config, seed)[0]


def _comparable(analysis):
    data = analysis.to_dict()
    data["counters"] = {k: v for k, v in data["counters"].items()
                        if k in ("completed_depth", "max_depth")}
    return data


@pytest.mark.parametrize("depth", [2, 5])
def test_transposition_table_never_changes_the_answer(depth):
    hits = 0
    for config, state in _pig_positions():
        evaluate = aiplay_evaluate(config["winscore"])
        with_tt = ExpectimaxBot(depth=depth, evaluate=evaluate).analyse(state)
        without = ExpectimaxBot(depth=depth, evaluate=evaluate, use_tt=False).analyse(state)
        assert _comparable(with_tt) == _comparable(without)
        assert without.counters["tt_hits"] == 0
        hits += with_tt.counters["tt_hits"]
        # Hits cut whole subtrees, so the table never visits more states.
        assert with_tt.counters["nodes"] <= without.counters["nodes"]
    assert hits > 0  # pig has transpositions (roll 2 then 3 = roll 3 then 2): the table is used


@pytest.mark.parametrize("depth", [1, 3, 4])
def test_paranoid_equals_maxn_on_two_player_zero_sum(depth):
    for config, state in _pig_positions():
        evaluate = aiplay_evaluate(config["winscore"])
        maxn = ExpectimaxBot(depth=depth, evaluate=evaluate).analyse(state)
        paranoid = ExpectimaxBot(depth=depth, evaluate=evaluate, paranoid=True).analyse(state)
        assert _comparable(maxn) == _comparable(paranoid)


def test_three_player_pig_search_runs_and_is_legal():
    game = aiplay.load("pig", backend="reference", players=3, winscore=8, diceoutcomes=3)
    state = game.new_initial_state()
    play_random(state, 7, plies=9)
    for paranoid in (False, True):
        analysis = ExpectimaxBot(depth=3, paranoid=paranoid).analyse(state)
        assert analysis.action in state.legal_actions()
        assert [s.action for s in analysis.stats] == state.legal_actions()
        assert analysis.counters["completed_depth"] == 3


def test_three_player_rolls_for_the_likely_win():
    # Player 0 has 7 of 8: any roll but a 1 reaches 8, where stop is forced
    # and wins (+1); a 1 passes the turn (value 0 at the depth limit with a
    # neutral evaluate). Stopping banks nothing and passes the turn (0).
    game = aiplay.load("pig", backend="reference", players=3, winscore=8, diceoutcomes=3)
    state = game.state_from_dict({"scores": [7, 0, 0], "turn_total": 0, "turn_player": 0,
                                  "rolling": False, "total_moves": 4})
    for paranoid in (False, True):
        analysis = ExpectimaxBot(depth=2, paranoid=paranoid, evaluate=lambda s: [0.0] * 3).analyse(state)
        roll, stop = analysis.stats_for(0), analysis.stats_for(1)
        assert analysis.action == 0
        assert roll.value == pytest.approx(2 / 3)
        assert stop.value == 0.0


def test_same_seed_same_move_and_deterministic():
    config, state = list(_pig_positions())[5]
    evaluate = aiplay_evaluate(config["winscore"])
    first = ExpectimaxBot(depth=4, evaluate=evaluate, seed=3).analyse(state)
    second = ExpectimaxBot(depth=4, evaluate=evaluate, seed=3).analyse(state)
    other_seed = ExpectimaxBot(depth=4, evaluate=evaluate, seed=99).analyse(state)
    assert _comparable(first) == _comparable(second) == _comparable(other_seed)
    assert first.counters["nodes"] == second.counters["nodes"]


def test_state_is_not_mutated():
    for _, state in _pig_positions():
        before = state.to_json()
        ExpectimaxBot(depth=3).choose(state)
        assert state.to_json() == before


def test_iterative_deepening_nodes_budget_answers_from_last_completed_depth():
    config, state = list(_pig_positions())[2]
    evaluate = aiplay_evaluate(config["winscore"])
    budgeted = ExpectimaxBot(nodes=3000, evaluate=evaluate).analyse(state)
    done = budgeted.counters["completed_depth"]
    assert 1 <= done < 20  # the budget, not the depth, stopped it
    fixed = ExpectimaxBot(depth=done, evaluate=evaluate).analyse(state)
    assert budgeted.action == fixed.action
    assert budgeted.value == fixed.value
    assert [s.value for s in budgeted.stats] == [s.value for s in fixed.stats]
    # The abandoned iteration stops close to the budget (one node past it at most).
    assert budgeted.counters["nodes"] <= 3001


def test_depth_one_completes_even_with_a_tiny_budget():
    _, state = list(_pig_positions())[0]
    analysis = ExpectimaxBot(nodes=1).analyse(state)
    assert analysis.counters["completed_depth"] == 1
    assert analysis.action in state.legal_actions()


def test_seconds_budget_stops_in_time():
    _, state = list(_pig_positions())[1]
    analysis = ExpectimaxBot(seconds=0.2).analyse(state)
    assert analysis.counters["seconds"] < 1.5
    assert analysis.counters["completed_depth"] >= 1


def test_exact_subtree_stops_deepening_and_is_reused():
    # With horizon=3 every line ends after 3 decisions: depth 3 already solves
    # the game, so deeper iterations are skipped.
    game = aiplay.load("pig", backend="reference", winscore=10, diceoutcomes=3, horizon=3)
    state = game.new_initial_state()
    solved = ExpectimaxBot(depth=10).analyse(state)
    assert solved.counters["completed_depth"] == 3
    assert solved.value == ExpectimaxBot(depth=3, use_tt=False).analyse(state).value


def test_chance_nodes_do_not_use_depth():
    # An independent two-ply expectimax by hand, from the initial state of
    # pig (w6, d3) where player 0 is to move: depth counts the two decisions
    # only, the die roll between them is free.
    winscore = 6
    evaluate = aiplay_evaluate(winscore)
    state = aiplay.load("pig", backend="reference", winscore=winscore, diceoutcomes=3).new_initial_state()

    def after(s, *actions):
        s = s.clone()
        for a in actions:
            s.apply_action(a)
        return s

    def best_for(player, s):  # one decision, then the depth limit
        return max(evaluate(after(s, a))[player] for a in s.legal_actions())

    roll = after(state, 0)
    expected_roll = 0.0
    for outcome, prob in roll.chance_outcomes():
        child = after(roll, outcome)
        mover = child.current_player()
        values = [evaluate(after(child, a)) for a in child.legal_actions()]
        chosen = max(values, key=lambda v: v[mover])  # each player maximizes its own value
        expected_roll += prob * chosen[0]
    stop = after(state, 1)
    opponent_values = [evaluate(after(stop, a)) for a in stop.legal_actions()]
    expected_stop = max(opponent_values, key=lambda v: v[1])[0]

    analysis = ExpectimaxBot(depth=2, evaluate=evaluate).analyse(state)
    assert analysis.stats_for(0).value == pytest.approx(expected_roll)
    assert analysis.stats_for(1).value == pytest.approx(expected_stop)
    # At depth 1 the chance node after a roll is itself the depth-limit leaf.
    shallow = ExpectimaxBot(depth=1, evaluate=evaluate).analyse(state)
    assert shallow.stats_for(0).value == evaluate(roll)[0]
    assert best_for(0, state) == max(evaluate(after(state, a))[0] for a in (0, 1))


def test_evaluate_with_wrong_length_raises():
    _, state = list(_pig_positions())[0]
    with pytest.raises(ValueError, match="one per player"):
        ExpectimaxBot(depth=2, evaluate=lambda s: [0.0]).choose(state)


def test_terminal_and_chance_states_raise():
    game = aiplay.load("pig", backend="reference", winscore=6, diceoutcomes=3)
    state = game.new_initial_state()
    state.apply_action(0)  # roll: a chance node
    with pytest.raises(ValueError, match="chance"):
        ExpectimaxBot(depth=2).choose(state)
    over = game.state_from_dict({"scores": [6, 0], "turn_total": 0, "turn_player": 1,
                                 "rolling": False, "total_moves": 3})
    assert over.is_terminal()
    with pytest.raises(ValueError, match="terminal"):
        ExpectimaxBot(depth=2).analyse(over)


# -- runs of chance nodes -----------------------------------------------------


