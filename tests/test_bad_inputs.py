"""Issue 37: every bad input ends in an AiplayError, in every entry point (the cases found on the base commit).

Huge numbers (2**63 past the native counters, 10**400 past float), non-finite ones and wrong types, given to
aiplay.solve, aiplay.load, the bot specs, the bots' budgets, Match and the arena, are refused with an
InvalidOptionError naming the option; nothing raises OverflowError, TypeError or MemoryError.
"""

from __future__ import annotations

import math
import random

import pytest

import aiplay
from aiplay.arena import tournament
from aiplay.errors import (
    AiplayError, GameTooLongError, InvalidOptionError, InvalidPlayerError, InvalidStateError, UnknownGameError,
)
from aiplay.search import make_bot
from aiplay.search.spec import BotSpec, parse_bot
from aiplay.testing.choose import pick_variant

NAME, OPTIONS = pick_variant(perfect_information=True, chance=True, short=True)
GAME = aiplay.load(NAME, **OPTIONS)
PLAYERS = GAME.num_players

HUGE = [2 ** 63, 2 ** 64, 10 ** 400, -10 ** 400]
NOT_FINITE = [math.inf, -math.inf, math.nan]
WRONG_TYPES = [[1], {"a": 1}, "1", b"1", (1,), 1j]
BAD_VALUES = HUGE + NOT_FINITE + WRONG_TYPES


def is_valid(option, value):
    """The few (option, value) pairs among the bad values that are in fact valid, so are not cases here."""
    if option == "seed":
        return isinstance(value, int)  # any integer is a seed
    if option == "seconds":
        return value in (2 ** 63, 2 ** 64)  # a finite number of seconds, however long, is a valid budget
    return False


def bad_cases(options, values):
    return [pytest.param(option, value, id=f"{option}-{value!r}"[:60])
            for option in options for value in values if not is_valid(option, value)]


def decision_state():
    state = GAME.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(aiplay.sample_chance_outcome(state, rng))
    return state


@pytest.mark.parametrize("option, value", bad_cases(
    ["seconds", "nodes", "pv_nodes", "determinizations", "seed", "tt_bits", "max_plies", "observer"],
    BAD_VALUES + [True]))
def test_solve_refuses_huge_non_finite_and_ill_typed_options(option, value):
    state = decision_state()
    before = state.to_json()
    guard = {"seconds": 0.05} if option == "nodes" else {"nodes": 50}
    with pytest.raises(AiplayError) as info:
        aiplay.solve(state, **{**guard, option: value})
    assert option in str(info.value) or isinstance(info.value, InvalidPlayerError)  # observer: "player ..."
    assert state.to_json() == before


def test_solve_seconds_10_400_and_nodes_2_63_are_invalid_options():
    """The issue's two: an OverflowError each on the base commit."""
    state = decision_state()
    with pytest.raises(InvalidOptionError, match="seconds="):
        aiplay.solve(state, seconds=10 ** 400)
    with pytest.raises(InvalidOptionError, match="nodes=9223372036854775808"):
        aiplay.solve(state, nodes=2 ** 63)


@pytest.mark.parametrize("name", [[NAME], {"game": NAME}, 5, None, (NAME,)], ids=repr)
def test_load_refuses_a_name_that_is_not_a_string(name):
    with pytest.raises(UnknownGameError, match="a game name is a string"):
        aiplay.load(name)


@pytest.mark.parametrize("option", ["seconds", "uct_c", "rollout_epsilon"])
def test_bot_options_beyond_the_float_range_are_invalid(option):
    with pytest.raises(InvalidOptionError, match=option):
        make_bot("mcts", nodes=20, **{option: 10 ** 400})


@pytest.mark.parametrize("budget, value", bad_cases(["iterations", "seconds", "nodes"], BAD_VALUES))
def test_a_per_call_budget_of_any_bad_value_is_invalid(budget, value):
    bot = make_bot("mcts", seed=1, nodes=20)
    guard = {"seconds": 0.05} if budget == "nodes" else {"nodes": 20}  # the call's budget replaces the bot's
    with pytest.raises(InvalidOptionError, match=budget):
        bot.choose(decision_state(), **{**guard, budget: value})


def test_a_bot_spec_with_its_own_seed_builds_and_that_seed_wins():
    """On the base commit ``BotSpec.make`` passed seed twice: a TypeError."""
    state = decision_state()
    spec = parse_bot("mcts(iterations=30, seed=7)")
    first = spec.make(GAME, seed=1).analyse(state)
    second = spec.make(GAME, seed=2).analyse(state)
    assert first.action == second.action and first.stats == second.stats
    for text in ("mcts(iterations=30, seed=1e999)", "mcts(iterations=30, seed=[1])", "mcts(iterations=30, seed=1.5)"):
        with pytest.raises(InvalidOptionError, match="seed"):
            parse_bot(text).make(GAME, seed=1)


