"""Area 51 scenarios from the rulebook and the spec rulings (games/area51)."""

from __future__ import annotations

import json
import random

import pytest

import aiplay
from aiplay import IllegalActionError, InvalidStateError
from aiplay.game import sample_chance_outcome
from aiplay.games.area51 import actions as A
from aiplay.games.area51.components import NUM_CARDS, ROUTES, START_COUNTS, TOTAL_COUNTS, type_name
from aiplay.games.area51.render import render

from area51_helpers import T, counts, names, play, position

WHITE, PINK, YELLOW, BLUE = 0, 1, 2, 3  # owners = seats with 4 players
GREEN_C, BLUE_C, BROWN_C, ORANGE_C = 0, 1, 2, 3


def game(players=4, **options):
    return aiplay.load("area51", backend="reference", players=players, **options)


def to_decision(state, rng):
    return aiplay.skip_chance(state, rng)


# -- set-up and chance -------------------------------------------------------
@pytest.mark.parametrize("players,top", [(2, 14), (3, 1), (4, 4), (5, 7), (6, 10)])
def test_setup_deals_start_cards_and_layers_the_deck(players, top):
    g = game(players)
    state = g.new_initial_state()
    assert state.is_chance_node()
    # The first deal comes from the 40 start cards, in proportion to their copies.
    outcomes = dict(state.chance_outcomes())
    assert outcomes[T("green 1")] == pytest.approx(5 / 40)
    assert T("blue 4") not in outcomes
    to_decision(state, random.Random(players))
    assert state.current_player() == 0 and state.phase == "play"
    assert [state.hand_size(p) for p in range(players)] == [5] * players
    assert all(START_COUNTS[t] >= c for h in state.hands for t, c in enumerate(h))
    assert sum(state.row) == 6
    assert state.top_left == max(0, top - 6)
    assert state.deck_size() == NUM_CARDS - 5 * players - 6
    regions = [len(s) for s in state.spaces]
    assert regions == {2: [8, 5, 5], 3: [5, 5, 5], 4: [8, 5, 5], 5: [8, 8, 5], 6: [8, 8, 8]}[players]
    assert state.towers == {2: [5, 4, 4, 4], 3: [4, 3, 3, 3], 4: [5, 4, 4, 4], 5: [5, 4, 4, 4],
                            6: [5, 5, 5, 5]}[players]


def test_draws_come_from_the_start_remainder_while_the_top_layer_lasts():
    g = game(6)  # 10 start cards stay on top; 6 are revealed at set-up
    state = to_decision(g.new_initial_state(), random.Random(3))
    assert state.top_left == 4
    play(state, "collect", "take deck top")
    assert state.is_chance_node()
    assert all(START_COUNTS[t] for t, _ in state.chance_outcomes())  # start cards only
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.top_left == 3


# -- pick up and load (rulebook example) ---------------------------------------
def example_position():
    """The rulebook's seven-card pick-up: white (seat 0) picks up a hangar of the bottom region R1."""
    g = game(4)
    spaces = {
        (1, 4): (BLUE_C, PINK, 3), (1, 3): (GREEN_C, YELLOW, 2), (1, 2): (GREEN_C, PINK, 1),
        (1, 1): (ORANGE_C, BLUE, 2),
        (2, 4): (BLUE_C, WHITE, 2), (2, 3): (BROWN_C, BLUE, 2),
        (0, 7): (BLUE_C, YELLOW, 4),
    }
    vehicles = {
        2: (ROUTES.index((1, 2)), 1),  # the blue truck leads from R1 to R2
        3: (ROUTES.index((2, 0)), 2),  # a blue train R2 -> R0: no second re-route
        4: (ROUTES.index((0, 2)), 1),  # a brown truck, but not out of R1
    }
    pile = [("brown 2", 1, 1), ("blue 2", 0, 2), ("blue 1", 1, 3), ("green 2", 0, 1), ("green 1", 0, 2),
            ("orange 1", 1, 3), ("orange 2", 0, 1)]
    return position(g, spaces=spaces, vehicles=vehicles, hangars={(1, 0): pile, (1, 1): [("green 3", 1, 2)]},
                    hands={0: ["green 1", "blue 1"], 1: ["orange 3"], 2: ["brown 1"], 3: ["blue 3"]})


