"""Leduc poker's kernel against its reference engine: determinize after a showdown, split pots, and the
hidden-information checks on the variants whose deck or betting differs."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import aiplay
from aiplay.testing.differential import check_determinize, check_info_keys

#: The variants whose deck or betting differs (the generic checks run the contract options).
INFO_OPTIONS = [{"suit_isomorphism": True}, {"players": 3, "action_mapping": True, "starting_player": 1}]


@pytest.mark.parametrize("options", INFO_OPTIONS, ids=["suit_isomorphism", "3p-action_mapping-start1"])
def test_native_info_keys_partition_like_the_reference_strings(options):
    check_info_keys("leduc_poker", options)


@pytest.mark.parametrize("options", INFO_OPTIONS, ids=["suit_isomorphism", "3p-action_mapping-start1"])
def test_native_determinize_keeps_the_information_state(options):
    check_determinize("leduc_poker", options)


def test_native_leduc_determinize_after_a_showdown_keeps_the_winners():
    # As the reference test: seat 0 lost with J-Q to an unseen card; every
    # sample must beat J-Q too (J2 would tie, so it is never drawn).
    j1, k1, q1 = 0, 4, 2
    game = aiplay.load("leduc_poker", backend="native")
    state = game.new_initial_state()
    for action in (j1, k1, 1, 1, q1, 1, 1):
        state.apply_action(action)
    assert state.returns() == [-1.0, 1.0]
    hidden = Counter(state.determinize(0, random.Random(seed)).to_dict()["private_cards"][1] for seed in range(60))
    assert set(hidden) == {3, 4, 5}  # Q2, K1, K2


@pytest.mark.parametrize("name,options", [("leduc_poker", {"players": 3}),
                                          ("leduc_poker", {"players": 4, "suit_isomorphism": True})])
def test_native_returns_are_bit_identical(name, options):
    # The harness compares returns with a tolerance; the kernels promise equality,
    # split pots (halves, thirds) included.
    reference = aiplay.load(name, backend="reference", **options)
    native = aiplay.load(name, backend="native", **options)
    splits = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = aiplay.play_out(reference.new_initial_state(), rng)
        assert native.from_reference(state).returns() == state.returns()
        splits += sum(r > 0 for r in state.returns()) > 1
    if name == "leduc_poker":
        assert splits > 0, "no split pot was played"