@pytest.mark.parametrize("spec, option", [
    ("mcts(presets=1)", "presets"), ({"kind": "random", "presets": []}, "presets"),
    ({"kind": "random", "name": 5}, "name"), ("@/nonexistent/aiplay-bot.json", "cannot read"),
])
def test_bot_spec_fields_are_checked_not_coerced(spec, option):
    with pytest.raises(InvalidOptionError, match=option):
        parse_bot(spec)


@pytest.mark.parametrize("args", [("mcts", [1]), (5,), ("mcts", {}, "x"), ("mcts", {}, True, 5), ("mcts", {1: 2})],
                         ids=repr)
def test_a_bot_spec_of_wrong_types_is_refused(args):
    with pytest.raises(InvalidOptionError):
        BotSpec(*args)


ARENA_BAD = [
    ("games", 2 ** 63), ("games", 10 ** 400), ("games", 1e308), ("games", "2"), ("workers", 2 ** 63),
    ("processes", 2 ** 63), ("processes", 1.0), ("seed", 1.5), ("seed", [1]), ("game_options", 5),
    ("game_options", "x"), ("out", True), ("out", 5), ("progress", 5), ("progress", "x"), ("max_moves", [1]),
    ("max_moves", -0.0), ("max_moves", 2 ** 63), ("scheduler", 5), ("backend", []), ("game", [NAME]),
    ("bots", "random,random"), ("bots", 5), ("bots", [5, "random"]),
]


@pytest.mark.parametrize("argument, value", ARENA_BAD, ids=repr)
def test_arena_arguments_of_any_bad_value_are_invalid_options(argument, value):
    """On the base commit: MemoryError (games=2**63 built its schedule first), OverflowError, TypeError,
    AttributeError, and ``out=True`` took stdout for its results file."""
    arguments = dict(game=NAME, bots=["random"] * PLAYERS, games=PLAYERS, seed=1, game_options=OPTIONS,
                     progress=False)
    arguments[argument] = value
    with pytest.raises(InvalidOptionError, match=argument if argument != "game" else "game"):
        tournament.run(arguments.pop("game"), **arguments)


@pytest.mark.parametrize("argument, value", [("deals", 2 ** 63), ("deals", 1.5), ("processes", 2 ** 63),
                                             ("bots", 5), ("bot_options", 5), ("bot_options", [5, 5])], ids=repr)
def test_run_match_arguments_of_any_bad_value_are_invalid_options(argument, value):
    arguments = dict(bots=["random"] * PLAYERS, deals=1, progress=None,
                     game_options={**OPTIONS, "players": PLAYERS} if "players" in GAME.option_spec else OPTIONS)
    arguments[argument] = value
    with pytest.raises(InvalidOptionError, match=argument):
        tournament.run_match(NAME, **arguments)


def test_a_runaway_game_is_an_aiplay_error_and_still_a_runtime_error():
    with pytest.raises(GameTooLongError) as info:
        tournament.run(NAME, ["random"] * PLAYERS, games=PLAYERS, game_options=OPTIONS, progress=False, max_moves=1)
    assert isinstance(info.value, RuntimeError) and isinstance(info.value, AiplayError)


@pytest.mark.parametrize("seed", [1.5, "x", [1], math.nan, 1e308, {}], ids=repr)
def test_match_and_make_rng_refuse_a_seed_that_is_not_an_int(seed):
    with pytest.raises(InvalidOptionError, match="seed"):
        aiplay.Match(GAME, seed=seed)
    with pytest.raises(InvalidOptionError, match="seed"):
        aiplay.make_rng(seed)


@pytest.mark.parametrize("data", [5, 2 ** 63, "x", [1], None, 1.5], ids=repr)
def test_state_from_dict_of_something_not_a_mapping_is_an_invalid_state(data):
    with pytest.raises(InvalidStateError):
        GAME.state_from_dict(data)


def test_walks_and_chance_draws_check_their_arguments():
    state = decision_state()
    with pytest.raises(InvalidOptionError, match="rng"):
        list(aiplay.random_walk(state.clone(), 2 ** 63))
    with pytest.raises(InvalidOptionError, match="max_steps"):
        aiplay.play_out(state.clone(), random.Random(0), max_steps=[1])
    with pytest.raises(InvalidOptionError, match="chance node"):
        aiplay.sample_chance_outcome(state, random.Random(0))
    with pytest.raises(InvalidOptionError, match="State"):
        aiplay.sample_chance_outcome(5, random.Random(0))