def test_rulebook_pick_up_example_offers_exactly_the_described_choices():
    state = example_position()
    play(state, "pick up")
    assert names(state, state.legal_actions()) == ["pick up R1 hangar 1", "pick up R1 hangar 2"]
    play(state, "pick up R1 hangar 1")
    assert state.pile == counts(["brown 2", "blue 2", "blue 1", "green 2", "green 1", "orange 1", "orange 2"])
    assert names(state, state.legal_actions()) == sorted([
        "store blue 1 in R1/5", "store blue 1 in R2/5",  # pink's level 3, or white's via the truck
        "store blue 2 in R1/5", "store blue 2 in R2/5",
        "store green 1 in R1/3", "store green 1 in R1/4", "store green 2 in R1/4",
        "store orange 1 in R1/2", "store orange 2 in R1/2",
    ])  # brown 2: no brown bunker reachable; nothing reaches R0 (one re-route at most)


def test_rulebook_pick_up_example_recommended_sequence():
    state = example_position()
    play(state, "pick up", "pick up R1 hangar 1", "store blue 1 in R1/5")
    assert names(state, state.legal_actions()) == [
        "store blue 2 in R2/5", "store green 1 in R1/3", "store green 1 in R1/4", "store green 2 in R1/4",
        "store orange 1 in R1/2", "store orange 2 in R1/2"]
    play(state, "store blue 2 in R2/5", "store green 1 in R1/4")
    # Green 2 now fits nowhere (yellow's bunker has taken one, pink's is level 1): only orange is left.
    assert names(state, state.legal_actions()) == ["store orange 1 in R1/2", "store orange 2 in R1/2"]
    play(state, "store orange 1 in R1/2")
    # Nothing else fits: loading ends by itself and the turn passes.
    assert state.current_player() == 1 and state.step == "kind"
    assert state.scores_ == [2, 1, 1, 1]  # white 2 (own bunker), pink 1, yellow 1, blue 1
    assert state.hands[0] == counts(["green 1", "blue 1", "brown 2", "green 2", "orange 2"])
    # The leftovers entered the hand face up: everyone knows them.
    assert state.known[0] == counts(["brown 2", "green 2", "orange 2"])
    assert "orange 2" in render(state, 2)
    assert state.view(2)["seats"][0]["known_in_hand"] == {"green 2": 1, "brown 2": 1, "orange 2": 1}
    assert state.discards == counts(["blue 1", "blue 2", "green 1", "orange 1"])
    assert state.hangars[1][0] == []


def test_must_store_when_possible_and_one_artifact_per_bunker():
    state = example_position()
    play(state, "pick up", "pick up R1 hangar 1", "store orange 2 in R1/2")
    legal = names(state, state.legal_actions())
    assert not any("orange" in a for a in legal)  # blue's orange bunker already took one
    with pytest.raises(IllegalActionError):
        play(state, "store orange 1 in R1/2")
    # There is no stop action while something fits.
    assert all(A.decode(a)[0] == "store" for a in state.legal_actions())


# -- building ----------------------------------------------------------------
def test_create_bunker_example():
    g = game(4)
    state = position(g, hands={0: ["orange 2", "green 1", "blue 1"]})
    play(state, "build")
    assert "create orange bunker in R1" in names(state, state.legal_actions())
    assert "create brown bunker in R1" not in names(state, state.legal_actions())  # no brown card
    play(state, "create orange bunker in R1")
    assert names(state, state.legal_actions()) == ["face-up orange 2 to hangar 1", "face-up orange 2 to hangar 2"]
    play(state, "face-up orange 2 to hangar 1", "face-down green 1 to hangar 1")
    # Orange tower, a security marker and a white cap on the highest-numbered empty space.
    assert state.spaces[1][4] == [ORANGE_C, WHITE, 1]
    assert state.markers[1] == 10 and state.towers[ORANGE_C] == 3 and state.caps[WHITE] == 4
    assert state.hangars[1][0] == [[T("orange 2"), 1, 0], [T("green 1"), 0, 0]]
    assert state.current_player() == 1
    # Others see the face-down card only as a card.
    assert "green 1" not in render(state, 1) and "green 1*" in render(state, 0)
    assert state.view(1)["regions"][1]["hangars"][0][1] == {"card": None, "face_up": False, "played_by": 0}
    assert state.view(0)["regions"][1]["hangars"][0][1] == {"card": "green 1", "face_up": False, "played_by": 0}
    assert state.view(1)["regions"][1]["hangars"][0][0]["card"] == "orange 2"


