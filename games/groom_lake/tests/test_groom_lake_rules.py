"""Scenario tests of the Groom Lake rules (rulebook seed 004 and spec groom_lake.md).

Positions are built through the serializer (``groom_lake_helpers.position``)
or by driving actions; results are never set by hand.
"""

from __future__ import annotations

import json
import random

import pytest

import aiplay
from aiplay import IllegalActionError, InvalidStateError
from aiplay.game import CHANCE, TERMINAL, sample_chance_outcome
from aiplay.games.groom_lake import GroomLakeGame, render, render_svg
from aiplay.games.groom_lake import actions as A
from aiplay.games.groom_lake.board import build_graph, escape_possible, make_grid
from aiplay.games.groom_lake.components import (
    ALIEN, COMPASS, HUMAN, HUNTER, LIFEFORM, NUM_TYPES, RECOVERY, ROPE, SHOVEL, START_LIFE, STACK_TILES, TECH,
    TYPE_COUNTS, TYPE_NAMES, WATER, cell_xy,
)

from groom_lake_helpers import counts, place_action, play, position


def named(hand):
    """A count vector by type id as the view names it."""
    return {TYPE_NAMES[t]: c for t, c in enumerate(hand) if c}


LF10, LF20 = LIFEFORM[1], LIFEFORM[3]
T5, T15, T20 = TECH[0], TECH[2], TECH[3]
# Tiles used below (ids from components.TILES): all-dot tiles, a Canyon with one dot, a blank Canyon.
DESERT_OOOO, DESERT_O_O, CANYON_BLANK, CANYON_O = 7, 8, 16, 13
PROBE_7, CRASH_2, MOUNTAIN_OOOO, CIV_OOOO = 4, 5, 24, 33


def setup_done(players: int, seed: int = 1):
    """A game driven through its set-up (chance by seed, keeps by the first legal card)."""
    rng = random.Random(seed)
    state = GroomLakeGame(players=players).new_initial_state()
    alien_twelve = None
    while state.turn < 0:
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            seat = state.current_player()
            if state.roles[seat] == ALIEN and sum(state.kept) == 0:
                alien_twelve = list(state.hands[seat])
            state.apply_action(state.legal_actions()[0])
    return state, alien_twelve


# -- set-up ----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_roles_life_and_the_set_up_deal(players):
    state, alien_twelve = setup_done(players, seed=players)
    roles = sorted(state.roles)
    want = {3: [HUMAN] * 2 + [ALIEN], 4: [HUMAN] * 3 + [ALIEN], 5: [HUMAN] * 3 + [ALIEN, HUNTER],
            6: [HUMAN] * 4 + [ALIEN, HUNTER]}[players]
    assert roles == sorted(want)
    assert state.life == [START_LIFE[players]] * players == [{3: 6, 4: 5, 5: 4, 6: 3}[players]] * players
    assert all(state.hand_size(p) == 3 for p in range(players))
    assert len(state.discard) == 6 and state.step == "action" and state.turn == 0
    # The Alien's twelve cards held its two set-up Recovery cards.
    assert alien_twelve is not None and sum(alien_twelve) == 12 and alien_twelve[RECOVERY] >= 2
    # Every card is somewhere: hands, deck, Discard Stack.
    total = [sum(h[t] for h in state.hands) + state.deck[t] + state.discard.count(t) for t in range(NUM_TYPES)]
    assert total == list(TYPE_COUNTS)


def test_the_kept_cards_are_hidden_and_hand_sizes_equal_during_the_deal():
    rng = random.Random(5)
    state = GroomLakeGame(players=4).new_initial_state()
    sizes_seen = set()
    while state.step != "keep":
        state.apply_action(sample_chance_outcome(state, rng))
        if state.dealt % 4 == 0 and 0 < state.dealt <= 8:
            sizes_seen.add(tuple(state.hand_size(p) for p in range(4)))
    assert sizes_seen == {(1, 1, 1, 1), (2, 2, 2, 2)}, "round-robin: sizes never betray the Alien"
    keeper = state.current_player()
    state.apply_action(state.legal_actions()[0])
    assert state.view(keeper)["kept"] is not None and sum(state.view(keeper)["kept"].values()) == 1
    assert all(state.view(p)["kept"] is None and state.view(p)["kept_size"] == 1 for p in range(4) if p != keeper)
    assert state.view(1)["seats"][1]["hand"] == named(state.hands[1]) and state.view(1)["seats"][2]["role"] is None


