"""The searchers' shared surface: make_bot, Budget, Analysis, RandomBot, and every bot on every game."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

import aiplay
from aiplay.errors import InvalidOptionError
from aiplay.search import (
    BOTS, ActionStats, Analysis, Bot, Budget, ExpectimaxBot, ISMCTSBot, MCTSBot, RandomBot, make_bot,
)
from aiplay.registry import contract_options
from aiplay.search.base import COMMON_COUNTERS
from aiplay.testing.choose import pick_game, pick_variant


def first_decision(game, seed=0):
    return aiplay.skip_chance(game.new_initial_state(), random.Random(seed))


#: Chosen by property: a short two-player perfect-information game with chance (every bot can search
#: it), the largest short two-player hidden-information game, and a hidden-information game for six.
DICE, DICE_OPTIONS = pick_variant(perfect_information=True, chance=True, short=True, players=2)
HIDDEN, HIDDEN_OPTIONS = pick_variant(perfect_information=False, short=True, players=2, prefer="large")
CROWD = pick_game(perfect_information=False, short=True, accepts_players=6)


def dice_start(backend="reference"):
    return first_decision(aiplay.load(DICE, backend=backend, **DICE_OPTIONS))


# -- make_bot ----------------------------------------------------------------

def test_make_bot_builds_each_kind():
    assert set(BOTS) >= {"random", "mcts", "ismcts", "expectimax"}
    assert isinstance(make_bot("random", seed=1), RandomBot)
    mcts = make_bot("mcts", iterations=10, seed=1, uct_c=1.0)
    assert isinstance(mcts, MCTSBot) and mcts.budget.iterations == 10 and mcts.uct_c == 1.0
    assert isinstance(make_bot("ismcts", seconds=0.5), ISMCTSBot)
    expectimax = make_bot("expectimax", depth=2, paranoid=True)
    assert isinstance(expectimax, ExpectimaxBot) and expectimax.depth == 2 and expectimax.paranoid


def test_make_bot_drops_options_set_to_none():
    # A command line passes every option it parsed; unset ones mean "default".
    bot = make_bot("mcts", iterations=None, seconds=None, seed=3, uct_c=None)
    assert bot.budget.iterations == 1000 and bot.uct_c == 2.0
    assert isinstance(make_bot("random", iterations=None), RandomBot)


def test_every_bot_but_expectimax_takes_the_common_budget_options():
    # The CLI passes one budget to every seat; RandomBot accepts (and ignores) it.
    for kind in ("random", "mcts", "ismcts"):
        make_bot(kind, iterations=10, seed=1)
        make_bot(kind, seconds=0.5, nodes=100, seed=1)
    make_bot("expectimax", seconds=0.5, nodes=100, seed=1)
    with pytest.raises(InvalidOptionError, match="iterations"):
        make_bot("random", iterations=0)


def test_make_bot_unknown_kind_lists_the_known_ones():
    with pytest.raises(InvalidOptionError) as info:
        make_bot("alphazero")
    for kind in ("random", "mcts", "ismcts", "expectimax"):
        assert kind in str(info.value)


def test_make_bot_unknown_option_names_it_and_the_valid_ones():
    with pytest.raises(InvalidOptionError, match="'depth'.*iterations"):
        make_bot("mcts", depth=3)
    with pytest.raises(InvalidOptionError, match="iterations"):
        make_bot("expectimax", iterations=10)  # it has depth, nodes and seconds instead
    with pytest.raises(InvalidOptionError, match="'uct_c'"):
        make_bot("random", uct_c=1.0)
    with pytest.raises(InvalidOptionError, match="uct_c"):
        make_bot("ismcts", uct_c=-1.0)


def test_bots_dict_is_extensible():
    class FirstActionBot(Bot):
        kind = "first"

        def __init__(self, *, seed=None):
            super().__init__(seed)

        def _analyse(self, state):
            player = self._root_player(state)
            action = state.legal_actions()[0]
            return Analysis(bot=self.kind, player=player, action=action, value=None)

    BOTS["first"] = FirstActionBot
    try:
        state = dice_start()
        assert make_bot("first").choose(state) == state.legal_actions()[0]
    finally:
        del BOTS["first"]


# -- Budget and Analysis -------------------------------------------------------

def test_budget_validation_names_the_option():
    assert Budget(iterations=5).reproducible and not Budget(seconds=1).reproducible
    assert Budget().unlimited
    for kwargs, name in [({"iterations": 0}, "iterations"), ({"nodes": 2.5}, "nodes"),
                         ({"seconds": 0}, "seconds"), ({"seconds": "1"}, "seconds")]:
        with pytest.raises(InvalidOptionError, match=name):
            Budget(**kwargs)


@pytest.mark.parametrize("kind, options", [
    ("random", {}), ("mcts", {"iterations": 50}), ("ismcts", {"iterations": 50}),
    ("expectimax", {"depth": 2}),
])
def test_analysis_is_json_ready_and_round_trips(kind, options):
    state = dice_start()
    analysis = make_bot(kind, seed=1, **options).analyse(state)
    data = analysis.to_dict()
    text = json.dumps(data)  # plain data only
    assert Analysis.from_dict(json.loads(text)) == analysis
    assert set(data) == {"bot", "player", "action", "value", "stats", "principal_variation", "counters"}
    assert data["bot"] == kind
    assert all(set(s) == {"action", "visits", "value", "availability"} for s in data["stats"])
    assert set(COMMON_COUNTERS) <= set(data["counters"])
    with pytest.raises(Exception):
        analysis.action = 5  # frozen
    assert analysis.stats_for(analysis.action).action == analysis.action
    with pytest.raises(KeyError):
        analysis.stats_for(99)


def test_action_stats_defaults_are_none():
    assert ActionStats(action=3) == ActionStats(3, None, None, None)


# -- RandomBot -----------------------------------------------------------------

def test_random_bot_is_reproducible_and_uniform():
    state = first_decision(aiplay.load(HIDDEN, backend="reference", **HIDDEN_OPTIONS))
    legal = state.legal_actions()
    assert len(legal) >= 2
    a, b = RandomBot(seed=9), RandomBot(seed=9)
    draws = 100 * len(legal)  # 100 a move on average, whatever the game picked offers
    moves = [a.choose(state) for _ in range(draws)]
    assert moves == [b.choose(state) for _ in range(draws)]
    counts = Counter(moves)
    assert set(counts) == set(legal)
    # Each count is binomial(draws, 1/k): within 5 standard deviations of its mean when the bot is uniform.
    p = 1 / len(legal)
    expected, sd = draws * p, math.sqrt(draws * p * (1 - p))
    assert all(abs(n - expected) < 5 * sd for n in counts.values()), counts
    other = RandomBot(seed=10)
    assert [other.choose(state) for _ in range(draws)] != moves  # the seed matters


def test_random_bot_analysis_and_errors():
    state = dice_start()
    before = state.to_json()
    analysis = RandomBot(seed=0).analyse(state)
    assert state.to_json() == before
    assert analysis.value is None and analysis.principal_variation == [analysis.action]
    assert [s.action for s in analysis.stats] == state.legal_actions()
    # a move that a chance outcome follows
    state.apply_action(next(a for a in state.legal_actions() if _leads_to_chance(state, a)))
    with pytest.raises(ValueError, match="chance"):
        RandomBot(seed=0).choose(state)
    with pytest.raises(InvalidOptionError, match="seed"):
        RandomBot(seed="x")


def _leads_to_chance(state, action):
    after = state.clone()
    after.apply_action(action)
    return after.is_chance_node()


# -- every bot on every registered game, default engine ----------------------

def _bots_for(game):
    cheat = not game.perfect_information
    return [
        RandomBot(seed=1),
        MCTSBot(iterations=60, seed=1, allow_hidden_information=cheat),
        ISMCTSBot(iterations=60, seed=1),
        ExpectimaxBot(depth=2, allow_hidden_information=cheat),
    ]


@pytest.mark.parametrize("name", aiplay.games_available())
def test_every_bot_plays_every_game_on_its_default_engine(name):
    game = aiplay.load(name, **contract_options()[name][0])  # the registry's first option set: short games
    for seed in range(2):
        state = first_decision(game, seed)
        before = state.to_json()
        for bot in _bots_for(game):
            analysis = bot.analyse(state)
            assert state.to_json() == before, type(bot).__name__
            assert analysis.player == state.current_player()
            assert analysis.action in state.legal_actions()
            assert [s.action for s in analysis.stats] == state.legal_actions()
            assert set(COMMON_COUNTERS) <= set(analysis.counters)


@pytest.mark.parametrize("kind,options", [
    ("mcts", {"workers": 2}), ("mcts", {"max_nodes": 100}),
    ("ismcts", {"workers": 3}), ("ismcts", {"max_nodes": 10**6}),
])
def test_native_only_options_are_refused_by_the_reference_loop(kind, options):
    """An option that the reference loop does not have is an error there, never silently ignored."""
    state = dice_start()
    bot = make_bot(kind, iterations=20, seed=1, **options)
    with pytest.raises(InvalidOptionError, match="only on the native search path"):
        bot.choose(state)
    # The same bot on a native state runs them.
    native = dice_start("native")
    assert make_bot(kind, iterations=20, seed=1, **options).analyse(native).counters["backend"] == "native"
    # And backend='reference' on a native state is the reference loop: refused too.
    with pytest.raises(InvalidOptionError, match="only on the native search path"):
        make_bot(kind, iterations=20, seed=1, backend="reference", **options).choose(native)


def test_reference_loop_accepts_settings_it_follows_anyway():
    state = dice_start()
    for kind in ("mcts", "ismcts"):
        assert make_bot(kind, iterations=20, seed=1, workers=1, reuse_tree=False).analyse(state).counters[
            "backend"] == "reference"


@pytest.mark.parametrize("players", [3, 4, 6])
def test_mo_ismcts_with_fewer_nodes_than_trees_is_an_error_not_a_crash(players):
    """MO-ISMCTS keeps one tree per player: a cap below players + 1 nodes used to abort the process."""
    state = first_decision(aiplay.load(CROWD, players=players))  # the deal done
    for max_nodes in range(1, players + 1):
        with pytest.raises(InvalidOptionError, match="max_nodes"):
            make_bot("ismcts", variant="mo", max_nodes=max_nodes, iterations=50, seed=1).choose(state)
    assert make_bot("ismcts", variant="mo", max_nodes=players + 1, iterations=50, seed=1).choose(state) \
        in state.legal_actions()