def test_new_bunkers_fill_the_highest_free_space():
    g = game(4)
    state = position(g, spaces={(2, 4): (GREEN_C, PINK, 1)}, hands={0: ["blue 1", "blue 2"]})
    play(state, "build", "create blue bunker in R2", "face-up blue 1 to hangar 2", "face-down blue 2 to hangar 1")
    assert state.spaces[2][3] == [BLUE_C, WHITE, 1]


def test_upgrade_example_needs_face_down_cards_equal_to_the_new_level():
    g = game(4)
    state = position(g, spaces={(1, 4): (ORANGE_C, WHITE, 1), (1, 3): (ORANGE_C, PINK, 1)},
                     hands={0: ["orange 1", "green 1", "brown 3"]})
    play(state, "build")
    # Only his own bunker; the rival's is not offered.
    assert [n for n in names(state, state.legal_actions()) if n.startswith("upgrade")] == ["upgrade bunker R1/5"]
    play(state, "upgrade bunker R1/5", "face-up orange 1 to hangar 1", "face-down green 1 to hangar 2")
    assert state.spaces[1][4][2] == 1 and state.current_player() == 0  # level 2 needs a second card
    play(state, "face-down brown 3 to hangar 2")
    assert state.spaces[1][4] == [ORANGE_C, WHITE, 2] and state.markers[1] == 11 - 3
    assert state.current_player() == 1
    # Not enough cards for level 3 (1 face-up + 3 face-down): no upgrade offered.
    state = position(g, spaces={(1, 4): (ORANGE_C, WHITE, 2)}, hands={0: ["orange 1", "green 1", "brown 3"]})
    play(state, "build")
    assert "upgrade bunker R1/5" not in names(state, state.legal_actions())


def test_no_build_without_a_security_marker_in_the_region():
    g = game(3)  # small regions: 11 markers each
    state = position(g, spaces={(0, 4): (GREEN_C, 0, 6), (0, 3): (BLUE_C, 1, 5)},
                     hands={0: ["green 1", "green 2", "green 3", "blue 1", "blue 2", "blue 3", "blue 3", "brown 1"]})
    assert state.markers[0] == 0
    play(state, "build")
    assert not any("R0" in n for n in names(state, state.legal_actions()))


# -- vehicles ----------------------------------------------------------------
def test_new_vehicle_gets_the_number_of_face_down_cards():
    g = game(4)
    state = position(g, hands={0: ["green 1", "blue 1", "blue 2", "brown 3", "orange 4"]})
    play(state, "vehicle")
    legal = names(state, state.legal_actions())
    assert "green truck R1->R0" in legal and "brown train R0->R2" in legal
    play(state, "green truck R1->R0")
    assert names(state, state.legal_actions()) == ["number 1", "number 2", "number 3", "number 4"]
    play(state, "number 3", "face-up green 1 to hangar 1",
         "face-down blue 1 to hangar 1", "face-down blue 2 to hangar 2", "face-down brown 3 to hangar 1")
    assert state.vehicles[0] == [ROUTES.index((1, 0)), [[1, 3]]]  # one "3/4" marker showing 3
    assert sum(len(h) for h in state.hangars[1]) == 4  # played in the departure region
    assert state.current_player() == 1


def test_moving_a_vehicle_needs_a_higher_number_and_an_8_is_stuck():
    g = game(4)
    hand = ["green 1", "green 2"] + ["orange 3"] * 8
    state = position(g, vehicles={0: (ROUTES.index((0, 1)), 4), 6: (ROUTES.index((1, 2)), 8)}, hands={0: hand})
    play(state, "vehicle")
    legal = names(state, state.legal_actions())
    assert "green truck R2->R0" in legal and "green truck R0->R1" in legal  # move or re-number in place
    assert not any(n.startswith("orange truck") for n in legal)  # an 8 cannot be moved
    assert any(n.startswith("orange train") for n in legal)
    play(state, "green truck R2->R0")
    assert names(state, state.legal_actions()) == ["number 5", "number 6", "number 7", "number 8"]
    play(state, "number 5", "face-up green 1 to hangar 1", *["face-down orange 3 to hangar 2"] * 5)
    assert state.vehicles[0] == [ROUTES.index((2, 0)), [[2, 5]]]
    assert state.supply == [7, 6, 6 - 1, 5 - 1]  # the old 4 went back; the 8 still shows


