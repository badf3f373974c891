"""Pickling and copying (issue 24): games, states and idle bots, on every game and both engines.

A copy must be the same position (same JSON, same player, legal moves and
information of every seat), play on independently of the original, and cross
a ``multiprocessing`` pool with the spawn start method (a fresh interpreter
that imports aiplay anew).
"""

from __future__ import annotations

import copy
import multiprocessing
import operator
import pickle
import random

import pytest

import aiplay
from aiplay.errors import BotBusyError, InvalidStateError
from aiplay.registry import has_native
from aiplay.search import make_bot
from aiplay.search.base import Bot
from aiplay.testing.choose import pick_variant
from aiplay.testing.simulate import random_action

from aiplay.testing.cases import game_variants, variant_id

VARIANTS = game_variants()
#: A short hidden-information game (ISMCTS) and a short perfect-information game with chance (MCTS, expectimax).
SEARCH_GAMES = [pick_variant(perfect_information=False, short=True, native=True),
                pick_variant(perfect_information=True, chance=True, short=True, native=True)]


def _positions(game, seed, count=4):
    """A few states along one seeded random game: the start, some middle positions, the end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = [state.clone()]
    steps = 0
    while not state.is_terminal() and steps < 400:
        state.apply_action(random_action(state, rng))
        steps += 1
        if steps % 7 == 0 and len(seen) < count:
            seen.append(state.clone())
    seen.append(state.clone())
    return seen


def _same_position(a, b):
    assert type(a) is type(b)
    assert a.to_json() == b.to_json()
    assert a.current_player() == b.current_player()
    assert a.legal_actions() == b.legal_actions()
    assert a.chance_outcomes() == b.chance_outcomes()
    assert a.returns() == b.returns()
    for p in range(a.game.num_players):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.information_state_key(p) == b.information_state_key(p)
    assert a.state_key() == b.state_key()


def _plays_on_independently(original, copied, seed):
    """The copy follows the same moves to the same states, and moving it leaves the original alone."""
    before = original.to_json()
    rng = random.Random(seed)
    twin = original.clone()
    for _ in range(10):
        if twin.is_terminal():
            break
        action = random_action(twin, rng)
        twin.apply_action(action)
        copied.apply_action(action)
        assert copied.to_json() == twin.to_json()
    assert original.to_json() == before


@pytest.mark.parametrize("case", VARIANTS, ids=variant_id)
def test_states_and_games_pickle_and_deep_copy(case):
    name, backend, options = case
    game = aiplay.load(name, backend=backend, **options)
    restored_game = pickle.loads(pickle.dumps(game))
    assert (restored_game.name, restored_game.backend, restored_game.options) == (name, backend, game.options)
    assert restored_game.new_initial_state().to_json() == game.new_initial_state().to_json()
    for i, state in enumerate(_positions(game, seed=11)):
        for copier in (lambda s: pickle.loads(pickle.dumps(s)), copy.deepcopy, copy.copy):
            copied = copier(state)
            assert copied is not state
            _same_position(state, copied)
            _plays_on_independently(state, copied, seed=i)
    # Many states in one pickle share one game object on the other side (as they did here).
    states = pickle.loads(pickle.dumps(_positions(game, seed=12)))
    assert len({id(s.game) for s in states}) == 1


@pytest.mark.parametrize("name", [n for n in aiplay.games_available() if has_native(n)])
def test_a_native_pickle_from_another_build_or_of_the_wrong_size_is_refused(name):
    from aiplay.native import _restore_state

    game = aiplay.load(name, backend="native")
    state = game.new_initial_state()
    function, (g, build, data) = state.__reduce__()
    assert function is _restore_state and g is game and len(data) == game.kernel.state_size
    with pytest.raises(InvalidStateError, match="another build"):
        function(g, build + "x", data)
    with pytest.raises(InvalidStateError, match="bytes given"):
        function(g, build, data + b"\0")
    fresh = game.new_initial_state()
    with pytest.raises(InvalidStateError):
        fresh._load_buffer(data[:-1])
    assert fresh.to_json() == state.to_json()  # refused: unchanged


def _bots(game):
    perfect = game.perfect_information
    kinds = [("random", {}), ("mcts", {"iterations": 60, "allow_hidden_information": not perfect}),
             ("ismcts", {"iterations": 60}),
             ("expectimax", {"depth": 2, "allow_hidden_information": not perfect})]
    if game.heuristic_policy is not None:
        kinds.append(("heuristic", {}))
    return [make_bot(kind, seed=5, **options) for kind, options in kinds]


def _decision_state(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(random_action(state, rng))
    return state


@pytest.mark.parametrize("backend", ["native", "reference"])
@pytest.mark.parametrize("name,options", SEARCH_GAMES, ids=[name for name, _ in SEARCH_GAMES])
def test_idle_bots_pickle_and_copy_and_choose_as_the_original(name, options, backend):
    game = aiplay.load(name, backend=backend, **options)
    state = _decision_state(game, 3)
    for bot in _bots(game):
        bot.choose(state)  # after a search: its native trees and tables exist and are left behind
        copies = [pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot)]
        expected = bot.choose(state)  # the original's generator moves on; each copy stands where it was
        for other in copies:
            assert type(other) is type(bot) and other is not bot
            assert other.choose(state) == expected
            other.stop()  # it has its own stop machinery


def test_a_searching_bot_refuses_to_be_copied():
    bot = make_bot("random", seed=1)
    assert bot._busy.acquire(blocking=False)  # as analyse() holds it during a search
    try:
        with pytest.raises(BotBusyError, match="idle"):
            pickle.dumps(bot)
    finally:
        bot._busy.release()
    pickle.dumps(bot)


def test_states_games_and_bots_cross_a_spawned_process_pool():
    states, games = [], []
    for name, backend, options in VARIANTS:
        game = aiplay.load(name, backend=backend, **options)
        games.append(game)
        states.extend(_positions(game, seed=21, count=2)[1:])
    bots = [(make_bot("ismcts", seed=9, iterations=40), _decision_state(aiplay.load(name, **options), 4))
            for name, options in SEARCH_GAMES]
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        texts = pool.map(operator.methodcaller("to_json"), states)
        returned = pool.map(copy.copy, states)  # shipped there, cloned there, shipped back
        starts = pool.map(operator.methodcaller("new_initial_state"), games)
        choices = pool.starmap(Bot.choose, bots)
    assert texts == [s.to_json() for s in states]
    for state, back in zip(states, returned):
        _same_position(state, back)
    assert [s.to_json() for s in starts] == [g.new_initial_state().to_json() for g in games]
    assert [type(s).__name__ for s in starts] == [type(g.new_initial_state()).__name__ for g in games]
    assert choices == [bot.choose(state) for bot, state in bots]