# -- Recovery ----------------------------------------------------------------------------
def test_recovery_gains_one_then_two_then_three():
    state = position(3, hands=[{RECOVERY: 2}, {RECOVERY: 1}, {}], life=[3, 3, 3], discard=[WATER] * 6)
    play(state, "play Recovery")
    assert state.life[0] == 4 and state.recoveries == 1
    play(state, "play Recovery")
    assert state.life[0] == 6 and state.recoveries == 2 and state.ap == 0
    # The turn's end: the top card is taken, a card goes face down on the Refresh stack.
    assert state.step == "turn_discard" and state.hands[0][WATER] == 1
    play(state, "refresh Water")
    assert state.turn == 1 and sum(state.refresh) == 1
    play(state, "play Recovery")
    assert state.life[1] == 6 and state.recoveries == 3
    assert TYPE_COUNTS[RECOVERY] - state.recoveries == sum(h[RECOVERY] for h in state.hands) + state.deck[RECOVERY]


# -- hazards ------------------------------------------------------------------------------
def probe_position():
    """The Alien Probe 7 east of Groom Lake (turned so that a dot meets Groom Lake's)."""
    return position(3, roles=[HUMAN, HUMAN, ALIEN],
                    hands=[{SHOVEL: 1, WATER: 1, LF10: 1}, {T5: 1, ROPE: 1}, {SHOVEL: 1}],
                    placed=[[PROBE_7, 1, 0, 3, 1]], discard=[COMPASS] * 6)


def test_the_rulebooks_alien_probe_example():
    state = play(probe_position(), "move E")
    assert state.step == "contribute" and state.current_player() == 0 and state.team == [1, 0]
    # Shovel and any Alien Proof help against an Alien Probe, life tokens always; Water does not.
    names = {state.action_to_string(a) for a in state.legal_actions()}
    assert names == {"discard Shovel", "discard Lifeform 10", "discard a life token", "done"}
    play(state, "discard Shovel", "discard Lifeform 10", "done")
    # Clockwise: player 1 sees the earlier contributions before choosing.
    assert state.current_player() == 1
    view = state.view(1)
    assert view["discard_stack"][-2:] == ["Shovel", "Lifeform 10"] and view["count"] == 2
    assert {state.action_to_string(a) for a in state.legal_actions()} == {
        "discard Tech 5", "discard a life token", "done"}
    play(state, "discard Tech 5", "discard a life token", "done")
    assert state.life[1] == 5
    play(state, "discard Shovel", "done")
    assert state.step == "roll" and state.count == 5, "one die per card and life token"
    assert state.chance_outcomes() == [(f, 1 / 6) for f in range(6)]
    play(state, "die shows 2", "die shows 2", "die shows 2")
    assert state.step == "roll", "6 does not beat 7 yet"
    play(state, "die shows 2")
    # 8 > 7: the hazard is closed and the Team stays; the fifth die is not needed.
    assert state.step == "action" and state.team == [1, 0] and state.placed[1][4] == 0
    assert state.discard[-4:] == [SHOVEL, LF10, T5, SHOVEL]


def test_a_failed_hazard_sends_the_team_back():
    state = play(probe_position(), "move E", "discard Shovel", "discard Lifeform 10", "done", "done", "done")
    assert state.step == "roll" and state.count == 2
    play(state, "die shows 3", "die shows 4")
    assert state.team == [0, 0] and state.placed[1][4] == 1, "7 is not above 7: back to Groom Lake, still open"
    assert state.step == "action" and state.ap == 1
    # One die can never beat 7: the Team goes back at once, with no roll.
    state = play(probe_position(), "move E", "discard Shovel", "done", "done", "done")
    assert state.team == [0, 0] and state.step == "action" and state.discard[-1] == SHOVEL


def test_the_last_life_token_is_never_contributed():
    state = play(position(3, roles=[HUMAN, HUMAN, ALIEN], hands=[{}, {}, {}], life=[1, 6, 6],
                          placed=[[PROBE_7, 1, 0, 3, 1]]), "move E")
    assert state.legal_actions() == [A.DONE]


