"""Hand-written scenarios for the Kuhn poker reference engine.

Card ids: Kuhn's cards are ranks ``0..players``.

Moved from ``tests/test_poker_rules.py`` (the Kuhn and Leduc scenarios, split by game).
"""

from __future__ import annotations

import json
import random
from typing import List

import pytest

import aiplay
from aiplay import CHANCE, TERMINAL, IllegalActionError, InvalidStateError
from aiplay.games.kuhn_poker import BET, PASS


def kuhn(*actions: int, players: int = 2):
    state = aiplay.load("kuhn_poker", backend="reference", players=players).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def random_states(name: str, seeds: int, **options) -> List[aiplay.State]:
    """Every state met along ``seeds`` random playouts."""
    game = aiplay.load(name, backend="reference", **options)
    states = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new_initial_state()
        states.append(state.clone())
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            states.append(state.clone())
    return states


class TestKuhnRules:
    def test_deal_is_uniform_over_the_cards_left(self):
        state = kuhn()
        assert state.current_player() == CHANCE
        assert state.chance_outcomes() == [(card, pytest.approx(1 / 3)) for card in range(3)]
        state.apply_action(1)
        assert state.chance_outcomes() == [(0, 0.5), (2, 0.5)]
        state.apply_action(2)
        assert state.current_player() == 0
        assert state.legal_actions() == [PASS, BET]

    def test_pass_pass_high_card_wins_one(self):
        state = kuhn(2, 0, PASS, PASS)  # K vs J
        assert state.is_terminal()
        assert state.returns() == [1.0, -1.0]

    def test_bet_fold_wins_the_antes_even_with_the_lower_card(self):
        state = kuhn(0, 2, BET, PASS)  # J bets, K folds
        assert state.is_terminal()
        assert state.returns() == [1.0, -1.0]

    def test_bet_call_goes_to_showdown(self):
        state = kuhn(2, 0, BET, BET)
        assert state.returns() == [2.0, -2.0]
        state = kuhn(0, 1, BET, BET)
        assert state.returns() == [-2.0, 2.0]

    def test_pass_bet_gives_the_opener_one_more_turn(self):
        state = kuhn(0, 2, PASS, BET)
        assert state.current_player() == 0
        assert state.returns() == [0.0, 0.0]
        state.apply_action(BET)
        assert state.is_terminal() and state.returns() == [-2.0, 2.0]

    def test_three_players_best_card_among_those_who_bet(self):
        # Seat 0 holds the best card but checks, then folds to seat 1's bet.
        state = kuhn(3, 1, 0, PASS, BET, BET, players=3)
        assert state.current_player() == 0  # everyone answers the bet once
        state.apply_action(PASS)
        assert state.is_terminal()
        assert state.returns() == [-1.0, 3.0, -2.0]

    def test_action_strings_parse_back(self):
        for state in random_states("kuhn_poker", 20, players=3):
            for action in state.legal_actions():
                assert state.string_to_action(state.action_to_string(action)) == action
        assert kuhn().action_to_string(2) == "Deal K to player 0"


# -- serialization --------------------------------------------------------------

ENGINES = [("kuhn_poker", {}), ("kuhn_poker", {"players": 3})]


def _engine_id(name: str, options: dict) -> str:
    return f"{name}[{','.join(f'{k}={v}' for k, v in options.items()) or 'defaults'}]"


@pytest.mark.parametrize("name, options", [pytest.param(n, o, id=_engine_id(n, o)) for n, o in ENGINES])
def test_json_round_trip_keeps_everything(name, options):
    game = aiplay.load(name, backend="reference", **options)
    for state in random_states(name, 30, **options):
        loaded = game.state_from_json(state.to_json())
        assert loaded.to_json() == state.to_json()
        assert loaded.current_player() == state.current_player()
        assert loaded.legal_actions() == state.legal_actions()
        assert loaded.chance_outcomes() == state.chance_outcomes()
        assert loaded.returns() == state.returns()
        for player in range(game.num_players):
            assert loaded.information_state_string(player) == state.information_state_string(player)


def _kuhn_doc(**changes):
    data = {"cards": [2, 0], "betting": [PASS, BET], "pot": 3}
    data.update(changes)
    return data


@pytest.mark.parametrize("data, field", [
    (_kuhn_doc(cards=[1, 1]), "state.cards[1]"),  # a card dealt twice
    (_kuhn_doc(cards=[None, 1], betting=[], pot=2), "state.cards[1]"),  # dealt out of order
    (_kuhn_doc(cards=[3, 0]), "state.cards[0]"),
    (_kuhn_doc(cards=[2]), "state.cards"),
    (_kuhn_doc(betting=[BET, BET, PASS], pot=4), "state.betting[2]"),  # after the showdown
    (_kuhn_doc(betting=[2]), "state.betting[0]"),
    (_kuhn_doc(cards=[2, None]), "state.betting[0]"),  # betting before the deal is over
    (_kuhn_doc(pot=2), "state.pot"),
    (_kuhn_doc(pot="3"), "state.pot"),
    (dict(_kuhn_doc(), extra=1), "state.extra"),
    ({"cards": [2, 0], "pot": 2}, "state.betting"),
])
def test_kuhn_rejects_malformed_states(data, field):
    game = aiplay.load("kuhn_poker", backend="reference")
    with pytest.raises(InvalidStateError) as info:
        game.state_from_dict(data)
    assert info.value.field == field


