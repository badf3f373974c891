"""Sunken City's levels: its own table follows the heuristic in a tie (its raise decisions have some 350
moves, so a weak level's best moves tie)."""

from __future__ import annotations

import aiplay
from aiplay.search import NUM_LEVELS, make_bot
from aiplay.search.level import levels_for, levels_info, tied_best


def test_sunken_city_levels_follow_the_heuristic_in_a_tie():
    for backend in ("reference", "native"):
        sunken = aiplay.load("sunken_city", backend=backend)
        table = levels_for(sunken)
        assert [lv.ties for lv in table] == ["heuristic"] * NUM_LEVELS
        assert [info["ties"] for info in levels_info(sunken)] == [lv.ties for lv in table]
    # The rule is the level's own Python, the same on both engines; the reference search at 4,000
    # iterations takes minutes, so the moves are played on the native one.
    sunken = aiplay.load("sunken_city", backend="native")
    state = sunken.new_initial_state()
    while not any(sunken_name.startswith("street") for sunken_name in map(state.action_to_string,
                                                                          state.legal_actions())):
        state.apply_action(state.legal_actions()[0])  # the first card, then "raise": ~350 moves
    analysis = make_bot("level", game=sunken, level=2, seed=3).analyse(state)
    assert analysis.counters["ties"] == "heuristic" and analysis.counters["tied"] > 1
    assert analysis.action in state.legal_actions()
    top = make_bot("level", game=sunken, level=NUM_LEVELS, seed=3).analyse(state)
    assert top.counters["ties"] == "heuristic" and top.action in {s.action for s in tied_best(top.stats)}
    from aiplay.search.level import format_levels
    assert "plays the game's heuristic move if that is one of them" in format_levels("sunken_city")


def test_a_level_plays_the_heuristic_move_when_its_search_ties(monkeypatch):
    sunken = aiplay.load("sunken_city", backend="native")
    # A top level of 200 iterations: no slips, and on a raise (~350 moves) its best moves tie.
    monkeypatch.setattr(sunken, "difficulty_levels", tuple((200, 0.1, 2) for _ in range(NUM_LEVELS - 1))
                        + ((200, 0.0, 1),))
    state = sunken.new_initial_state()
    while not any(name.startswith("street") for name in map(state.action_to_string, state.legal_actions())):
        state.apply_action(state.legal_actions()[0])
    first = make_bot("level", game=sunken, level=NUM_LEVELS, seed=4).analyse(state)
    tied = [s.action for s in tied_best(first.stats)]
    assert len(tied) > 2 and first.counters["tied"] == len(tied)
    wanted = max(tied)  # the last of the tie in legal order: never what legal order would pick
    monkeypatch.setattr(sunken, "heuristic_policy", lambda s, rng: wanted)
    again = make_bot("level", game=sunken, level=NUM_LEVELS, seed=4).analyse(state)
    assert [s.visits for s in again.stats] == [s.visits for s in first.stats]  # the same search
    assert again.action == wanted
    monkeypatch.setattr(sunken, "heuristic_policy", lambda s, rng: -1)  # outside the tie: a seeded draw
    draws = {make_bot("level", game=sunken, level=NUM_LEVELS, seed=4).analyse(state).action for _ in range(2)}
    assert len(draws) == 1 and draws <= set(tied)  # the same seed, the same draw
