"""The Area 51 heuristic: public information only, and clearly better than random play."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.search import HeuristicBot, RandomBot


def play(game, bots, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state


@pytest.mark.parametrize("players,games,needed", [(2, 30, 24), (4, 24, 15)])
def test_heuristic_beats_random(players, games, needed):
    game = aiplay.load("area51", players=players)
    wins = 0
    for seed in range(games):
        seat = seed % players
        bots = [RandomBot(seed=seed * 10 + p) for p in range(players)]
        bots[seat] = HeuristicBot(seed=seed)
        wins += play(game, bots, seed).returns()[seat] > 0
    # A random seat wins 1/players of the games.
    assert wins >= needed


def test_policy_and_evaluation_ignore_hidden_cards():
    game = aiplay.load("area51", players=3)
    policy = game.heuristic_policy
    rng = random.Random(4)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        me = state.current_player()
        world = state.determinize(me, random.Random(checked))
        assert policy(world, random.Random(1)) == policy(state, random.Random(1))
        other = state.determinize((me + 1) % 3, random.Random(checked))
        assert other.heuristic_values() == state.heuristic_values()
        values = state.heuristic_values()
        assert all(-1.0 <= v <= 1.0 for v in values)
        checked += 1
        state.apply_action(policy(state, rng))
    assert checked > 100


def test_heuristic_loads_its_own_bunker_first_then_the_cheapest_for_rivals():
    from area51_helpers import play as play_names
    from test_area51_rules import example_position

    state = example_position()
    play_names(state, "pick up", "pick up R1 hangar 1")
    policy = state.game.heuristic_policy
    choice = state.action_to_string(policy(state, random.Random(0)))
    assert choice == "store blue 2 in R2/5"  # white's own bunker, the higher value
    play_names(state, choice)
    # Then a rival must get something: the cheapest artifact goes.
    assert " 1 in R1/" in state.action_to_string(policy(state, random.Random(0)))
