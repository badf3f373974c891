"""aiplay.testing.simulate: the one random-game loop of tests, tools and benchmarks."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay import CHANCE, InvalidOptionError, sample_chance_outcome
from aiplay.testing.choose import pick_variant

#: Chosen by property: a short two-player perfect-information game with chance, a short two-player
#: hidden-information game (the largest such), and a board game for three.
DICE, DICE_OPTIONS = pick_variant(perfect_information=True, chance=True, short=True, players=2)
HIDDEN, HIDDEN_OPTIONS = pick_variant(perfect_information=False, short=True, players=2, prefer="large")
BOARD, BOARD_OPTIONS = pick_variant(board=True, perfect_information=True, players=3)
WALK_GAMES = [(DICE, DICE_OPTIONS), (HIDDEN, HIDDEN_OPTIONS), (BOARD, BOARD_OPTIONS)]


def _by_hand(state, rng):
    """The loop the helpers replace, written out: chance by probability, else rng.choice."""
    actions = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = sample_chance_outcome(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return actions


@pytest.mark.parametrize("name, options", WALK_GAMES, ids=[name for name, _ in WALK_GAMES])
@pytest.mark.parametrize("backend", ["reference", "native"])
def test_random_walk_draws_like_the_hand_written_loop(name, options, backend):
    game = aiplay.load(name, backend=backend, **options)
    for seed in range(3):
        expected = _by_hand(game.new_initial_state(), random.Random(seed))
        state = game.new_initial_state()
        seen = [state.to_json()]
        walk = aiplay.random_walk(state, random.Random(seed))
        assert next(walk) is state  # the start comes first, the same object
        for position in walk:
            assert position is state
            seen.append(position.to_json())
        assert state.is_terminal()
        assert len(seen) == len(expected) + 1  # the start, then one state per move
        replay = game.new_initial_state()
        for action in expected:
            replay.apply_action(action)
        assert replay.to_json() == seen[-1]


def test_play_out_is_reproducible_and_respects_max_steps():
    game = aiplay.load(DICE, **DICE_OPTIONS)
    a = aiplay.play_out(game.new_initial_state(), random.Random(5))
    b = aiplay.play_out(game.new_initial_state(), random.Random(5))
    assert a.to_json() == b.to_json() and a.is_terminal()
    short = aiplay.play_out(game.new_initial_state(), random.Random(5), max_steps=3)
    assert not short.is_terminal()
    assert len(list(aiplay.random_walk(game.new_initial_state(), random.Random(5), max_steps=3))) == 4
    assert len(list(aiplay.random_walk(game.new_initial_state(), random.Random(5), max_steps=0))) == 1
    with pytest.raises(InvalidOptionError, match="max_steps"):
        list(aiplay.random_walk(game.new_initial_state(), random.Random(5), max_steps=-1))


def test_choose_decides_for_the_seats_and_chance_stays_random():
    game = aiplay.load(DICE, **DICE_OPTIONS)
    asked = []

    def always_first(state):
        assert not state.is_chance_node()
        asked.append(state.current_player())
        return state.legal_actions()[0]

    chance_nodes = sum(s.is_chance_node() for s in aiplay.random_walk(
        game.new_initial_state(), random.Random(2), choose=always_first, max_steps=200))
    decisions = len(asked)
    assert decisions > 0 and chance_nodes > 0, "seats asked the chooser, chance drew from the rng"
    assert set(asked) <= {0, 1}


def test_random_action_and_skip_chance():
    game = aiplay.load(HIDDEN, **HIDDEN_OPTIONS)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert aiplay.skip_chance(state, random.Random(1)) is state
    assert not state.is_chance_node() and not state.is_terminal()
    action = aiplay.random_action(state, random.Random(1))
    assert action in state.legal_actions()
    over = aiplay.play_out(state, random.Random(1))
    with pytest.raises(InvalidOptionError, match="terminal"):
        aiplay.random_action(over, random.Random(1))
    assert aiplay.skip_chance(over, random.Random(1)) is over  # nothing to deal at the end
