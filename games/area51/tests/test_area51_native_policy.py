"""The Area 51 kernel's native playout policy (``Area51Kernel.policy_action``)."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.game import sample_chance_outcome


def load(players):
    return aiplay.load("area51", backend="native", players=players)


def positions(players, games, seed):
    """Decision nodes reached by uniformly random play."""
    game = load(players)
    rng = random.Random(seed)
    for _ in range(games):
        for state in aiplay.random_walk(game.new_initial_state(), rng):
            if not state.is_chance_node() and not state.is_terminal():
                yield state


def test_kernel_declares_a_policy():
    assert load(4).new_initial_state().kernel.has_policy


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_policy_choice_is_legal_and_deterministic(players):
    checked = 0
    for i, state in enumerate(positions(players, 3, seed=players)):
        legal = state.legal_actions()
        a = state.kernel.policy_choice(state, i)
        assert a in legal
        assert state.kernel.policy_choice(state, i) == a
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("players", [3, 4])
def test_policy_reads_only_what_the_player_to_move_knows(players):
    # Resampling everything the acting seat cannot see never changes its choice.
    checked = 0
    for i, state in enumerate(positions(players, 2, seed=10 + players)):
        if i % 3:
            continue
        me = state.current_player()
        world = state.determinize(me, random.Random(i))
        assert world.kernel.policy_choice(world, i) == state.kernel.policy_choice(state, i)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [2, 4, 6])
def test_policy_playouts_terminate(players):
    state = load(players).new_initial_state()
    totals = state.kernel.playouts(state, 50, 7, policy=True)
    # Every game ends with returns summing to zero.
    assert len(totals) == players
    assert abs(sum(totals)) < 1e-6


def play_game(game, policy_seat, seed):
    """One game: ``policy_seat`` plays the native policy, the others uniformly at random."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        if policy_seat is None or state.current_player() == policy_seat:
            action = state.kernel.policy_choice(state, rng.getrandbits(63))
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        decisions += 1
    return state.returns(), decisions


@pytest.mark.parametrize("players,games,needed", [(2, 100, 85), (4, 100, 75), (6, 60, 40)])
def test_policy_beats_random(players, games, needed):
    # Measured: 100/100 (2 players), 99/100 (4), 60/60 (6). A random seat wins 1/players.
    game = load(players)
    wins = 0
    for seed in range(games):
        seat = seed % players
        returns, _ = play_game(game, seat, seed)
        wins += returns[seat] > 0
    assert wins >= needed


def test_policy_games_are_much_shorter_than_random_games():
    # Measured (4 players): about 350 decisions under the policy, 820 under random play.
    game = load(4)
    policy = [play_game(game, None, seed)[1] for seed in range(20)]
    rng = random.Random(0)
    random_lengths = []
    for seed in range(20):
        random_lengths.append(sum(not (s.is_chance_node() or s.is_terminal())
                                  for s in aiplay.random_walk(game.new_initial_state(), rng)))
    assert sum(policy) < 0.7 * sum(random_lengths)
