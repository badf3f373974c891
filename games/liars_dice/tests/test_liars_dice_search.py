"""Searches on Liar's Dice: the native kernel's hidden-information checks on more variants, and
ISMCTS (native) finding the plain moves."""

from __future__ import annotations

import pytest

import aiplay
from aiplay.search import make_bot
from aiplay.testing.differential import check_determinize, check_info_keys

#: Variants beyond the contract options: many dice, both rules, three and four players.
INFO_OPTIONS = [{"numdice": 3}, {"players": 3, "numdice": 2, "dice_sides": 4, "bidding_rule": "reset-quantity"},
                {"players": 4, "numdice": 2, "dice_sides": 3}]
INFO_IDS = ["2x3d6", "3p-2d4-reset-quantity", "4p-2d3"]


@pytest.mark.parametrize("options", INFO_OPTIONS, ids=INFO_IDS)
def test_native_info_keys_partition_like_the_reference_strings(options):
    check_info_keys("liars_dice", options)


@pytest.mark.parametrize("options", INFO_OPTIONS, ids=INFO_IDS)
def test_native_determinize_keeps_the_information_state(options):
    check_determinize("liars_dice", options)


def _state(*moves, **options):
    state = aiplay.load("liars_dice", backend="native", **options).new_initial_state()
    for move in moves:
        state.apply_action(move)
    return state


@pytest.mark.parametrize("seed", range(3))
def test_native_ismcts_calls_an_impossible_bid(seed):
    # Seat 1 holds a 2; seat 0 bid "2-3" (id 8): it holds only if seat 0's die is a 3 or 6 and
    # seat 1's matched, which it does not. Calling wins surely; any raise can lose.
    state = _state(2, 1, 8)
    assert make_bot("ismcts", iterations=2000, seed=seed).choose(state) == 12


@pytest.mark.parametrize("seed", range(3))
def test_native_ismcts_does_not_call_a_bid_it_holds_itself(seed):
    # Seat 1 holds a 6 (wild); seat 0 bid "1-4": seat 1's own die makes it true, so Liar loses surely.
    state = _state(3, 5, 3)
    assert make_bot("ismcts", iterations=2000, seed=seed).choose(state) != 12


def test_native_ismcts_runs_at_every_option_extreme():
    # The largest game the options allow: 4 players x 5 dice x 8 sides, 161 actions.
    state = _state(*([4] * 20), players=4, numdice=5, dice_sides=8)
    analysis = make_bot("ismcts", iterations=3000, seed=0).analyse(state)
    assert analysis.counters["iterations"] == 3000
    assert analysis.action in state.legal_actions()
