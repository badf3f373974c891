"""Every bot at its default settings moves in time on every listed game, and forced moves are free.

The defaults are what ``make_bot(kind, game=game)`` and ``aiplay play`` give
(the game's ``bot_presets`` included). The only timing assertion of the
suite lives here and is deliberately generous: a move must end within its
time budget (or, for a budget of iterations or depth, the nominal
:data:`NOMINAL_SECONDS`) plus :data:`MARGIN` seconds, so that a loaded
machine does not make it flaky while a stall (a search of minutes) fails.
"""

from __future__ import annotations

import random
import time

import pytest

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.registry import has_native
from aiplay.search import BOTS, make_bot
from aiplay.testing.choose import games_with, pick_variant

#: Seconds allowed on top of a move's budget.
MARGIN = 2.0
#: What a default budget of iterations or depth may take on any listed game
#: (the default bots take at most 2.5 s a move on an idle machine, Sunken City's top level).
NOMINAL_SECONDS = 10.0
#: Moves searched per bot and game: the first decisions, then some mid-game.
EARLY_MOVES = 3
LATE_MOVES = 3
#: Random moves played between the early and the late sample.
SKIP = 60


def _bot(kind, game, seed):
    options = {}
    # As the CLI does: a searcher of the true state may read hidden cards as a baseline.
    if kind in ("mcts", "expectimax") and not game.perfect_information:
        options["allow_hidden_information"] = True
    return make_bot(kind, game=game, seed=seed, **options)


def _limit(bot):
    budget = getattr(bot, "budget", None)
    seconds = getattr(budget, "seconds", None)
    if seconds is None:
        seconds = getattr(bot, "seconds", None)
    return (seconds if seconds is not None else NOMINAL_SECONDS) + MARGIN


def _kinds(game):
    return [k for k in sorted(BOTS) if not (k == "heuristic" and game.heuristic_policy is None)]


@pytest.mark.parametrize("name", aiplay.games_available())
def test_every_default_bot_moves_within_its_budget(name):
    game = aiplay.load(name)
    for kind in _kinds(game):
        bot = _bot(kind, game, seed=3)
        limit = _limit(bot)
        rng = random.Random(11)
        state = game.new_initial_state()
        searched = skipped = 0
        while not state.is_terminal() and searched < EARLY_MOVES + LATE_MOVES:
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
                continue
            if searched == EARLY_MOVES and skipped < SKIP:
                skipped += 1
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                continue
            started = time.perf_counter()
            action = bot.choose(state)
            elapsed = time.perf_counter() - started
            assert elapsed <= limit, f"{kind} on {name} took {elapsed:.1f} s (limit {limit:.1f} s) at {state}"
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        assert searched >= 1


def _forced_position(game, seed=0, walks=30):
    """A decision position with exactly one legal move, from seeded random games (None if none seen)."""
    rng = random.Random(seed)
    for _ in range(walks):
        for state in aiplay.random_walk(game.new_initial_state(), rng):
            if not (state.is_terminal() or state.is_chance_node()) and len(state.legal_actions()) == 1:
                return state.clone()
    return None


def _a_game_with_forced_moves(perfect_information, backend="reference"):
    """The first game (names sorted) of that kind, at its default options, whose seeded random games
    reach a forced move, and such a position (the registry chooses; no game is named)."""
    for name in games_with(perfect_information=perfect_information):
        if backend == "native" and not has_native(name):
            continue
        game = aiplay.load(name, backend=backend)
        state = _forced_position(game)
        if state is not None:
            return name, game, state
    raise AssertionError(f"no game with perfect_information={perfect_information} reaches a forced move")


@pytest.mark.parametrize("backend", ["native", "reference"])
@pytest.mark.parametrize("perfect_information", [False, True], ids=["hidden_information", "perfect_information"])
def test_a_forced_move_is_answered_without_search(perfect_information, backend):
    name, game, state = _a_game_with_forced_moves(perfect_information, backend)
    only = state.legal_actions()[0]
    before = state.to_json()
    for kind in _kinds(game):
        # Budgets no search could finish: only the shortcut answers at once.
        options = {"seconds": 3600.0} if kind in ("mcts", "ismcts", "expectimax") else {}
        if kind == "level":
            options = {"level": 1}
        bot = _bot(kind, game, seed=1) if not options else make_bot(
            kind, game=game, seed=1, **options,
            **({"allow_hidden_information": True} if kind in ("mcts", "expectimax")
               and not game.perfect_information else {}))
        analysis = bot.analyse(state)
        assert analysis.action == only
        assert analysis.counters["forced"] is True
        if bot.searches:
            assert analysis.counters["nodes"] == 0
            assert analysis.value is None
            assert analysis.principal_variation == [only]
    assert state.to_json() == before


def test_an_unforced_move_says_so():
    name, options = pick_variant(perfect_information=True, chance=True, short=True)
    game = aiplay.load(name, **options)
    state = next(s for s in aiplay.random_walk(game.new_initial_state(), random.Random(0))
                 if not (s.is_terminal() or s.is_chance_node()) and len(s.legal_actions()) > 1)
    for kind in _kinds(game):
        analysis = make_bot(kind, game=game, seed=1).analyse(state)
        assert analysis.counters["forced"] is False


def test_a_forced_move_leaves_the_bot_stream_alone():
    # The shortcut draws nothing from the bot's generator: the next real search
    # is the one a bot that never saw the forced position makes.
    _, game, forced = _a_game_with_forced_moves(perfect_information=False)
    rng = random.Random(4)
    other = None
    for state in aiplay.random_walk(game.new_initial_state(), rng):
        if not (state.is_terminal() or state.is_chance_node()) and len(state.legal_actions()) > 3:
            other = state.clone()
            break
    assert other is not None
    a = make_bot("ismcts", game=game, seed=9, iterations=200)
    b = make_bot("ismcts", game=game, seed=9, iterations=200)
    a.choose(forced)
    assert a.analyse(other).stats == b.analyse(other).stats
