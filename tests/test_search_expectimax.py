"""ExpectimaxBot: option checks, and runs of chance nodes cut at chance_run (games chosen by property)."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import ExpectimaxBot
from aiplay.testing.choose import games_with

#: The native hidden-information board games: their rules deal cards or roll dice one chance node at a
#: time, so a run of chance nodes follows some decisions (``_run_positions`` finds such positions).
RUN_GAMES = games_with(perfect_information=False, board=True, native=True)


@pytest.mark.parametrize("kwargs, name", [
    ({"depth": 0}, "depth"), ({"depth": 2.5}, "depth"), ({"depth": True}, "depth"),
    ({"depth": 10_000}, "depth"),
    ({"nodes": 0}, "nodes"), ({"seconds": -1.0}, "seconds"), ({"seconds": float("nan")}, "seconds"),
    ({"paranoid": "yes"}, "paranoid"), ({"use_tt": 1}, "use_tt"), ({"evaluate": 3}, "evaluate"),
    ({"iterations": 100}, "iterations"), ({"seed": "x"}, "seed"),
    ({"allow_hidden_information": None}, "allow_hidden_information"),
    ({"chance_run": 0}, "chance_run"), ({"chance_run": 1.5}, "chance_run"), ({"chance_run": 10_000}, "chance_run"),
])
def test_bad_options_raise(kwargs, name):
    with pytest.raises(InvalidOptionError, match=name):
        ExpectimaxBot(**kwargs)


def _run_positions(name, count, seed=5):
    """Decision positions of ``name`` (reference engine) where some move starts a run of 2+ chance nodes."""
    game = aiplay.load(name, backend="reference")
    rng = random.Random(seed)

    def starts_run(state):
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            if child.is_chance_node():
                child.apply_action(child.chance_outcomes()[0][0])
                if child.is_chance_node():
                    return True
        return False

    found = []
    for _ in range(500):  # bounded: a game without such runs fails here instead of hanging the suite
        if len(found) >= count:
            break
        for state in aiplay.random_walk(game.new_initial_state(), rng):
            if (not state.is_terminal() and not state.is_chance_node() and len(state.legal_actions()) > 1
                    and starts_run(state)):
                found.append(state.clone())
                break
    assert len(found) >= count, f"{name}: no decision starting a run of chance nodes in 500 random games"
    return found


def _plain(state, depth, run, chance_run, evaluate):
    """The documented rule, written out without a table: max^n, decisions use depth, runs cut."""
    if state.is_terminal():
        return list(state.returns())
    if depth == 0 or (state.is_chance_node() and run >= chance_run):
        return list(evaluate(state))
    if state.is_chance_node():
        acc = [0.0] * state.game.num_players
        for outcome, prob in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            for i, v in enumerate(_plain(child, depth, run + 1, chance_run, evaluate)):
                acc[i] += prob * v
        return acc
    player = state.current_player()
    best = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values = _plain(child, depth - 1, 0, chance_run, evaluate)
        if best is None or values[player] > best[player]:
            best = values
    return best


@pytest.mark.parametrize("chance_run", [1, 2])
def test_a_run_of_chance_nodes_is_cut_at_chance_run(chance_run):
    # The game deals one chance node at a time: a run follows some decisions.
    state = _run_positions(RUN_GAMES[-1], 1)[0]
    evaluate = lambda s: s.heuristic_values()  # noqa: E731 (a custom function: the reference path)
    analysis = ExpectimaxBot(depth=2, chance_run=chance_run, evaluate=evaluate,
                             allow_hidden_information=True).analyse(state)
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        expected = _plain(child, 1, 0, chance_run, evaluate)[state.current_player()]
        assert analysis.stats_for(action).value == pytest.approx(expected)


def test_a_longer_chance_run_bound_searches_more():
    state = _run_positions(RUN_GAMES[-1], 1)[0]
    nodes = [ExpectimaxBot(depth=2, chance_run=k, allow_hidden_information=True, backend="reference")
             .analyse(state).counters["nodes"] for k in (1, 2, 3)]
    assert nodes[0] < nodes[1] < nodes[2]


@pytest.mark.parametrize("name", RUN_GAMES)
def test_native_cuts_chance_runs_where_the_reference_does(name):
    native = aiplay.load(name, backend="native")
    for state in _run_positions(name, 2):
        for chance_run in (1, 2):
            options = dict(depth=2, chance_run=chance_run, allow_hidden_information=True)
            ref = ExpectimaxBot(backend="reference", **options).analyse(state)
            nat = ExpectimaxBot(**options).analyse(native.from_reference(state))
            assert nat.counters["backend"] == "native"
            assert [s.value for s in nat.stats] == pytest.approx([s.value for s in ref.stats], abs=1e-9)
            assert nat.action == ref.action


def test_default_is_a_time_budget_unless_a_depth_is_asked_for():
    from aiplay.search.expectimax import DEFAULT_DEPTH, DEFAULT_SECONDS
    bot = ExpectimaxBot()
    assert bot.depth == DEFAULT_DEPTH and bot.budget.seconds == DEFAULT_SECONDS
    assert ExpectimaxBot(depth=3).budget.seconds is None
    assert ExpectimaxBot(chance_run=None).chance_run is None
