"""The native Sunken City playout policy (``SunkenCityKernel.policy_action``).

It is an exact C port of ``games/sunken_city/policy.py`` (tests/test_policy_agreement.py
compares them choice by choice); here it must always pick a legal action, be
deterministic for a given seed, finish its self-play games, and beat uniformly
random play by a wide margin.
"""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.game import sample_chance_outcome

NEPTUNE_STEP_BASE = 507

#: Player counts and both variants (see aiplay.testing.cases.CONTRACT_OPTIONS).
VARIANTS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 4, "short": True},
    {"players": 2, "no_neptune_chips": True},
    {"players": 3, "short": True, "no_neptune_chips": True},
]


def _ids(options):
    return ",".join(f"{k}={v}" for k, v in options.items())


def _walk(game, rng, policy_share):
    """Yield every decision state of one game; each move is the policy's with probability ``policy_share``."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        yield state
        if rng.random() < policy_share:
            action = state.kernel.policy_choice(state, rng.getrandbits(64))
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)


def test_the_kernel_declares_a_policy():
    state = aiplay.load("sunken_city", players=2).new_initial_state()
    assert state.kernel.has_policy


@pytest.mark.parametrize("options", VARIANTS, ids=_ids)
def test_policy_choice_is_always_legal(options):
    game = aiplay.load("sunken_city", **options)
    rng = random.Random(7)
    phases = set()
    checked = 0
    for game_index in range(45):
        # Random, mixed and pure policy play reach different positions.
        share = (0.0, 0.5, 1.0)[game_index % 3]
        for state in _walk(game, rng, share):
            legal = state.legal_actions()
            data = state.kernel.to_dict(state)
            phases.add(data["phase"])
            for seed in (0, 1 + game_index, rng.getrandbits(64)):
                action = state.kernel.policy_choice(state, seed)
                assert action in legal, (data, action, legal)
            checked += 1
    assert checked > 3000
    assert {"card", "choose", "raise", "move", "neptune"} <= phases


@pytest.mark.parametrize("options", VARIANTS[:3], ids=_ids)
def test_policy_never_sinks_its_own_adventurer(options):
    game = aiplay.load("sunken_city", **options)
    rng = random.Random(3)
    steps = 0
    for _ in range(15):
        for state in _walk(game, rng, 0.7):
            data = state.kernel.to_dict(state)
            if data["phase"] != "neptune":
                continue
            action = state.kernel.policy_choice(state, rng.getrandbits(64))
            if action >= NEPTUNE_STEP_BASE:
                steps += 1
                # Leaving a piece sinks it: never the one the mover stands on.
                assert data["adventurers"][data["turn"]] != data["neptune"], data
    assert steps > 0


def test_policy_is_deterministic_for_a_seed():
    game = aiplay.load("sunken_city", players=3)
    rng = random.Random(11)
    for state in _walk(game, rng, 0.5):
        first = state.kernel.policy_choice(state, 12345)
        assert all(state.kernel.policy_choice(state, 12345) == first for _ in range(3))
    start = game.new_initial_state()
    assert start.kernel.playouts(start, 20, 99, policy=True) == start.kernel.playouts(start, 20, 99, policy=True)


@pytest.mark.parametrize("options", VARIANTS, ids=_ids)
def test_policy_self_play_terminates(options):
    game = aiplay.load("sunken_city", **options)
    rng = random.Random(5)
    starts = [game.new_initial_state()]
    for state in _walk(game, rng, 0.0):  # and from positions deep into a random game
        if rng.random() < 0.05:
            starts.append(state.clone())
    for i, start in enumerate(starts[:6]):
        totals = start.kernel.playouts(start, 50, 1000 + i, policy=True)
        # Every game ended: the winners of each share exactly 1.
        assert sum(totals) == pytest.approx(50.0)
        assert all(t >= 0 for t in totals)


def _policy_vs_random(game, players, games):
    share = 0.0
    for i in range(games):
        seat = i % players  # the policy takes every seat in turn
        rng = random.Random(i)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
            elif state.current_player() == seat:
                state.apply_action(state.kernel.policy_choice(state, rng.getrandbits(64)))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        share += state.returns()[seat]
    return share / games


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 2, "no_neptune_chips": True},
                                     {"players": 3}, {"players": 4, "short": True}], ids=_ids)
def test_policy_beats_random_play(options):
    # Measured: a share of 0.99-1.0 over 100 games in every variant (fair share 1/players).
    game = aiplay.load("sunken_city", **options)
    assert _policy_vs_random(game, options["players"], 40) >= 0.8
