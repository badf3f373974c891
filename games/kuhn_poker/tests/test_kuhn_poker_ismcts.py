"""ISMCTS on Kuhn poker positions: exact values, information sets, tree sizes.

Moved from ``tests/test_search_ismcts.py`` (its positions, action ids and values are this game's).
"""

from __future__ import annotations

import pytest

import aiplay
from aiplay.search import ISMCTSBot


# Kuhn poker (OpenSpiel's ids): cards 0=J, 1=Q, 2=K; actions 0=pass/fold, 1=bet/call.
JACK, QUEEN, KING = 0, 1, 2
PASS, BET = 0, 1


def kuhn_state(*actions):
    state = aiplay.load("kuhn_poker", backend="reference").new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def without_time(analysis):
    data = analysis.to_dict()
    del data["counters"]["seconds"]  # wall-clock: the only non-reproducible field
    return data


def test_search_sees_only_the_information_state():
    # Same seed, same information for player 0, different hidden card of
    # player 1: the search must be identical, or it peeked.
    for p0_card in (JACK, QUEEN, KING):
        analyses = []
        for p1_card in {JACK, QUEEN, KING} - {p0_card}:
            state = kuhn_state(p0_card, p1_card, PASS, BET)
            analyses.append(without_time(ISMCTSBot(iterations=150, seed=3).analyse(state)))
        assert analyses[0] == analyses[1]


def test_nodes_budget_ends_once_the_tree_is_complete():
    # From Kuhn's last decision the tree has 3 nodes; the budget counts
    # states stepped into, so it still ends.
    analysis = ISMCTSBot(nodes=3000, seed=0).analyse(kuhn_state(KING, JACK, PASS, BET))
    assert analysis.counters["tree_nodes"] == 3
    assert 3000 <= analysis.counters["nodes"] < 3005


def test_terminal_and_chance_states_raise():
    with pytest.raises(ValueError, match="chance"):
        ISMCTSBot(iterations=10).choose(kuhn_state())  # the deal
    over = kuhn_state(KING, JACK, BET, PASS)  # player 1 folds
    assert over.is_terminal()
    with pytest.raises(ValueError, match="terminal"):
        ISMCTSBot(iterations=10).analyse(over)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("p1_card", [JACK, QUEEN])
def test_kuhn_king_facing_a_bet_calls(seed, p1_card):
    # K after check-bet: calling always wins the showdown (+2), folding loses the ante.
    state = kuhn_state(KING, p1_card, PASS, BET)
    analysis = ISMCTSBot(iterations=200, seed=seed).analyse(state)
    assert analysis.action == BET, analysis.stats
    assert analysis.value == 2.0  # every sampled world is a won showdown


@pytest.mark.parametrize("seed", range(5))
def test_kuhn_jack_facing_a_bet_folds(seed):
    # J after check-bet: calling always loses 2, folding loses 1.
    state = kuhn_state(JACK, KING, PASS, BET)
    analysis = ISMCTSBot(iterations=200, seed=seed).analyse(state)
    assert analysis.action == PASS, analysis.stats
    assert analysis.value == -1.0


@pytest.mark.parametrize("backend", ["reference", "native"])
@pytest.mark.parametrize("variant", ["so", "mo"])
def test_both_variants_call_with_the_king_on_both_engines(variant, backend):
    """MO-ISMCTS runs on the reference loop as on the C loop: holding the King after pass-bet, call."""
    game = aiplay.load("kuhn_poker", backend=backend)
    for seed in range(3):
        state = game.new_initial_state()
        for action in (KING, JACK, PASS, BET):
            state.apply_action(action)
        assert ISMCTSBot(iterations=3000, seed=seed, variant=variant).choose(state) == BET


def test_reference_mo_ismcts_keeps_one_tree_per_player():
    """The reference MO-ISMCTS reports the searching player's tree: every iteration there, the
    other player's hidden card merged (one tree node for the hidden deal), and the same seed
    gives the same analysis."""
    state = kuhn_state(KING, JACK)
    first = ISMCTSBot(iterations=500, seed=3, variant="mo").analyse(state)
    again = ISMCTSBot(iterations=500, seed=3, variant="mo").analyse(state)
    assert without_time(first) == without_time(again)
    assert sum(s.visits for s in first.stats) == 500
    assert first.counters["tree_nodes"] > 2 * 2  # both trees grew beyond their roots
