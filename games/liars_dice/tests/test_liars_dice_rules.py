"""Liar's Dice rules that the generic tests cannot know: bid ids, the wild face, who wins a call,
three players, sorting, refused documents, and the probability heuristic's choices."""

from __future__ import annotations

import random

import pytest

import aiplay
from aiplay.errors import AiplayError, InvalidOptionError, InvalidStateError
from aiplay.games.liars_dice.heuristic import bid_chance, probability_policy

ENGINES = ["reference", "native"]


def play(backend, moves, **options):
    state = aiplay.load("liars_dice", backend=backend, **options).new_initial_state()
    for move in moves:
        state.apply_action(move)
    return state


def roll(*faces):
    """Chance actions for the faces ``faces`` (face f is outcome f - 1)."""
    return [f - 1 for f in faces]


@pytest.mark.parametrize("backend", ENGINES)
def test_bid_ids_follow_the_bidding_rule(backend):
    face = play(backend, roll(1, 1))
    assert [face.action_to_string(a) for a in (0, 5, 6, 11, 12)] == ["1-1", "1-6", "2-1", "2-6", "Liar"]
    quantity = play(backend, roll(1, 1), bidding_rule="reset-quantity")
    assert [quantity.action_to_string(a) for a in (0, 1, 2, 11, 12)] == ["1-1", "2-1", "1-2", "2-6", "Liar"]


@pytest.mark.parametrize("backend", ENGINES)
def test_liar_is_legal_only_after_a_bid_and_bids_only_go_up(backend):
    state = play(backend, roll(3, 4))
    assert state.current_player() == 0 and state.legal_actions() == list(range(12))
    state.apply_action(7)  # 2-2
    assert state.current_player() == 1 and state.legal_actions() == list(range(8, 13))
    state.apply_action(11)  # 2-6: the highest bid, only Liar is left
    assert state.legal_actions() == [12]
    with pytest.raises(AiplayError):
        state.apply_action(10)
    assert state.legal_actions() == [12]  # unchanged


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("dice, bid, bidder_wins", [
    ((2, 6), 7, True),    # "2-2": a 2 and the wild 6
    ((2, 5), 7, False),   # "2-2": one 2 only
    ((6, 6), 11, True),   # "2-6": the wild face counts once for itself
    ((6, 1), 11, False),
    ((3, 3), 2, True),    # "1-3"
])
def test_the_highest_face_is_wild_and_the_call_settles_the_game(backend, dice, bid, bidder_wins):
    # Seat 0 bids, seat 1 calls Liar.
    state = play(backend, roll(*dice) + [bid, 12])
    assert state.is_terminal()
    assert state.returns() == ([1.0, -1.0] if bidder_wins else [-1.0, 1.0])


@pytest.mark.parametrize("backend", ENGINES)
def test_three_players_bid_in_turn_and_the_third_seat_scores_nothing(backend):
    # Seat 0 bids 1-1, seat 1 bids 3-1, seat 2 calls: three dice, faces 1, 2, 3: one match only.
    state = play(backend, roll(1, 2, 3) + [0, 12, 18], players=3)
    assert state.is_terminal()
    assert state.returns() == [0.0, -1.0, 1.0]
    state = play(backend, roll(1, 2, 3) + [0, 6, 7, 18], players=3)  # 1-1, 2-1, 2-2, seat 0 calls 2-2
    assert state.returns() == [1.0, 0.0, -1.0]  # only one 2 (and no wild 6): the caller wins


@pytest.mark.parametrize("backend", ENGINES)
def test_dice_keep_their_roll_order_until_all_are_rolled_then_are_sorted(backend):
    state = play(backend, roll(5, 2, 4), numdice=2)
    assert state.information_state_string(0) == "52"
    assert state.information_state_string(1) == "4-1"  # OpenSpiel prints an unrolled die as -1
    state.apply_action(0)
    assert state.information_state_string(0) == "25"
    assert state.information_state_string(1) == "14"
    assert state.to_dict()["dice"] == [[2, 5], [1, 4]]


@pytest.mark.parametrize("backend", ENGINES)
@pytest.mark.parametrize("data, field", [
    ({"dice": [[5, 2], [1, 4]], "bids": []}, "state.dice"),               # all rolled, not sorted
    ({"dice": [[None, 2], [None, None]], "bids": []}, "state.dice[0][1]"),  # out of roll order
    ({"dice": [[1, 2], [3, None]], "bids": [0]}, "state.bids[0]"),          # a bid before the last roll
    ({"dice": [[1, 2], [3, 4]], "bids": [24]}, "state.bids[0]"),            # Liar first
    ({"dice": [[1, 2], [3, 4]], "bids": [5, 5]}, "state.bids[1]"),          # not higher
    ({"dice": [[1, 2], [3, 4]], "bids": [5, 24, 7]}, "state.bids[2]"),      # after the call
    ({"dice": [[1, 9], [3, 4]], "bids": []}, "state.dice[0][1]"),           # no such face
    ({"dice": [[1, 2]], "bids": []}, "state.dice"),                         # a seat missing
])
def test_impossible_documents_are_refused_naming_the_field(backend, data, field):
    game = aiplay.load("liars_dice", backend=backend, numdice=2)
    with pytest.raises(InvalidStateError) as error:
        game.state_from_dict(data)
    assert field in str(error.value)


def test_options_outside_the_kernel_s_arrays_are_refused():
    for options in ({"players": 5}, {"numdice": 6}, {"dice_sides": 1}, {"dice_sides": 9},
                    {"bidding_rule": "reset-dice"}, {"bidding_rule": 1}):
        with pytest.raises(InvalidOptionError):
            aiplay.load("liars_dice", **options)


def test_bid_chance_is_an_exact_binomial_tail():
    # Two unseen six-sided dice, own die 3: "2-3" needs one more 3 or 6 among two dice.
    assert bid_chance(8, [3], 2, 6, 3, True) == 36 - 4 * 4
    assert bid_chance(0, [1], 2, 6, 3, True) == 36  # held already
    assert bid_chance(17, [1], 2, 6, 3, True) == 0  # "3-6" with a 1 held: two unseen dice cannot make three 6s
    assert bid_chance(17, [6], 2, 6, 3, True) == 1  # with a 6 held: both unseen dice must be 6


@pytest.mark.parametrize("backend", ENGINES)
def test_the_heuristic_calls_an_impossible_bid_and_makes_a_sure_one(backend):
    # Seat 1 holds a 2; seat 0 bid "2-3": true only if seat 0's single die were 3 and seat 1's matched.
    state = play(backend, roll(3, 2) + [8])
    assert probability_policy(state, random.Random(0)) == 12
    # Seat 0 holds a 4 and opens: "1-4" is its only certain bid (any other needs the unseen die),
    # and the heuristic makes one of its likeliest bids.
    first = play(backend, roll(4, 2))
    choices = {probability_policy(first, random.Random(seed)) for seed in range(20)}
    assert choices == {3}  # "1-4": the only bid it is sure of