def test_a_number_from_two_markers_when_its_marker_is_gone():
    g = game(4)
    # Six vehicles hold all six "5/6" markers.
    vehicles = {v: (0, 5 + v % 2) for v in range(6)}
    state = position(g, vehicles=vehicles, hands={0: ["orange 1"] + ["green 3"] * 7})
    assert state.supply[2] == 0
    play(state, "vehicle", "orange truck R0->R1")
    assert "number 6" in names(state, state.legal_actions())
    play(state, "number 6", "face-up orange 1 to hangar 1", *["face-down green 3 to hangar 1"] * 6)
    shown = state.vehicles[6][1]
    assert len(shown) == 2 and sum(x for _, x in shown) == 6
    assert state.supply == [7 - 1, 6 - 1, 0, 5]


# -- collecting ----------------------------------------------------------------
def test_collect_three_then_refill_and_refresh_once():
    g = game(4)
    state = position(g, row=["green 1", "green 2", "blue 1", "blue 2", "brown 1", "orange 1"],
                     hands={0: ["brown 3"]})
    play(state, "collect")
    assert "refresh discarding brown 3" in names(state, state.legal_actions())
    play(state, "refresh discarding brown 3")
    assert state.discards == counts(["green 1", "green 2", "blue 1", "blue 2", "brown 1", "orange 1", "brown 3"])
    rng = random.Random(0)
    to_decision(state, rng)
    assert sum(state.row) == 6
    assert not any(n.startswith("refresh") for n in names(state, state.legal_actions()))  # once per turn
    first = next(a for a in state.legal_actions() if A.decode(a)[0] == "take_up")
    state.apply_action(first)
    assert sum(state.row) == 5  # no refill before the third card
    play(state, "take deck top")
    to_decision(state, rng)
    state.apply_action(next(a for a in state.legal_actions() if A.decode(a)[0] == "take_up"))
    assert state.is_chance_node()  # the refill
    to_decision(state, rng)
    assert sum(state.row) == 6 and state.hand_size(0) == 3 and state.current_player() == 1
    assert sum(state.known[0]) == 2  # the two face-up cards are known to all, the deck card is not


def test_an_empty_deck_is_replaced_by_the_discards():
    g = game(4)
    state = position(g, hands={0: ["green 1"]})
    data = state.to_dict()
    # Move the whole deck to the discards.
    data["discards"], data["deck_main_pool"] = data["deck_main_pool"], [0] * 16
    state = g.state_from_dict(data)
    play(state, "collect", "take deck top")
    assert state.is_chance_node() and sum(state.discards) == 0


# -- the end ------------------------------------------------------------------
def end_position():
    """3 players: R0 empty, R1 with one marker left; the R2 hangars hold cards."""
    g = game(3)
    spaces = {(0, 4): (GREEN_C, 0, 6), (0, 3): (BLUE_C, 1, 5), (1, 4): (BROWN_C, 2, 6), (1, 3): (BLUE_C, 0, 4),
              (2, 4): (ORANGE_C, 1, 3), (2, 3): (ORANGE_C, 2, 3), (2, 1): (ORANGE_C, 0, 1)}
    hangars = {(2, 0): [("orange 1", 1, 1), ("orange 2", 0, 1)], (2, 1): [("green 1", 1, 2)]}
    hands = {0: ["blue 1", "blue 2", "green 3"], 1: ["blue 3"], 2: ["green 2"]}
    return position(g, spaces=spaces, hangars=hangars, hands=hands)


def test_end_trigger_last_turns_and_pick_up_phase():
    state = end_position()
    assert state.markers == [0, 1, 4]
    rng = random.Random(1)
    play(state, "build")
    # Level 5 needs 1 + 5 cards: not possible with this hand, so it is not offered.
    assert "upgrade bunker R1/4" not in names(state, state.legal_actions())
    play(state, "create blue bunker in R1", "face-up blue 1 to hangar 1", "face-down green 3 to hangar 2")
    assert state.markers == [0, 0, 4]
    assert state.phase == "last_turns" and state.extra_left == 3
    # Everyone gets one more regular turn, the trigger player (seat 0) last.
    for seat in (1, 2, 0):
        assert state.current_player() == seat and state.phase == "last_turns"
        assert "collect" in names(state, state.legal_actions())
        play(state, "collect")
        while not (state.current_player() != seat and not state.is_chance_node()):
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
            else:
                play(state, "take deck top")
    # Then everyone must pick up, in turn order, until the hangars are empty.
    assert state.phase == "pickup_only" and state.current_player() == 1
    assert all(A.decode(a)[0] == "pick" for a in state.legal_actions())
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
        if not state.is_terminal() and state.step == "load":
            while state.step == "load" and not state.is_terminal():
                state.apply_action(state.legal_actions()[0])
    assert all(not h for reg in state.hangars for h in reg)


