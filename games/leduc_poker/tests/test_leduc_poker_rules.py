"""Hand-written scenarios for the Leduc poker reference engine.

Card ids: in two-player Leduc card ``c`` has rank ``c // 2`` (0 J1, 1 J2, 2 Q1, 3 Q2, 4 K1, 5 K2).

Moved from ``tests/test_poker_rules.py`` (the Kuhn and Leduc scenarios, split by game).
"""

from __future__ import annotations

import json
import random
from typing import List

import pytest

import aiplay
from aiplay import CHANCE, IllegalActionError, InvalidOptionError, InvalidStateError
from aiplay.games.leduc_poker import CALL, FOLD, RAISE


J1, J2, Q1, Q2, K1, K2 = range(6)


def leduc(*actions: int, **options):
    state = aiplay.load("leduc_poker", backend="reference", **options).new_initial_state()
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


# -- Leduc poker --------------------------------------------------------------

class TestLeducRules:
    def test_raise_call_then_public_card_and_pair_beats_high_card(self):
        state = leduc(K1, Q1)
        assert state.current_player() == 0
        assert state.legal_actions() == [CALL, RAISE]  # no fold with nothing to call
        state.apply_action(RAISE)  # 1 + 2 chips
        assert state.legal_actions() == [FOLD, CALL, RAISE]
        state.apply_action(CALL)
        assert state.current_player() == CHANCE  # the public card
        assert state.chance_outcomes() == [(J1, 0.25), (J2, 0.25), (Q2, 0.25), (K2, 0.25)]
        state.apply_action(Q2)  # player 1 pairs queens
        assert state.current_player() == 0
        for action in (CALL, RAISE, CALL):  # check, raise 4, call
            state.apply_action(action)
        assert state.is_terminal()
        assert state.returns() == [-7.0, 7.0]

    def test_high_card_then_kicker_decide_without_a_pair(self):
        state = leduc(K1, Q1, CALL, CALL, J1, CALL, CALL)
        assert state.returns() == [1.0, -1.0]

    def test_fold_ends_the_hand_without_a_public_card(self):
        state = leduc(J1, K1, RAISE, FOLD)
        assert state.is_terminal()
        assert state.public_card is None
        assert state.returns() == [1.0, -1.0]

    def test_at_most_two_raises_per_round(self):
        state = leduc(J1, K1, RAISE, RAISE)
        assert state.legal_actions() == [FOLD, CALL]
        before = state.to_json()
        with pytest.raises(IllegalActionError) as info:
            state.apply_action(RAISE)
        assert info.value.legal_actions == [FOLD, CALL]
        assert state.to_json() == before

    def test_equal_hands_split_the_pot(self):
        # J1 and J2 both make jack-king; seat 2 folded its queen.
        state = leduc(J1, J2, Q1, RAISE, CALL, FOLD, K1, CALL, CALL, players=3)
        assert state.is_terminal()
        assert state.returns() == [0.5, 0.5, -1.0]

    def test_starting_player_opens_both_rounds(self):
        state = leduc(J1, J2, Q1, players=3, starting_player=2)
        assert state.current_player() == 2
        state.apply_action(RAISE)
        state.apply_action(FOLD)  # seat 0
        state.apply_action(CALL)  # seat 1
        state.apply_action(K1)
        assert state.current_player() == 2
        # Seat 2 checks, seat 0 raises, seat 1 calls, seat 2 folds.
        state = leduc(J1, J2, Q1, CALL, RAISE, CALL, FOLD, K1, players=3, starting_player=2)
        assert state.current_player() == 0  # seat 2 folded: the next seat opens

    def test_starting_player_must_be_a_seat(self):
        with pytest.raises(InvalidOptionError, match="starting_player"):
            aiplay.load("leduc_poker", backend="reference", players=3, starting_player=3)

    def test_action_mapping_plays_illegal_actions_as_calls(self):
        state = leduc(J1, K1, action_mapping=True)
        assert state.legal_actions() == [FOLD, CALL, RAISE]
        state.apply_action(FOLD)  # nothing to call: a check
        assert not state.is_terminal() and state.round1 == [CALL]
        state.apply_action(RAISE)
        state.apply_action(RAISE)
        state.apply_action(RAISE)  # a third raise is a call
        assert state.round1 == [CALL, RAISE, RAISE, CALL]
        assert state.current_player() == CHANCE

    def test_suit_isomorphism_deals_ranks(self):
        state = leduc(suit_isomorphism=True)
        assert state.chance_outcomes() == [(rank, pytest.approx(1 / 3)) for rank in range(3)]
        state.apply_action(1)
        assert state.chance_outcomes() == [(0, 0.4), (1, 0.2), (2, 0.4)]
        state.apply_action(1)
        assert state.chance_outcomes() == [] and state.current_player() == 0
        for action in (CALL, CALL):
            state.apply_action(action)
        assert [r for r, _ in state.chance_outcomes()] == [0, 2]  # both queens are out

    def test_action_strings_parse_back(self):
        for options in ({"players": 3}, {"suit_isomorphism": True}):
            for state in random_states("leduc_poker", 20, **options):
                for action in state.legal_actions():
                    assert state.string_to_action(state.action_to_string(action)) == action
        assert leduc().action_to_string(K2) == "Deal K2 to player 0"
        assert leduc(J1, K1, CALL, CALL).action_to_string(Q1) == "Public card Q1"


# -- serialization --------------------------------------------------------------

ENGINES = [("leduc_poker", {}),
           ("leduc_poker", {"players": 3, "suit_isomorphism": True, "starting_player": 1})]


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