# -- illegal actions ------------------------------------------------------------

@pytest.mark.parametrize("make, action", [
    pytest.param(lambda: kuhn(), 3, id="kuhn-no-such-card"),
    pytest.param(lambda: kuhn(1), 1, id="kuhn-card-already-dealt"),
    pytest.param(lambda: kuhn(1, 2), 2, id="kuhn-not-a-betting-action"),
    pytest.param(lambda: kuhn(1, 2, BET, BET), PASS, id="kuhn-game-over"),
])
def test_illegal_action_leaves_the_state_unchanged(make, action):
    state = make()
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert state.to_json() == before


# -- hidden information -----------------------------------------------------------

def test_kuhn_view_redacts_the_other_cards():
    view = kuhn(2, 0, 1, players=3).view(1)
    assert [seat["card"] for seat in view["seats"]] == [None, "T", None]  # four ranks: T J Q K
    assert view["phase"] == "betting" and view["to_move"] == 0 and view["pot"] == 3
    json.dumps(view)


def test_information_state_hides_the_opponents_card():
    assert kuhn(2, 0, BET).information_state_string(0) == kuhn(2, 1, BET).information_state_string(0)
    assert kuhn(2, 0, BET).information_state_string(1) != kuhn(2, 1, BET).information_state_string(1)


@pytest.mark.parametrize("make, observer", [
    pytest.param(lambda: kuhn(2, 0, BET), 0, id="kuhn-2p"),
    pytest.param(lambda: kuhn(1, 3, 0, PASS, BET, players=3), 1, id="kuhn-3p"),
    # Mid-deal: seat 2's card must stay undealt.
    pytest.param(lambda: kuhn(1, 3, players=3), 0, id="kuhn-3p-mid-deal"),
])
def test_determinize_keeps_the_information_state_and_varies_the_hidden_cards(make, observer):
    state = make()
    key = state.information_state_string(observer)
    hidden_seats = [p for p in range(state.game.num_players) if p != observer]
    seen = set()
    for seed in range(40):
        sample = state.determinize(observer, random.Random(seed))
        assert sample.information_state_string(observer) == key
        if not state.is_chance_node():  # the cards left to deal do differ
            assert sample.legal_actions() == state.legal_actions()
        cards = sample.to_dict().get("private_cards", sample.to_dict().get("cards"))
        original = state.to_dict().get("private_cards", state.to_dict().get("cards"))
        assert cards[observer] == original[observer]
        assert [c is None for c in cards] == [c is None for c in original]  # undealt stays undealt
        dealt = [c for c in cards if c is not None]
        public = sample.to_dict().get("public_card")
        if not sample.game.options.get("suit_isomorphism"):
            assert len(set(dealt + [public])) == len(dealt) + 1  # no card twice
        # The sample's deck agrees with its cards: it reloads and plays on.
        sample.game.state_from_json(sample.to_json())
        seen.add(tuple(cards[p] for p in hidden_seats))
    assert len(seen) > 1
    assert state.to_json() == make().to_json()  # the original is untouched


def test_determinize_matches_the_deal_frequencies():
    # Kuhn, 3 players, seat 0 holds card 1: the others hold two of {0, 2, 3}.
    state = kuhn(1, 0, 2, players=3)
    counts = {}
    rng = random.Random(7)
    for _ in range(3000):
        card = state.determinize(0, rng).cards[1]
        counts[card] = counts.get(card, 0) + 1
    assert set(counts) == {0, 2, 3}
    assert all(800 < c < 1200 for c in counts.values())


def test_terminal_and_player_ids_follow_openspiel():
    assert kuhn(2, 0, PASS, PASS).current_player() == TERMINAL == -4
    assert kuhn().current_player() == CHANCE == -1


def test_float_betting_actions_are_rejected_on_both_engines():
    """`1.0 in (0, 1)` is true in Python; a float in the history must not load (the engines wrote it back differently)."""
    kuhn = {"format": "aiplay-state", "version": 1, "game": "kuhn_poker", "options": {"players": 2},
            "state": {"betting": [0, 1.0], "cards": [0, 1], "pot": 3}}
    for doc, options, field in ((kuhn, {}, "state.betting[1]"),):
        for backend in ("reference", "native"):
            game = aiplay.load(doc["game"], backend=backend, **options)
            with pytest.raises(aiplay.InvalidStateError) as error:
                game.state_from_json(json.dumps(doc))
            assert error.value.field == field