def test_a_crash_site_is_investigated_once_only():
    state = position(3, roles=[HUMAN, HUMAN, ALIEN], placed=[[CRASH_2, 1, 0, 0, 1]], discard=[COMPASS] * 6)
    play(state, "move E")
    assert state.step == "assign" and state.count == 2 and state.current_player() == 0
    play(state, "investigation to player 1", "player 1 draws Water", "player 1 draws Tech 15")
    assert state.current_player() == 1
    assert state.view(1)["investigation_cards"] == {"Water": 1, "Tech 15": 1}
    assert state.view(0)["investigation_cards"] is None and state.view(0)["investigation_size"] == 2
    play(state, "keep Tech 15")
    assert state.hands[1][T15] == 1 and state.discard[-1] == WATER, "the other card goes face up"
    play(state, "investigation to player 0", "player 0 draws Rope", "player 0 draws Rope", "keep Rope")
    assert state.placed[1][4] == 0 and state.step == "action" and state.ap == 1
    play(state, "end turn", "refresh Rope")  # player 0 ends; then players 1 and 2 pass
    while state.turn != 0:
        state.apply_action(state.legal_actions()[0])
    play(state, "move W", "move E")
    assert state.step == "turn_discard", "entering the closed Crash Site again investigates nothing"


# -- scouting -------------------------------------------------------------------------------
def test_placement_class_a_next_to_the_team():
    state = play(position(3), "scout", f"draw tile Desert #{DESERT_OOOO}", f"draw tile Canyon #{CANYON_BLANK}")
    assert state.current_player() == 0 and state.step == "keep_tile"
    play(state, f"keep tile Desert #{DESERT_OOOO}")
    assert state.pool == [CANYON_BLANK] and state.pool_known[0] == [CANYON_BLANK]
    assert state.legal_actions() == sorted(place_action(x, y, 0) for x, y in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    state.apply_action(place_action(1, 0, 0))
    assert [DESERT_OOOO, 1, 0, 0, 0] in state.placed and state.life[0] == 6 and state.step == "action"


def test_placement_class_b_diagonal_when_the_sides_are_full():
    sides = [[1, 1, 0, 0, 0], [17, 0, 1, 0, 0], [MOUNTAIN_OOOO, -1, 0, 0, 0], [37, 0, -1, 0, 0]]
    state = play(position(3, placed=sides), "scout", f"draw tile Desert #{DESERT_OOOO}", "draw tile Canyon #13")
    play(state, f"keep tile Desert #{DESERT_OOOO}")
    cells = {A.decode(a)[1] // 4 for a in state.legal_actions()}
    assert {cell_xy(c) for c in cells} == {(1, 1), (1, -1), (-1, 1), (-1, -1)}
    state.apply_action(place_action(1, 1, 0))
    assert state.life[0] == 6


def test_placement_class_c_anywhere_costs_a_life_token():
    # The Team on a dotted Desert west of Groom Lake; a dot-less Desert (#8 turned: blank N and S) east.
    state = position(3, placed=[[DESERT_O_O, 1, 0, 0, 0], [DESERT_OOOO, -1, 0, 0, 0]], team=(-1, 0))
    play(state, "scout", f"draw tile Canyon #{CANYON_BLANK}", "draw tile Canyon #13",
         f"keep tile Canyon #{CANYON_BLANK}")
    # Nothing fits next to the Team or diagonally (dots everywhere), only beside the blank edges far away.
    assert state.legal_actions() == sorted([place_action(1, 1, 0), place_action(1, -1, 0)])
    state.apply_action(place_action(1, 1, 0))
    assert state.life[0] == 5 and state.step == "action"


def test_a_tile_that_fits_nowhere_goes_to_the_pool():
    state = play(position(3), "scout", f"draw tile Canyon #{CANYON_BLANK}", "draw tile Desert #7",
                 f"keep tile Canyon #{CANYON_BLANK}")
    assert state.step == "action" and sorted(state.pool) == [DESERT_OOOO, CANYON_BLANK]
    assert len(state.placed) == 1 and state.life[0] == 6 and state.ap == 1
    assert state.view(1)["internal"]["pool_known"] == [] and state.view(0)["internal"]["pool_known"] == [
        DESERT_OOOO, CANYON_BLANK]
    assert [s["in_pool"] for s in state.view(1)["tile_stacks"]] == [2, 0, 0]


LINE = [1, 5, 7, 17, 22, MOUNTAIN_OOOO, 37]  # all-dot tiles: a straight road east


@pytest.mark.parametrize("distance,stack,falls_to", [(3, 0, 1), (4, 1, 2), (6, 1, 2), (7, 2, 3)])
def test_the_scout_stack_by_distance_and_its_fall_through(distance, stack, falls_to):
    road = [[t, i + 1, 0, 0, 0] for i, t in enumerate(LINE[:distance])]
    state = position(3, placed=road, team=(distance, 0))
    assert state.distance() == distance
    play(state, "scout")
    drawn_from = {t for t, _ in state.chance_outcomes()}
    assert drawn_from == set(state.stacks[stack]) and drawn_from <= set(STACK_TILES[stack])
    # The same position with that stack emptied into the pool draws from the next one (the pool after Compass).
    emptied = [t for t in STACK_TILES[stack] if t not in LINE[:distance]]
    state = position(3, placed=road, team=(distance, 0), pool=emptied)
    play(state, "scout")
    outcomes = {t for t, _ in state.chance_outcomes()}
    assert outcomes == (set(state.pool) if falls_to == 3 else set(state.stacks[falls_to]))


# -- moving -----------------------------------------------------------------------------------
def test_moves_cost_one_or_two_and_never_enter_a_canyon():
    state = position(3, placed=[[MOUNTAIN_OOOO, 1, 0, 0, 0], [CANYON_O, -1, 0, 1, 0], [7, 0, 1, 0, 0]])
    names = {state.action_to_string(a) for a in state.legal_actions()}
    assert {"move E", "move N"} <= names and "move W" not in names
    play(state, "move N")
    assert state.ap == 1 and "move E" not in {state.action_to_string(a) for a in state.legal_actions()}


# -- votes and the Hunter -------------------------------------------------------------------
def vote(yes: int):
    """Player 0 calls a vote against player 1 in a 5-player game; ``yes`` of the 4 voters say yes."""
    state = position(5, roles=[HUMAN, HUMAN, HUNTER, ALIEN, HUMAN], hands=[{}, {WATER: 2, T5: 1}, {}, {}, {}],
                     discard=[COMPASS] * 6)
    play(state, "vote against player 1")
    assert state.queue == [0, 2, 3, 4] and state.current_player() == 0
    for i in range(4):
        play(state, "yes" if i < yes else "no")
    return state


def test_a_vote_one_short_of_a_majority_kills_nobody():
    state = vote(2)
    assert state.life[1] == 4 and state.step == "turn_discard" and state.ap == 0


def test_a_vote_at_a_majority_kills_and_the_role_stays_hidden():
    state = vote(3)
    assert state.life[1] == 0 and state.step == "give" and state.current_player() == 0
    assert all(state.view(p)["seats"][1]["role"] is None for p in (0, 2, 3, 4))
    play(state, "card to player 2")
    assert state.current_player() == CHANCE and {t for t, _ in state.chance_outcomes()} == {WATER, T5}
    state.apply_action(WATER)
    play(state, "card to player 0", "player 0 receives Water", "card to player 0", "player 0 receives Tech 5")
    assert state.hands[2][WATER] == 1 and state.hands[0][WATER] == 1 and state.hands[0][T5] == 1
    # Then the caller's turn ends: the Discard Stack's top card joins the hand in view of all.
    assert state.step == "turn_discard" and state.known[0] == counts({COMPASS: 1})


def strike_position():
    return position(5, roles=[HUNTER, HUMAN, ALIEN, HUMAN, HUMAN],
                    hands=[{WATER: 1, LF10: 1}, {ROPE: 1, LF20: 1}, {T15: 2, SHOVEL: 1}, {}, {}],
                    discard=[COMPASS] * 6, placed=[[CIV_OOOO, 1, 0, 0, 0]])


def test_the_hunter_strikes_the_alien():
    state = strike_position()
    assert "strike player 2" in {state.action_to_string(a) for a in state.legal_actions()}
    play(state, "strike player 2")
    assert state.life[2] == 0 and state.alien_card and state.revealed[0] and state.revealed[2]
    assert all(state.view(p)["seats"][2]["role"] == "Alien" and state.view(p)["seats"][0]["role"] == "Hunter"
               for p in range(5))
    assert state.step == "give" and state.current_player() == 0
    for _ in range(3):
        play(state, "card to player 0")
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.hands[0] == counts({WATER: 1, LF10: 1, T15: 2, SHOVEL: 1})
    # Over the hand limit (4): the Hunter discards one to the Refresh stack first.
    assert state.current_player() == 0 and {A.decode(a)[0] for a in state.legal_actions()} == {"refresh"}
    play(state, "refresh Shovel", "refresh Water")
    # Next turns: player 1 walks into Civilization; the Hunter's 40 AP + 50 beat player 1's 20.
    while not (state.turn == 1 and state.step == "action" and state.current_player() == 1):
        state.apply_action(state.legal_actions()[0])
    play(state, "move E")
    assert state.is_terminal() and state.winners() == [0]
    assert state.returns()[0] == 1.0 and state.scores()[0] == 90.0 and state.scores()[1] == 20.0


def test_the_hunter_striking_a_human_dies_too():
    state = strike_position()
    play(state, "strike player 1")
    assert state.life[0] == 0 and state.life[1] == 0 and state.revealed[0] and state.revealed[1]
    assert not state.alien_card and state.view(3)["seats"][1]["role"] == "Human"
    # Four cards shared among the three living players: one each, the fourth to the Refresh stack.
    assert state.step == "share" and state.queue == [2, 3, 4]
    for _ in range(3):
        state.apply_action(state.chance_outcomes()[0][0])
    assert [state.hand_size(p) for p in range(5)] == [0, 0, 4, 1, 1] and sum(state.refresh) == 1
    # The dead Hunter's turn ends at once (no Discard Stack advance): player 2's limit, then its turn.
    assert state.turn == 2 or state.current_player() == 2


# -- the end ----------------------------------------------------------------------------------
def test_the_aliens_technology_reaching_50_wins_at_once():
    state = position(3, hands=[{T20: 1, T15: 1}, {LF20: 1}, {}], discard=[COMPASS] * 5 + [T15])
    play(state, "end turn")
    assert state.is_terminal() and state.winners() == [0] and state.revealed[0]
    assert state.returns() == [1.0, -0.5, -0.5]


def test_no_escape_left_when_canyons_close_the_team_in():
    canyons = [[CANYON_O, 1, 0, 3, 0], [29, -1, 0, 1, 0], [45, 0, 1, 2, 0]]
    state = position(3, roles=[HUMAN, ALIEN, HUMAN], placed=canyons)
    assert not state.is_terminal() and state.escape_possible()
    play(state, "scout", "draw tile Canyon #14", "draw tile Desert #7", "keep tile Canyon #14")
    state.apply_action(place_action(0, -1, 0))  # the last open side: a Canyon
    assert state.is_terminal() and state.winners() == [1]


def test_reaching_civilization_the_most_alien_proof_wins():
    state = position(3, roles=[HUMAN, HUMAN, ALIEN], hands=[{LF10: 1}, {LF20: 1}, {T20: 1}],
                     placed=[[CIV_OOOO, 1, 0, 0, 0]])
    play(state, "move E")
    assert state.is_terminal() and state.winners() == [1] and state.returns() == [-0.5, 1.0, -0.5]


def test_the_half_win_variant():
    state = position(3, roles=[HUMAN, HUMAN, ALIEN], hands=[{LF10: 1}, {LF20: 1}, {}],
                     placed=[[CIV_OOOO, 1, 0, 0, 0]], half_win=True)
    play(state, "propose Half-Win")
    assert state.step == "half_vote" and state.queue == [1, 2]
    play(state, "yes", "no")
    assert not state.half_agreed and "propose Half-Win" not in [state.action_to_string(a)
                                                               for a in state.legal_actions()]
    state = position(3, roles=[HUMAN, HUMAN, ALIEN], hands=[{LF10: 1}, {LF20: 1}, {}],
                     placed=[[CIV_OOOO, 1, 0, 0, 0]], half_win=True)
    play(state, "propose Half-Win", "yes", "yes", "move E")
    assert state.is_terminal() and state.winners() == [0, 1] and state.returns() == [0.5, 0.5, -1.0]
    with pytest.raises(IllegalActionError):
        position(3).apply_action(A.HALF)


# -- the Discard Stack and the hand limit -------------------------------------------------------------
def test_an_empty_discard_stack_costs_every_player_a_life_token():
    state = position(3, hands=[{WATER: 2}, {ROPE: 3}, {}], life=[6, 3, 6], discard=[SHOVEL])
    play(state, "end turn", "refresh Shovel")
    assert state.life == [5, 2, 5] and sum(state.refresh) == 1
    # Player 1 now holds 3 cards with 2 life tokens: it discards before the new stack is dealt.
    assert state.current_player() == 1 and state.legal_actions() == [A.REFRESH + ROPE]
    play(state, "refresh Rope")
    assert state.current_player() == CHANCE and state.step == "row" and state.count == 6
    for _ in range(6):
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.discard) == 6 and state.turn == 1 and state.step == "action"


def test_the_refresh_stack_becomes_the_deck_when_it_runs_out():
    state = position(3, hands=[{WATER: 1}, {}, {}], discard=[SHOVEL])
    doc = state.to_dict()
    # Move the whole deck to the Refresh stack: a valid position with an empty deck.
    doc["refresh"], doc["deck"] = doc["deck"], [0] * NUM_TYPES
    state = state.game.state_from_dict(doc)
    play(state, "end turn", "refresh Shovel")
    assert state.step == "row" and sum(state.refresh) == 0 and sum(state.deck) > 0


# -- serializer, text and the registry ---------------------------------------------------------
def test_the_serializer_names_bad_fields():
    state = position(3)
    doc = state.to_dict()
    bad = [("life", dict(doc, life=[6, 6])), ("deck", dict(doc, deck=doc["deck"][:-1])),
           ("hands", dict(doc, hands=[[1] + h[1:] for h in doc["hands"]])),
           ("map[1]", dict(doc, map=doc["map"] + [[CANYON_BLANK, 1, 0, 0, 0]])),
           ("team", dict(doc, team=[5, 5])), ("step", dict(doc, ap=0)), ("roles", dict(doc, roles=[0, 0, 0]))]
    for field, data in bad:
        with pytest.raises(InvalidStateError) as info:
            state.game.state_from_dict(data)
        assert info.value.field.startswith(f"state.{field}"), (field, info.value.field)
    with pytest.raises(InvalidStateError) as info:
        state.game.state_from_dict(dict(doc, surprise=1))
    assert info.value.field == "state.surprise"


def test_text_and_svg_rendering():
    state = position(3, placed=[[PROBE_7, 1, 0, 3, 1], [CIV_OOOO, 0, 1, 0, 0]])
    text = render(state)
    assert "Groom Lake, 3 players" in text and " D! " in text and " G *" in text
    svg = render_svg(state)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<rect") == 3 and "open" in svg and "the Team" in svg


def test_registry_entry_is_listed_and_native_by_default():
    entry = aiplay.registry.game_entry("groom_lake")
    assert entry.listed is True and entry.kernel_module == "aiplay.games.groom_lake.kernel" and entry.no_kernel is None
    assert "groom_lake" in aiplay.games_available(include_hidden=False)
    game = aiplay.load("groom_lake")
    assert game.backend == "native" and game.num_distinct_actions == A.NUM_ACTIONS
    assert aiplay.load("groom_lake", backend="reference").backend == "reference"
    state = game.new_initial_state()
    json.loads(state.to_json())
    assert state.current_player() == CHANCE and TERMINAL != CHANCE


def test_the_distance_follows_placed_tiles_not_the_crow():
    # A U-shaped road: (0, 2) is 2 cells from Groom Lake as the crow flies, 6 steps over tiles.
    cells = [(1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]
    road = [[t, x, y, 0, 0] for t, (x, y) in zip([1, 5, 7, 17, 22, MOUNTAIN_OOOO], cells)]
    state = position(3, placed=road, team=(0, 2))
    assert state.distance() == 6
    play(state, "scout")
    assert {t for t, _ in state.chance_outcomes()} == set(state.stacks[1]), "4-6 steps: the \"6\" stack"


def test_escape_needs_civilization_in_reach_or_room_and_tiles_to_grow():
    placed = [[0, 0, 0, 0, 0], [CANYON_O, 1, 0, 3, 0]]
    graph, grid = build_graph(placed), make_grid(placed)
    assert escape_possible(graph, grid, (0, 0), tiles_remain=True)
    assert not escape_possible(graph, grid, (0, 0), tiles_remain=False), "no tiles remain"
    with_civ = placed + [[CIV_OOOO, -1, 0, 0, 0]]
    assert escape_possible(build_graph(with_civ), make_grid(with_civ), (0, 0), tiles_remain=False)
    # A Civilization beyond a Canyon is out of reach.
    behind = placed + [[CIV_OOOO, 2, 0, 0, 0]]
    assert not escape_possible(build_graph(behind), make_grid(behind), (0, 0), tiles_remain=False)


@pytest.mark.parametrize("players,first_keep_sizes", [(5, [12] * 5), (6, [12, 2, 2, 2, 2, 2])])
def test_twelve_cards_each_before_keeping_or_seat_by_seat_with_six(players, first_keep_sizes):
    # 5 x 12 = 60 of the 64 cards can be out at once; 6 x 12 = 72 cannot (ruling: seat by seat).
    rng = random.Random(2)
    state = GroomLakeGame(players=players).new_initial_state()
    while state.step != "keep":
        state.apply_action(sample_chance_outcome(state, rng))
    assert state.current_player() == 0
    assert [state.hand_size(p) for p in range(players)] == first_keep_sizes