def final_position(players=3, spaces=None, scores=None, hands=None):
    """The last pick-up of the game: seat 0 picks up a card nobody can store."""
    g = game(players)
    return position(g, spaces=spaces or {}, hangars={(1, 0): [("brown 1", 1, 0)]}, hands=hands or {},
                    phase="pickup_only", step="pick_target", scores=scores)


def test_highest_bunker_scoring_and_its_ties():
    # R0: level 3 on space 2, level 3 on space 5, level 1 on space 4, level 1 on space 1.
    spaces = {(0, 1): (GREEN_C, 0, 3), (0, 4): (BLUE_C, 1, 3), (0, 3): (ORANGE_C, 2, 1), (0, 0): (ORANGE_C, 0, 1),
              (2, 4): (BLUE_C, 2, 1)}
    state = final_position(spaces=spaces)
    play(state, "pick up R1 hangar 1")
    assert state.is_terminal()
    # Space 5 wins the tie (5 points), space 2 gets 3, the higher-numbered level 1 gets 2; R2: 5.
    assert state.bonus == [3, 5, 2 + 5]
    assert state.scores() == [3.0, 5.0, 7.0]
    assert state.returns() == [-0.5, -0.5, 1.0]


def test_score_tie_goes_to_the_most_cards_in_hand_then_is_shared():
    state = final_position(scores=[4, 4, 1], hands={1: ["green 1"]})
    play(state, "pick up R1 hangar 1")  # seat 0 gets the brown 1: 1 card each
    assert state.scores() == [4.0, 4.0, 1.0]
    assert state.winners() == [0, 1] and state.returns() == [0.5, 0.5, -1.0]
    state = final_position(scores=[4, 4, 1], hands={1: ["green 1", "green 2"]})
    play(state, "pick up R1 hangar 1")
    assert state.winners() == [1] and state.returns() == [-0.5, 1.0, -0.5]


def test_two_player_variant_scores_the_lower_colour():
    g = game(2)
    state = position(g, hands={0: ["blue 1", "green 1"]})
    play(state, "build")
    legal = names(state, state.legal_actions())
    assert "create blue bunker in R0 for pink" in legal and "create blue bunker in R0 for purple" in legal
    play(state, "create blue bunker in R0 for purple", "face-up blue 1 to hangar 1", "face-down green 1 to hangar 1")
    assert state.spaces[0][7] == [BLUE_C, 1, 1] and state.caps == [5, 4, 5, 5]
    # Seat 0 has 10 (pink) and 4 (purple), seat 1 has 6 and 6: seat 1 wins with 6 against 4.
    state = final_position(players=2, scores=[10, 4, 6, 6])
    play(state, "pick up R1 hangar 1")
    assert state.scores() == [4.0, 6.0] and state.returns() == [-1.0, 1.0]


def test_illegal_actions_are_rejected_without_mutation():
    state = example_position()
    before = state.to_json()
    for bad in ("store blue 1 in R1/5", "take deck top", "upgrade bunker R1/5", 630, 5):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad) if isinstance(bad, int) else play(state, bad)
        assert state.to_json() == before
    play(state, "pick up", "pick up R1 hangar 1")
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply_action(A.store(T("brown 2"), 2, 3))  # no brown vehicle out of R1
    with pytest.raises(IllegalActionError):
        state.apply_action(A.store(T("blue 1"), 0, 7))  # a second re-route
    assert state.to_json() == before


def test_action_strings_are_unique_and_parse_back():
    state = example_position()
    play(state, "pick up", "pick up R1 hangar 1")
    legal = state.legal_actions()
    texts = [state.action_to_string(a) for a in legal]
    assert len(set(texts)) == len(texts)
    assert [state.string_to_action(t) for t in texts] == legal