def _leduc_doc(**changes):
    # K1 vs Q1, raise-call, public Q2, then player 0 checks.
    data = {"private_cards": [K1, Q1], "public_card": Q2, "round1": [RAISE, CALL], "round2": [CALL],
            "pot": 6, "contributions": [3, 3]}
    data.update(changes)
    return data


@pytest.mark.parametrize("data, field", [
    (_leduc_doc(private_cards=[K1, K1]), "state.private_cards[1]"),  # a card dealt twice
    (_leduc_doc(public_card=K1), "state.public_card"),  # the public card is someone's
    (_leduc_doc(private_cards=[K1, 6]), "state.private_cards[1]"),
    (_leduc_doc(round1=[RAISE, RAISE, RAISE, CALL]), "state.round1[2]"),  # a third raise
    (_leduc_doc(round1=[FOLD]), "state.round1[0]"),  # fold with nothing to call
    (_leduc_doc(round1=[RAISE]), "state.public_card"),  # first round not over
    (_leduc_doc(round1=[RAISE, FOLD]), "state.public_card"),  # the hand is over
    (_leduc_doc(public_card=None), "state.round2[0]"),
    (_leduc_doc(round2=[CALL, CALL, CALL]), "state.round2[2]"),
    (_leduc_doc(pot=7), "state.pot"),
    (_leduc_doc(contributions=[3, 5]), "state.contributions[1]"),
    (_leduc_doc(contributions=[3]), "state.contributions"),
    (_leduc_doc(round1="RC"), "state.round1"),
    ({k: v for k, v in _leduc_doc().items() if k != "pot"}, "state.pot"),
])
def test_leduc_rejects_malformed_states(data, field):
    game = aiplay.load("leduc_poker", backend="reference")
    game.state_from_dict(_leduc_doc())  # the unmodified document is valid
    with pytest.raises(InvalidStateError) as info:
        game.state_from_dict(data)
    assert info.value.field == field


def test_document_for_other_options_is_rejected():
    text = leduc(J1, K1).to_json()
    other = aiplay.load("leduc_poker", backend="reference", players=3)
    with pytest.raises(InvalidStateError) as info:
        other.state_from_json(text)
    assert info.value.field == "options"


# -- illegal actions ------------------------------------------------------------

@pytest.mark.parametrize("make, action", [
    pytest.param(lambda: leduc(J1, K1), FOLD, id="leduc-fold-with-nothing-to-call"),
    pytest.param(lambda: leduc(J1), J1, id="leduc-card-already-dealt"),
    pytest.param(lambda: leduc(J1, K1, RAISE, FOLD), CALL, id="leduc-game-over"),
    pytest.param(lambda: leduc(J1, K1), True, id="leduc-not-an-int"),
])
def test_illegal_action_leaves_the_state_unchanged(make, action):
    state = make()
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert state.to_json() == before


# -- hidden information -----------------------------------------------------------

def test_leduc_view_redacts_the_other_cards():
    view = leduc(J1, K1, RAISE, CALL, Q2).view(0)
    assert [seat["card"] for seat in view["seats"]] == ["J1", None]
    assert view["public_card"] == "Q2" and view["round"] == 2
    assert view["betting"] == [["raise", "call"], []] and [s["chips_in"] for s in view["seats"]] == [3, 3]
    json.dumps(view)


def test_information_state_hides_the_opponents_card():
    a, b = leduc(J1, K1, CALL, CALL, Q1), leduc(J1, K2, CALL, CALL, Q1)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)


@pytest.mark.parametrize("make, observer", [
    pytest.param(lambda: leduc(J1, K1, RAISE, CALL, Q2), 0, id="leduc-2p-round2"),
    pytest.param(lambda: leduc(J1, K1, RAISE), 1, id="leduc-2p-round1"),
    pytest.param(lambda: leduc(J1, Q1, J2, players=3), 2, id="leduc-3p"),
    pytest.param(lambda: leduc(0, 1, suit_isomorphism=True), 0, id="leduc-suit-isomorphism"),
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


def test_determinize_after_a_showdown_keeps_the_result():
    # Player 0 lost with J-Q to an unseen card; every sample must beat J-Q too
    # (J2 would tie, so it is never drawn).
    state = leduc(J1, K1, CALL, CALL, Q1, CALL, CALL)
    assert state.returns() == [-1.0, 1.0]
    hidden = set()
    for seed in range(40):
        sample = state.determinize(0, random.Random(seed))
        assert sample.information_state_string(0) == state.information_state_string(0)
        assert sample.returns() == state.returns()
        hidden.add(sample.private_cards[1])
    assert hidden == {Q2, K1, K2}


def test_float_betting_actions_are_rejected_on_both_engines():
    """`1.0 in (0, 1)` is true in Python; a float in the history must not load (the engines wrote it back differently)."""
    leduc_game = aiplay.load("leduc_poker", players=3)
    leduc = {"format": "aiplay-state", "version": 1, "game": "leduc_poker", "options": leduc_game.options,
             "state": {"contributions": [3, 1, 1], "pot": 5, "private_cards": [7, 5, 6], "public_card": None,
                       "round1": [2.0], "round2": []}}
    for doc, options, field in ((leduc, {"players": 3}, "state.round1[0]"),):
        for backend in ("reference", "native"):
            game = aiplay.load(doc["game"], backend=backend, **options)
            with pytest.raises(aiplay.InvalidStateError) as error:
                game.state_from_json(json.dumps(doc))
            assert error.value.field == field
