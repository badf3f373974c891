"""pytest-benchmark suites for the searchers: 1,000 iterations (or one fixed depth) per call.

Divide a figure by 1,000 for the cost of one search iteration. Every game with
a kernel is searched on its native engine (the bots' native path); the small
validation games also on the reference engine, for scale.
"""

from __future__ import annotations

import pytest

import aiplay
from aiplay.registry import has_native
from aiplay.search import ExpectimaxBot, ISMCTSBot, MCTSBot

from test_bench_engines import mid_game_state

ITERATIONS = 1000
#: Reference-engine searches are timed only on the small validation games, for
#: scale: on a board game 1,000 reference iterations take minutes.
SMALL_GAMES = ("kuhn_poker", "leduc_poker", "pig")
CASES = [(name, backend) for name in aiplay.games_available()
         for backend in (["native"] if has_native(name) else [])
         + (["reference"] if name in SMALL_GAMES else [])]
IDS = [f"{name}-{backend}" for name, backend in CASES]


def decision_state(name, backend):
    state = mid_game_state(aiplay.load(name, backend=backend), moves=2)
    if state.is_chance_node():  # deal until someone is to move
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("name,backend", CASES, ids=IDS)
def test_ismcts_1000_iterations(benchmark, name, backend):
    state = decision_state(name, backend)
    bot = ISMCTSBot(iterations=ITERATIONS, seed=1, reuse_tree=False)
    analysis = benchmark(bot.analyse, state)
    assert analysis.counters["iterations"] == ITERATIONS


@pytest.mark.parametrize("name,backend", [c for c in CASES if c[0] == "pig"],
                         ids=[i for i in IDS if i.startswith("pig")])
def test_mcts_1000_iterations(benchmark, name, backend):
    state = decision_state(name, backend)
    bot = MCTSBot(iterations=ITERATIONS, seed=1, reuse_tree=False)
    analysis = benchmark(bot.analyse, state)
    assert analysis.counters["iterations"] == ITERATIONS


@pytest.mark.parametrize("name,backend", [c for c in CASES if c[0] == "pig"],
                         ids=[i for i in IDS if i.startswith("pig")])
def test_expectimax_depth_3(benchmark, name, backend):
    state = decision_state(name, backend)
    analysis = benchmark(ExpectimaxBot(depth=3).analyse, state)
    assert analysis.counters["completed_depth"] >= 1
