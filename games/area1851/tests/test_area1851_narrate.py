"""Issue 38 for Area 1851: the other seats' hidden choices are told by what became public when their
phase ended (log and turn summaries), and the log reads as sentences."""

from __future__ import annotations

import random

import pytest

from aiplay.game import CHANCE
from aiplay.match import Match
from aiplay.views.narrate import match_log, match_summaries

from aiplay.games.area1851.narrate import SECRET_PHASES


def _play(seed: int, players: int, stop=None) -> Match:
    match = Match("area1851", seed=seed, players=players)
    rng = random.Random(seed)
    while not match.is_terminal() and not (stop and stop(match)):
        if match.state.is_chance_node():
            match.play_chance()
        else:
            legal = match.state.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    return match


@pytest.mark.parametrize("seed,players", [(1, 4), (2, 2), (3, 5)])
def test_a_whole_game_log_never_says_hidden_choice_for_an_ended_phase(seed, players):
    match = _play(seed, players)
    assert match.is_terminal()
    for viewer in range(players):
        lines = match_log(match, 0, viewer)
        assert not [line for line in lines if "hidden" in line], viewer
        assert not [line for line in lines if line.lower().startswith("chance")], viewer
        summaries = match_summaries(match, 0, viewer)
        assert summaries and not [s for s in summaries if "hidden" in s], viewer
        # What became public is told: in each ended action phase every other seat gets a line.
        told = [line for line in lines if " in the action phase: " in line]
        assert told, viewer
        assert not any(line.startswith(f"player {viewer} in ") for line in lines)


def test_hidden_choices_of_a_phase_still_running_are_counted_then_told():
    """Seat 2 reads seat 1's action-phase moves while seat 2 is still to act: counted, not named;
    once the phase ends, the same stretch of the log says what seat 1's choices showed."""
    def seat2_acting(m: Match) -> bool:
        view = m.state.view(2)
        return view["phase"] == "action" and m.state.current_player() == 2 and view["turn"] >= 2

    match = _play(4, 3, stop=seat2_acting)
    assert not match.is_terminal()
    start = max(i for i, m in enumerate(match.history) if m.player == 0 and i < match.ply) - 1
    lines = match_log(match, start, 2)
    assert any(line.startswith("player 1 made") and "hidden choice" in line for line in lines), lines
    assert not any("player 1 in the action phase" in line for line in lines)
    while match.state.view(2)["phase"] == "action" and not match.is_terminal():
        if match.state.is_chance_node():
            match.play_chance()
        else:
            match.apply(match.state.legal_actions()[-1])
    assert match.state.view(2)["phase"] not in ("action",)
    lines = match_log(match, start, 2)
    assert not any("hidden" in line for line in lines), lines
    assert any(line.startswith("player 1 in the action phase") or (line.startswith("player") and "1" in line
               and "in the action phase: nothing" in line) for line in lines), lines


def test_the_secret_phases_are_the_views_phases():
    from aiplay.games.area1851.view import _PHASES
    assert set(SECRET_PHASES) <= set(_PHASES)
    assert CHANCE < 0
