"""Sunken City's kernel against its reference engine: positions that uniform random play seldom reaches."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.game import sample_chance_outcome
from aiplay.testing.differential import compare_engines, compare_states


# -- Sunken City: positions that uniform random play seldom reaches ---------------

def _sunken_city_mixed_chooser(greedy):
    """The heuristic policy with probability ``greedy``, else a uniform random move:
    games where treasures are found, carried home and chips are used."""
    def choose(state, rng):
        if rng.random() < greedy:
            return state.game.heuristic_policy(state, rng)
        legal = state.legal_actions()
        return legal[rng.randrange(len(legal))]
    return choose


@pytest.mark.parametrize("options", [{}, {"players": 3, "short": True}, {"players": 4, "no_neptune_chips": True}],
                         ids=["2p", "3p-short", "4p-no-chips"])
def test_native_sunken_city_matches_under_heuristic_play(options):
    reference = aiplay.load("sunken_city", backend="reference", **options)
    native = aiplay.load("sunken_city", backend="native", **options)
    report = compare_engines(reference, native, range(25), choose=_sunken_city_mixed_chooser(0.8))
    assert report.terminal_games == 25
    # Somebody secured treasures: not every game is a shared nothing.
    assert any(max(r) == 1.0 for r in report.returns_seen)


def _sunken_city_positions():
    """(options, dict) start positions: a frozen lake, every treasure but the chest
    secured, the chip supply one short of empty, the Sand Timer about to show."""
    from test_sunken_city_rules import FROZEN_STREETS

    out = []
    game = aiplay.load("sunken_city", backend="reference", players=4)
    base = game.new_initial_state().to_dict()
    sites = [(3, 3), (2, 4), (4, 2), (4, 6), (6, 4), (3, 5), (5, 3), (5, 5), (0, 4), (4, 4)]
    base.update(buildings=[list(s) for s in sites], streets=FROZEN_STREETS,
                street_piles=[0, 0, 0, 0, 1, 0], draw_pile=5)
    out.append(({"players": 4}, base))

    game = aiplay.load("sunken_city", backend="reference", players=3, short=True)
    base = game.new_initial_state().to_dict()
    base.update(streets=[[0, 0, "right"]], adventurers=[[0, 0], "village", "village"],
                secured=[[2, 3, 4, 5, 6, 7, 8, 9, 10], [], []], carried=[[12], [], []],
                secured_values=[54, 0, 0])
    base["street_piles"][0] -= 1
    out.append(({"players": 3, "short": True}, base))

    game = aiplay.load("sunken_city", backend="reference", players=4)
    base = game.new_initial_state().to_dict()
    streets = [[r, k, "right"] for r in (0, 1, 2, 3) for k in (0, 2)]
    base.update(streets=streets, neptune=[1, 0], chips=[3, 2, 2, 0],
                adventurers=["village", [1, 0], [1, 0], [2, 2]])
    base["street_piles"][0] -= len(streets)
    out.append(({"players": 4}, base))

    game = aiplay.load("sunken_city", backend="reference", players=3)
    base = game.new_initial_state().to_dict()
    streets = [[r, k, "right"] for r in (0, 1, 2, 3, 5, 6) for k in (0, 2, 4, 6)]
    base.update(streets=streets, street_piles=[0, 0, 0, 0, 1, game.total_streets - 1 - len(streets)],
                draw_pile=5, turn=1)
    out.append(({"players": 3}, base))
    return out


@pytest.mark.parametrize("index", range(4), ids=["frozen-lake", "all-secured", "chip-supply", "sand-timer"])
def test_native_sunken_city_matches_from_edge_positions(index):
    options, data = _sunken_city_positions()[index]
    reference_game = aiplay.load("sunken_city", backend="reference", **options)
    native_game = aiplay.load("sunken_city", backend="native", **options)
    start = reference_game.state_from_dict(data)
    loaded = native_game.state_from_dict(data)
    assert loaded.to_json() == start.to_json()
    for seed in range(150):
        rng = random.Random(seed)
        ref, fast = start.clone(), loaded.clone()
        history = []
        for step in range(10_000):
            compare_states(ref, fast, seed=seed, step=step, history=history)
            if ref.is_terminal():
                break
            if ref.is_chance_node():
                action = sample_chance_outcome(ref, rng)
            else:
                legal = ref.legal_actions()
                action = legal[rng.randrange(len(legal))]
            ref.apply_action(action)
            fast.apply_action(action)
            history.append(action)
        assert ref.is_terminal()