# -- hidden information ---------------------------------------------------------
def random_states(players, seeds, every=7):
    g = game(players)
    for seed in seeds:
        rng = random.Random(seed)
        state = g.new_initial_state()
        i = 0
        while not state.is_terminal():
            if i % every == 0:
                yield state
            i += 1
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def check_consistent(state, world, observer):
    """``world`` never contradicts what ``observer`` knows in ``state``."""
    g = state.game
    assert world.information_state_string(observer) == state.information_state_string(observer)
    assert world.hands[observer] == state.hands[observer]
    for p in range(g.players):
        assert world.hand_size(p) == state.hand_size(p)
        assert all(h >= k for h, k in zip(world.hands[p], state.known[p]))
        main_only = sum(world.hands[p][t] - world.known[p][t] for t in range(16) if not START_COUNTS[t])
        assert main_only <= world.anyc[p]
    assert all(world.top_pool[t] <= START_COUNTS[t] for t in range(16))
    assert world.knowledge_violations(observer) == [] and state.knowledge_violations(observer) == []
    for r, reg in enumerate(state.hangars):
        for h, pile in enumerate(reg):
            for a, b in zip(pile, world.hangars[r][h]):
                assert a[1:] == b[1:]
                if a[1] or a[2] == observer:
                    assert a[0] == b[0]
    for field in ("row", "discards", "pile", "scores_", "spaces", "vehicles", "top_left"):
        assert getattr(world, field) == getattr(state, field)
    assert sum(world.top_pool) == sum(state.top_pool) and sum(world.main_pool) == sum(state.main_pool)
    g.state_from_dict(world.to_dict())  # a valid position: 104 cards, and so on


@pytest.mark.parametrize("players", [2, 4, 5])
def test_determinized_worlds_never_contradict_the_observer(players):
    for state in random_states(players, range(2), every=11):
        for observer in range(players):
            world = state.determinize(observer, random.Random(observer))
            check_consistent(state, world, observer)


def test_initial_hands_are_resampled_from_start_cards_only():
    g = game(4)
    state = to_decision(g.new_initial_state(), random.Random(5))
    for seed in range(20):
        world = state.determinize(0, random.Random(seed))
        for p in (1, 2, 3):
            pass
        for p in range(1, 4):
            if p == state.current_player():
                continue
            assert all(START_COUNTS[t] >= c for t, c in enumerate(world.hands[p])), world.hands[p]


def test_the_unknown_part_varies_across_seeds():
    g = game(4)
    state = to_decision(g.new_initial_state(), random.Random(7))
    worlds = [state.determinize(0, random.Random(seed)) for seed in range(10)]
    assert len({json.dumps(w.hands[1]) for w in worlds}) > 3
    assert len({json.dumps(w.main_pool) for w in worlds}) > 3
    assert all(w.hands[0] == state.hands[0] for w in worlds)


def test_views_redact_hidden_cards():
    g = game(4)
    state = to_decision(g.new_initial_state(), random.Random(2))
    view = state.view(1)
    assert sum(view["seats"][1]["hand"].values()) == 5
    assert view["seats"][1]["hand"] == {type_name(t): c for t, c in enumerate(state.hands[1]) if c}
    text = json.dumps(view)
    assert "main_pool" not in text and "hands" not in view
    assert [s["hand_size"] for s in view["seats"]] == [5, 5, 5, 5]
    assert [s["hand"] is None for s in view["seats"]] == [True, False, True, True]


# -- JSON validation --------------------------------------------------------------
def test_json_validation_names_the_field():
    state = example_position()
    g = state.game
    good = state.to_dict()

    def broken(**changes):
        data = json.loads(json.dumps(good))
        for key, value in changes.items():
            data[key] = value
        return data

    cases = {
        "state.deck_main_pool": broken(deck_main_pool=[c + 1 for c in good["deck_main_pool"]]),
        "state.towers[1]": broken(towers=[3, 2, 3, 3]),
        "state.markers[1]": broken(markers=[13, 4, 5]),
        "state.caps[1]": broken(caps=[4, 5, 4, 4]),
        "state.supply[0]": broken(supply=[7, 6, 6, 5]),
        "state.known[0][1]": broken(known=[[0] * 16 for _ in range(4)][:0] + [
            [0, 2] + [0] * 14, [0] * 16, [0] * 16, [0] * 16]),
        "state.spaces[1][4][2]": broken(spaces=[good["spaces"][0], [None, None, None, None, [1, 1, 12]],
                                                good["spaces"][2]]),
        "state.phase": broken(phase="lunch"),
        "state.row": broken(row=[7] + [0] * 15),
    }
    for field, data in cases.items():
        with pytest.raises(InvalidStateError) as info:
            g.state_from_dict(data)
        assert info.value.field == field, (field, str(info.value))
    assert sum(TOTAL_COUNTS) == 104
    assert g.state_from_dict(good).to_dict() == good


