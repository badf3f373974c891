"""Stop ends a search that runs with its game's presets, leaf playouts included (issue 27).

Native expectimax with a board game's preset ``leaf_playout=60`` polled the stop flag every 1024 nodes, each
node a 60-move playout (13-66 ms to stop). The latency itself is a benchmark
(``benchmarks/cancel_latency.py --presets``, recorded in benchmarks/RESULTS.md); this test asserts
only that the search stops, long before its budget, with a move.
"""

from __future__ import annotations

import random
import threading

import pytest

import aiplay
from aiplay.registry import game_entries, game_entry
from aiplay.search import make_bot
from aiplay.testing.choose import NoGameError, pick_options

pytest.importorskip("aiplay._ext.expectimax")


def _options(name):
    """The game's first option set of the generic tests for three or more players (else its first)."""
    try:
        return pick_options(name, min_players=3)
    except NoGameError:
        return pick_options(name)


def _cases():
    """(kind, game, options, extra) for every search preset of every registered game."""
    cases = []
    for entry in game_entries(include_hidden=True):
        presets = entry.reference.bot_presets
        perfect = aiplay.load(entry.name, backend="reference").perfect_information
        for kind in sorted(presets):
            if kind not in ("mcts", "ismcts", "expectimax"):
                continue
            extra = {"depth": 200} if kind == "expectimax" else {}
            if kind in ("mcts", "expectimax") and not perfect:
                extra["allow_hidden_information"] = True
            cases.append((kind, entry.name, _options(entry.name), extra))
    return cases


CASES = _cases()
#: A game whose expectimax preset plays leaf playouts, and its option set for four or more players.
LEAF_GAME = next(name for _, name, _, _ in CASES
                 if game_entry(name).reference.bot_presets.get("expectimax", {}).get("leaf_playout"))
LEAF_PLAYOUT = game_entry(LEAF_GAME).reference.bot_presets["expectimax"]["leaf_playout"]


@pytest.mark.parametrize("kind, name, options, extra", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_search_with_the_games_presets_stops_when_asked(kind, name, options, extra):
    game = aiplay.load(name, **options)
    state = aiplay.skip_chance(game.new_initial_state(), random.Random(1))
    bot = make_bot(kind, game=game, seed=1, seconds=600, **extra)
    if kind == "expectimax" and "leaf_playout" in game.bot_presets["expectimax"]:
        assert bot.leaf_playout == game.bot_presets["expectimax"]["leaf_playout"]  # the preset under test
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("analysis", bot.analyse(state)))
    thread.start()
    thread.join(0.3)
    assert thread.is_alive(), "the search ended by itself: nothing to stop"
    bot.stop()
    thread.join(60)  # far inside the 600 s budget: only a search that polls the flag gets here
    assert not thread.is_alive(), "the search did not stop"
    assert result["analysis"].action in state.legal_actions()


def test_reference_expectimax_first_pass_of_leaf_playouts_obeys_a_stop():
    """Found by fuzz_long (a 30 s "hang"): the reference expectimax's first pass had to complete, and
    with a board game's leaf_playout=60 at a raise step (332 moves, each a 60-move Python playout) it
    took 27 s, past its 2 s budget and deaf to bot.stop(). Once one root move is searched, a stop (or
    the deadline) now ends the pass with the best move searched so far."""
    game = aiplay.load(LEAF_GAME, backend="reference", **pick_options(LEAF_GAME, min_players=4))
    rng = random.Random(0)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 200:
        state.apply_action(aiplay.sample_chance_outcome(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    bot = make_bot("expectimax", game=game, seed=1, seconds=600)
    assert bot.leaf_playout == LEAF_PLAYOUT and bot.backend in ("auto", "reference")
    timer = threading.Timer(0.3, bot.stop)
    timer.start()
    analysis = bot.analyse(state)
    timer.join()
    assert analysis.action in state.legal_actions()
    # Cut, not completed: fewer moves searched than there are, and no depth completed.
    assert 1 <= len(analysis.stats) < len(state.legal_actions())
    assert analysis.counters["completed_depth"] == 0 and not analysis.counters["forced"]


def test_a_level_bot_stopped_while_building_its_search_answers_at_once(monkeypatch):
    """cancel_latency --presets: a level bot stopped 50 ms in once took 249 ms (Groom Lake): the stop came
    while the first move built the inner search, whose start cleared it, so the level's whole budget ran."""
    from aiplay.search.level import LevelBot
    game = aiplay.load(LEAF_GAME, **_options(LEAF_GAME))
    state = aiplay.skip_chance(game.new_initial_state(), random.Random(1))
    build = LevelBot._inner

    def stopped_while_building(self, s):
        search = build(self, s)
        self.stop()  # where a stop from another thread can land
        return search

    monkeypatch.setattr(LevelBot, "_inner", stopped_while_building)
    analysis = make_bot("level", game=game, seed=1).analyse(state)
    assert analysis.action in state.legal_actions()
    assert analysis.counters["iterations"] == 1  # not the level's 4,000
