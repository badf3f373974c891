"""Pig through the OpenSpiel adapter: the game and its options mirrored."""

from __future__ import annotations

import pyspiel
import pytest

import aiplay


@pytest.fixture(scope="module")
def registered():
    from aiplay.adapters import openspiel as spiel_adapter

    return spiel_adapter.register_all(include_hidden=True)


def test_openspiel_game_mirrors_the_aiplay_game_and_its_options(registered):
    game = pyspiel.load_game("aiplay_pig(winscore=20,players=3)")
    ours = aiplay.load("pig", winscore=20, players=3)
    assert game.num_players() == 3 and game.num_distinct_actions() == ours.num_distinct_actions
    assert game.get_parameters()["winscore"] == 20
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [0, 1]
    state.apply_action(0)  # roll
    assert state.is_chance_node()
    ours_state = ours.new_initial_state()
    ours_state.apply_action(0)
    assert state.chance_outcomes() == sorted(ours_state.chance_outcomes())
    clone = state.clone()
    clone.apply_action(0)
    assert state.is_chance_node() and not clone.is_chance_node()  # the clone is independent
    with pytest.raises(Exception, match="winscore"):
        pyspiel.load_game("aiplay_pig(winscore=0)")