# -- rendering and CLI -----------------------------------------------------------
def test_render_shows_face_down_cards_only_to_their_owner():
    state = example_position()
    full, own, other = render(state), render(state, 2), render(state, 0)
    assert "blue 2*" in own and "blue 2*" not in other and "??*" in other
    assert "blue 2*" in full and str(state) == full
    assert "R1" in full and "blue truck R1->R2 #1" in full and "score" in full


def test_cli_plays_a_whole_game(capsys):
    from aiplay.cli import main

    assert main(["play", "area51", "--players", "4", "--bots", "heuristic,heuristic,random,random",
                 "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "returns:" in out and "scores:" in out


def test_what_others_know_of_a_hand():
    g = game(4)
    state = position(g, row=["orange 1", "green 2", "blue 1", "blue 2", "brown 1", "brown 2"],
                     hands={0: ["orange 3", "green 1"]})
    play(state, "collect", "take face-up orange 1", "take face-up green 2", "take face-up blue 1")
    assert state.known[0] == counts(["orange 1", "green 2", "blue 1"])
    assert state.view(2)["seats"][0]["known_in_hand"] == {"green 2": 1, "blue 1": 1, "orange 1": 1}
    to_decision(state, random.Random(0))
    # Seat 1 passes the turn back by collecting; then seat 0 builds with a known card face up...
    for seat in (1, 2, 3):
        play(state, "collect", "take deck top")
        to_decision(state, random.Random(seat))
        play(state, "take deck top")
        to_decision(state, random.Random(seat))
        play(state, "take deck top")
        to_decision(state, random.Random(seat))
    assert state.current_player() == 0
    play(state, "build", "create orange bunker in R2", "face-up orange 1 to hangar 1")
    assert state.known[0] == counts(["green 2", "blue 1"])  # the rest is still known to be there
    # ... and a face-down card: it may have been a known one, so that knowledge becomes soft,
    # linked to the face-down card: the two known cards are in the hand or that card.
    play(state, "face-down green 1 to hangar 2")
    assert state.known[0] == [0] * 16
    assert state.soft[0] == counts(["green 2", "blue 1"])
    assert state.linked_from[0][2] == [1, 0]  # the face-up card before it is not linked
    worlds = [state.determinize(1, random.Random(seed)) for seed in range(30)]
    for world in worlds:
        linked = world.hangars[2][1][0][0]
        held = [world.hands[0][t] + (t == linked) for t in range(16)]
        assert held[T("green 2")] >= 1 and held[T("blue 1")] >= 1
        assert world.knowledge_violations(1) == []
    assert state.view(1)["regions"][2]["hangars"][1] == [{"card": None, "face_up": False, "played_by": 0}]


def test_a_decision_in_progress_round_trips_and_is_validated():
    state = example_position()
    play(state, "pick up", "pick up R1 hangar 1", "store blue 1 in R1/5")
    g = state.game
    assert g.state_from_json(state.to_json()).legal_actions() == state.legal_actions()
    g4 = game(4)
    state = position(g4, hands={0: ["green 1", "blue 1", "blue 2", "brown 3", "orange 4"]})
    play(state, "vehicle", "green truck R1->R0", "number 3", "face-up green 1 to hangar 1")
    data = state.to_dict()
    assert g4.state_from_dict(data).legal_actions() == state.legal_actions()
    data["context"] = {k: v for k, v in data["context"].items() if k != "number"}
    with pytest.raises(InvalidStateError) as info:
        g4.state_from_dict(data)
    assert info.value.field == "state.context.number"
    data = state.to_dict()
    data["context"]["down"] = 7
    with pytest.raises(InvalidStateError) as info:
        g4.state_from_dict(data)
    assert info.value.field == "state.context.down"


@pytest.mark.parametrize("players", [2, 6])
def test_loaded_states_keep_every_information_state(players):
    for state in random_states(players, [3], every=13):
        loaded = state.game.state_from_json(state.to_json())
        for p in range(players):
            assert loaded.information_state_string(p) == state.information_state_string(p)
            assert loaded.view(p) == state.view(p)
        assert loaded.heuristic_values() == state.heuristic_values()
