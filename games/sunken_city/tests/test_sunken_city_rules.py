"""Sunken City: the rulebook's worked examples replayed on our board, and the edge cases.

Positions are built with ``state_from_dict`` from a compact description, or
reached by playing actions from the start. Cells are written ``(row, col)``;
seat 0 (Yellow, player 0) lives at the top-left corner.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional, Sequence, Tuple

import networkx as nx
import numpy as np
import pytest

import aiplay
from aiplay import CHANCE, IllegalActionError, InvalidStateError
from aiplay.games.sunken_city import board as B
from aiplay.games.sunken_city.actions import (
    BUILD_BASE, END_TURN, ENTER_VILLAGE, MOVE, NEPTUNE, NEPTUNE_STEP_BASE, NEPTUNE_STOP, PLAY_CARD,
    RAISE, STEP_BASE, STOP_MOVE, USE_CHIP, building_action, street_action,
)
from aiplay.games.sunken_city.components import CARDS

Cell = Tuple[int, int]


def c(row: int, col: int) -> int:
    return B.cell_of(row, col)


def walk(cell: Cell) -> int:
    return STEP_BASE + c(*cell)


def nep(cell: Cell) -> int:
    return NEPTUNE_STEP_BASE + c(*cell)


def card(pieces: int, points: int) -> int:
    return PLAY_CARD + CARDS.index((pieces, points))


def street(a: Cell, b: Cell) -> int:
    return street_action(c(*a), c(*b))


def position(game, *, streets: Sequence[Tuple[int, int, str]] = (), buildings: Optional[Dict[int, Cell]] = None,
             neptune: Cell = (4, 4), adventurers: Optional[list] = None, **fields: Any):
    """A state from a compact description; the street supply is made consistent (nothing sunk yet)."""
    data = game.new_initial_state().to_dict()
    n = game.num_players
    placed = {10: (4, 4)} if buildings is None else buildings
    data["streets"] = [list(s) for s in streets]
    data["buildings"] = [list(placed[b]) if b in placed else None for b in range(1, 11)]
    data["neptune"] = list(neptune)
    data["adventurers"] = adventurers or ["village"] * n
    data["street_piles"][0] -= len(streets)
    data.update(fields)
    if "secured" in fields:
        data["secured_values"] = [sum(s) for s in fields["secured"]]
    return game.state_from_dict(data)


def names(state):
    return {state.action_to_string(a) for a in state.legal_actions()}


# -- the board ----------------------------------------------------------------

def test_board_data_matches_the_spec():
    assert sum(B.IS_DARK) == 24 and not B.IS_DARK[B.CENTRE]
    assert len(B.BUILDING_SITES) == 25
    for cell in range(B.NUM_CELLS):  # no two dark cells touch, so buildings never touch
        if B.IS_DARK[cell]:
            assert not any(B.IS_DARK[n] for n in B.CELL_NEIGHBOURS[cell])
    assert [B.TERRITORY[c(r, k)] for r, k in ((0, 0), (0, 8), (8, 8), (8, 0), (4, 2), (2, 4))] == [0, 1, 2, 3, -1, -1]
    assert sum(1 for t in B.TERRITORY if t == 0) == 16
    assert all(slot is None or B.CENTRE not in slot for slot in B.STREET_SLOTS)
    arrays = B.static_arrays()
    assert arrays["cell_neighbours"].shape == (81, 4) and arrays["cell_neighbours"].dtype == np.int32
    assert int(arrays["is_dark"].sum()) == 24 and arrays["street_slots"].shape == (162, 2)


def test_piece_graph_and_flat_arrays():
    game = aiplay.load("sunken_city", backend="reference")
    state = position(game, streets=[(0, 0, "right"), (1, 1, "right")], buildings={9: (1, 3), 10: (4, 4)})
    graph = state.piece_graph()
    assert isinstance(graph, nx.Graph)
    assert set(graph.neighbors(c(1, 1))) == {c(0, 0), c(1, 3)}
    assert set(graph.neighbors(B.VILLAGE_NODE_BASE + 0)) == {c(0, 0)}
    assert state.adventurer_reach(0, 3) == {B.VILLAGE_NODE_BASE: 0, c(0, 0): 1, c(1, 1): 2, c(1, 3): 3}
    assert state.neptune_reach(4) == {c(4, 4): 0}  # isolated
    indptr, indices = B.piece_graph_arrays(graph)
    assert indptr.shape == (86,)
    row = indices[indptr[c(1, 1)]:indptr[c(1, 1) + 1]]
    assert sorted(row.tolist()) == [c(0, 0), c(1, 3)]


# -- rulebook examples ---------------------------------------------------------

def test_yellow_raises_two_streets_and_building_9_and_finds_its_treasure():
    """RB "Playing a Movement Card": village -> street -> street -> building 9, then one more step."""
    game = aiplay.load("sunken_city", backend="reference")
    state = game.new_initial_state()
    state.apply_action(card(3, 4))
    state.apply_action(RAISE)
    state.apply_action(street((0, 0), (0, 1)))
    state.apply_action(street((0, 2), (0, 3)))
    assert END_TURN not in state.legal_actions(), "the exact number of pieces must rise"
    state.apply_action(building_action(9, c(0, 4)))
    assert state.to_dict()["phase"] == "choose"
    state.apply_action(MOVE)
    for cell in ((0, 0), (0, 2), (0, 4)):
        state.apply_action(walk(cell))
    assert state.to_dict()["carried"][0] == [9]
    assert walk((0, 2)) in state.legal_actions()
    state.apply_action(walk((0, 2)))  # the last point: onto the adjacent street
    data = state.to_dict()
    assert data["adventurers"][0] == [0, 2] and data["carried"][0] == [9]
    assert data["turn"] == 1 and data["phase"] == "card", "Neptune is stuck, so the turn ended by itself"
    # Player 1 passes with the (0, 7) card; next turn Yellow goes home with treasure 9.
    state.apply_action(card(0, 7))
    assert state.current_player() == 0, "with nothing to do the turn ends by itself"
    state.apply_action(card(4, 3))
    state.apply_action(MOVE)
    state.apply_action(walk((0, 0)))
    state.apply_action(ENTER_VILLAGE)
    assert state.to_dict()["secured"][0] == [9] and state.scores() == [1.0, 0.0]


def _sinking_position(game, **fields):
    # Yellow (player 0) has found 5 and 9 and stands on the street (3,1)-(3,2).
    return position(
        game,
        streets=[(0, 0, "right"), (1, 1, "right"), (3, 1, "right"), (4, 3, "down"), (6, 3, "down")],
        buildings={5: (3, 3), 9: (1, 3)},
        adventurers=[[3, 1], "village"], carried=[[5, 9], []], **fields)


def test_neptune_sinks_building_5_and_two_streets_but_yellow_under_him_is_safe():
    """RB "Sinking Streets and Buildings": Neptune moves 3 to Yellow's street."""
    game = aiplay.load("sunken_city", backend="reference")
    state = _sinking_position(game, neptune=[6, 3], turn=1, phase="choose", card=0, raised=True, played=[[], [0]])
    assert not state.neptune_in_territory(1)
    state.apply_action(NEPTUNE)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(1, 1 / 6), (2, 2 / 6), (3, 2 / 6), (4, 1 / 6)]
    state.apply_action(3)
    assert NEPTUNE_STOP in state.legal_actions(), "after the roll he may still stay"
    state.apply_action(nep((4, 3)))
    assert nep((6, 3)) not in state.legal_actions(), "the piece he left has sunk"
    for cell in ((3, 3), (3, 1)):
        state.apply_action(nep(cell))
    data = state.to_dict()
    assert data["buildings"][4] is None, "building 5 went back to its grotto"
    assert [s[:2] for s in data["streets"]] == [[0, 0], [1, 1], [3, 1]]
    assert data["street_piles"][1] == 1 + 2, "the sunk streets lie on space 2"
    assert data["adventurers"][0] == [3, 1] and data["carried"][0] == [5, 9] and data["chips"] == [0, 0]
    assert data["neptune"] == [3, 1] and data["turn"] == 0, "nothing left to do: the turn ended"


def test_neptune_leaving_yellows_street_sends_him_home_with_a_chip():
    """RB "Returning Adventurers": treasures 5 and 9 turn back, Yellow gets a Neptune chip."""
    game = aiplay.load("sunken_city", backend="reference")
    state = _sinking_position(game, neptune=[3, 1], turn=1, phase="choose", card=0, raised=True,
                              played=[[], [0]])
    state.apply_action(NEPTUNE)
    state.apply_action(1)
    state.apply_action(nep((3, 3)))
    data = state.to_dict()
    assert data["adventurers"][0] == "village" and data["carried"][0] == [] and data["chips"] == [1, 0]
    # Sinking your own adventurer earns nothing.
    own = _sinking_position(game, neptune=[3, 1], turn=0, phase="choose", card=0, raised=True,
                            played=[[0], []])
    own.apply_action(NEPTUNE)
    assert own.to_dict()["phase"] == "neptune", "Neptune is in Yellow's territory: no die"
    own.apply_action(nep((3, 3)))
    assert own.to_dict()["adventurers"][0] == "village" and own.to_dict()["chips"] == [0, 0]


def _home_position(game, points: int):
    # Neptune on the street (2,2)-(2,3); Yellow on (3,1)-(3,2), next to it and to building 5.
    return position(
        game,
        streets=[(0, 0, "right"), (1, 1, "right"), (2, 2, "right"), (3, 1, "right")],
        buildings={5: (3, 3), 9: (1, 3)}, neptune=[2, 2], adventurers=[[3, 1], "village"],
        carried=[[4], []], phase="move", card=CARDS.index((1, 6)), raised=True, move_left=points,
        played=[[CARDS.index((1, 6))], []])


@pytest.mark.parametrize("path,secured", [
    ([(2, 2), (1, 1), (0, 0)], [4]),
    ([(3, 3), (2, 2), (1, 1), (0, 0)], [4, 5]),
    ([(3, 3), (2, 2), (1, 3), (1, 1), (0, 0)], [4, 5, 9]),
])
def test_three_ways_home_past_neptune(path, secured):
    """RB "Returning Adventurers": 4, 5 or 6 points, passing Neptune's street freely."""
    game = aiplay.load("sunken_city", backend="reference")
    points = len(path) + 1
    state = _home_position(game, points)
    reach = state.adventurer_reach(0, 6)
    assert reach[B.VILLAGE_NODE_BASE] == 4
    for cell in path:
        state.apply_action(walk(cell))
    state.apply_action(ENTER_VILLAGE)
    data = state.to_dict()
    assert data["secured"][0] == secured and data["adventurers"][0] == "village"
    assert data["moved"], "all points spent: the move block is over"


def test_neptune_chip_adds_the_roofs_showing_5_plus_9_is_14():
    """RB "Neptune Chips": treasure 3 secured, 5 found, 9 roofs: card (2,5) + chip = 14 points."""
    game = aiplay.load("sunken_city", backend="reference")
    state = position(
        game, streets=[(0, 0, "right"), (1, 1, "right"), (3, 1, "right")],
        buildings={5: (3, 3), 9: (1, 3), 10: (4, 4)}, adventurers=[[1, 1], "village"],
        carried=[[5], []], secured=[[3], []], chips=[1, 0])
    state.apply_action(card(2, 5))
    state.apply_action(RAISE)
    state.apply_action(street((2, 2), (2, 3)))
    state.apply_action(building_action(7, c(2, 4)))
    state.apply_action(MOVE)
    assert USE_CHIP in state.legal_actions()
    state.apply_action(walk((1, 3)))  # finding 9 first...
    state.apply_action(USE_CHIP)      # ...leaves 8 roofs: the chip adds 8
    assert state.to_dict()["move_left"] == 4 + 8
    fresh = position(
        game, streets=[(0, 0, "right"), (1, 1, "right"), (3, 1, "right")],
        buildings={5: (3, 3), 9: (1, 3), 10: (4, 4)}, adventurers=[[1, 1], "village"],
        carried=[[5], []], secured=[[3], []], chips=[1, 0])
    fresh.apply_action(card(2, 5))
    fresh.apply_action(MOVE)
    fresh.apply_action(USE_CHIP)
    data = fresh.to_dict()
    assert data["move_left"] == 14 and data["chips"] == [0, 0] and data["chip_used"]
    fresh.apply_action(walk((1, 3)))  # finding treasures does not change the bonus
    assert fresh.to_dict()["move_left"] == 13 and USE_CHIP not in fresh.legal_actions()


def test_complete_example_turn():
    """RB "Example for a complete player's turn": 4 streets, 3 steps to building 9, Neptune 3 to Red on 4."""
    game = aiplay.load("sunken_city", backend="reference", players=3)
    state = position(game, streets=[(2, 2, "down")], buildings={9: (1, 3), 4: (6, 4)},
                     neptune=[2, 2], adventurers=["village", [6, 4], "village"])
    state.apply_action(card(4, 3))
    state.apply_action(RAISE)
    for a, b in (((0, 0), (0, 1)), ((0, 2), (0, 3)), ((3, 3), (4, 3)), ((5, 3), (5, 4))):
        state.apply_action(street(a, b))
    state.apply_action(MOVE)
    for cell in ((0, 0), (0, 2), (1, 3)):
        state.apply_action(walk(cell))
    assert state.to_dict()["carried"][0] == [9]
    state.apply_action(NEPTUNE)
    assert state.current_player() == 0, "Neptune stands in Yellow's territory: he moves 3, no die"
    assert state.to_dict()["neptune_left"] == 3
    for cell in ((3, 3), (5, 3), (6, 4)):
        state.apply_action(nep(cell))
    data = state.to_dict()
    assert data["turn"] == 1 and data["phase"] == "card", "all three blocks done: the turn is over"
    assert [s[:2] for s in data["streets"]] == [[0, 0], [0, 2]]
    assert data["neptune"] == [6, 4] and data["adventurers"][1] == [6, 4]
    assert data["street_piles"][:2] == [23 - 5, 1 + 3]


# -- edge cases ------------------------------------------------------------------

def test_isolated_neptune_cannot_move_and_no_die_is_rolled():
    game = aiplay.load("sunken_city", backend="reference")
    state = game.new_initial_state()
    state.apply_action(card(3, 4))
    assert NEPTUNE not in state.legal_actions()
    assert state.legal_actions() == [RAISE]


def test_a_sunk_centre_building_lets_another_building_rise_there():
    game = aiplay.load("sunken_city", backend="reference")
    state = position(game, streets=[(3, 4, "right")], buildings={8: (2, 4)}, neptune=[2, 4],
                     adventurers=[[3, 4], "village"])
    # (3,4)-(4,4) is not a street: the centre takes buildings only.
    with pytest.raises(InvalidStateError) as info:
        position(game, streets=[(4, 3, "right")], buildings={})
    assert info.value.field == "state.streets[0]"
    state.apply_action(card(1, 6))
    state.apply_action(RAISE)
    assert building_action(3, B.CENTRE) in state.legal_actions()
    state.apply_action(building_action(3, B.CENTRE))
    state.apply_action(MOVE)
    state.apply_action(walk((4, 4)))
    assert state.to_dict()["carried"][0] == [3, 12], "the centre building also holds the Treasure Chest"


def test_streets_running_out_make_raising_optional():
    game = aiplay.load("sunken_city", backend="reference")
    streets = [(r, k, "right") for r in (0, 1, 2) for k in (0, 2, 5, 7)] + \
              [(r, k, "right") for r in (5, 6, 7, 8) for k in (0, 2)] + [(8, 5, "right"), (8, 7, "right"), (6, 5, "right"), (6, 7, "right")]
    assert len(streets) == 24
    # Sand Timer showing, pile 6 empty: only a building can rise, then the raise is over.
    base = game.new_initial_state().to_dict()
    # Seat 1 to play: after a trigger seat 0 never plays again (spec, "End and scoring").
    base.update(streets=[list(s) for s in streets], street_piles=[0] * 6, draw_pile=6, end_triggered=True, turn=1)
    state = game.state_from_dict(base)
    state.apply_action(card(4, 3))
    assert RAISE in state.legal_actions()
    state.apply_action(RAISE)
    assert all(a >= BUILD_BASE for a in state.legal_actions())
    state.apply_action(building_action(2, c(3, 3)))
    assert state.to_dict()["raised"] and END_TURN in state.legal_actions()
    # No street and no building left: the turn may end at once.
    base["buildings"] = [list(B.row_col(site)) for site in (c(3, 3), c(2, 4), c(4, 2), c(4, 6), c(6, 4),
                                                             c(3, 5), c(0, 4), c(5, 5), c(4, 0), c(4, 4))]
    state = game.state_from_dict(base)
    state.apply_action(card(4, 3))
    assert RAISE not in state.legal_actions() and END_TURN in state.legal_actions()


def _sand_timer_state(game):
    """Player 1 to play; one street left on space 5, all others on the board or on space 6."""
    base = game.new_initial_state().to_dict()
    streets = [[r, k, "right"] for r in (0, 1, 2, 3, 5, 6) for k in (0, 2, 4, 6)]
    base.update(streets=streets, street_piles=[0, 0, 0, 0, 1, game.total_streets - 1 - len(streets)],
                draw_pile=5, turn=1)
    return game.state_from_dict(base)


def test_the_sand_timer_mid_round_lets_the_round_finish():
    game = aiplay.load("sunken_city", backend="reference", players=3)
    state = _sand_timer_state(game)
    state.apply_action(card(1, 6))
    state.apply_action(RAISE)
    state.apply_action(min(a for a in state.legal_actions() if a < BUILD_BASE))
    data = state.to_dict()
    assert data["end_triggered"] and data["draw_pile"] == 6 and data["turn"] == 1
    state.apply_action(END_TURN)
    assert state.to_dict()["turn"] == 2 and not state.is_terminal(), "the round is played out"
    state.apply_action(card(0, 7))
    if not state.is_terminal():
        state.apply_action(END_TURN)
    assert state.is_terminal(), "the game ends before seat 0 would play again"


def test_securing_every_treasure_ends_the_game_after_the_round():
    game = aiplay.load("sunken_city", backend="reference", players=3, short=True)
    state = position(game, streets=[(0, 0, "right")], adventurers=[[0, 0], "village", "village"],
                     secured=[[2, 3, 4, 5, 6, 7, 8, 9, 10], [], []], carried=[[12], [], []])
    state.apply_action(card(0, 7))
    state.apply_action(MOVE)
    state.apply_action(ENTER_VILLAGE)
    state.apply_action(STOP_MOVE)
    assert state.to_dict()["end_triggered"] and state.to_dict()["turn"] == 1
    for _ in range(2):
        state.apply_action(card(0, 7))
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0, 0.0] and state.scores() == [10.0, 0.0, 0.0]


def test_ties_go_to_the_higher_value_then_are_shared():
    game = aiplay.load("sunken_city", backend="reference")
    # Over by the Sand Timer: every street but the board's is on space 6.
    over = dict(phase="over", end_triggered=True, draw_pile=6,
                street_piles=[0, 0, 0, 0, 0, game.total_streets])
    state = position(game, secured=[[1, 12], [5, 10]], **over)
    assert state.to_dict()["secured_values"] == [13, 15]
    assert state.returns() == [0.0, 1.0]
    state = position(game, secured=[[3, 12], [5, 10]], **over)
    assert state.returns() == [0.5, 0.5]


def test_cards_return_to_the_hand_after_all_six():
    game = aiplay.load("sunken_city", backend="reference")
    state = position(game, played=[[0, 1, 2, 3, 5], []])
    assert state.legal_actions() == [PLAY_CARD + 4]
    state.apply_action(PLAY_CARD + 4)
    while state.to_dict()["turn"] == 0:
        state.apply_action(state.legal_actions()[-1])
    assert state.to_dict()["played"][0] == []


def test_illegal_actions_leave_the_state_unchanged():
    game = aiplay.load("sunken_city", backend="reference")
    state = game.new_initial_state()
    before = state.to_json()
    for bad in (RAISE, NEPTUNE, nep((4, 3)), 9999, -2):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert state.to_json() == before


@pytest.mark.parametrize("field,change", [
    ("state.streets[1]", dict(streets=[[0, 0, "right"], [0, 1, "down"]])),          # overlap
    ("state.streets[0]", dict(streets=[[0, 8, "right"]])),                            # off the board
    ("state.streets[0]", dict(streets=[[9, 0, "down"]])),                             # off the board
    ("state.buildings[2]", dict(buildings=[None, None, [0, 1]] + [None] * 6 + [[4, 4]])),  # light cell
    ("state.buildings[9]", dict(streets=[[4, 3, "down"]], buildings=[None] * 9 + [[4, 3]])),
    ("state.streets", dict(streets=[[r, k, "right"] for r in range(9) for k in (0, 2, 5, 7)])),  # 36 > 30
    ("state.street_piles", dict(street_piles=[19, 1, 1, 1, 1, 0])),
    ("state.secured_values", dict(secured=[[3], []], secured_values=[4, 0])),
    ("state.carried[0]", dict(adventurers=[[4, 4], "village"], carried=[[3], []], secured=[[3], []], secured_values=[3, 0])),
    ("state.carried[0]", dict(carried=[[3], []])),                                    # at home, carrying
    ("state.secured[1]", dict(secured=[[], [11]], secured_values=[0, 11])),
    ("state.chips", dict(chips=[5, 4])),
    ("state.neptune", dict(neptune=[0, 0])),
    ("state.adventurers[1]", dict(adventurers=["village", [8, 8]])),
    ("state.card", dict(card=2)),
    ("state.played[0]", dict(played=[[0, 0], []])),
    ("state.end_triggered", dict(street_piles=[0, 0, 0, 0, 0, 24], draw_pile=6)),
])
def test_bad_json_names_the_field(field, change):
    game = aiplay.load("sunken_city", backend="reference")
    data = game.new_initial_state().to_dict()
    data.update(change)
    text = json.dumps(dict(json.loads(game.new_initial_state().to_json()), state=data))
    with pytest.raises(InvalidStateError) as info:
        game.state_from_json(text)
    assert info.value.field == field, str(info.value)


def test_short_game_has_no_building_or_treasure_1():
    game = aiplay.load("sunken_city", backend="reference", short=True)
    state = game.new_initial_state()
    state.apply_action(card(3, 4))
    state.apply_action(RAISE)
    assert building_action(1, c(3, 3)) not in state.legal_actions()
    assert building_action(2, c(3, 3)) in state.legal_actions()
    data = game.new_initial_state().to_dict()
    data["buildings"][0] = [3, 3]
    with pytest.raises(InvalidStateError) as info:
        game.state_from_dict(data)
    assert info.value.field == "state.buildings[0]"


FROZEN_STREETS = [
    [0, 1, "right"], [0, 5, "right"], [0, 7, "right"], [1, 0, "right"], [1, 2, "down"], [1, 3, "down"],
    [1, 5, "down"], [1, 6, "right"], [2, 0, "down"], [2, 1, "down"], [2, 7, "right"], [3, 6, "right"],
    [3, 8, "down"], [4, 0, "down"], [5, 1, "right"], [5, 7, "down"], [5, 8, "down"], [6, 0, "right"],
    [6, 2, "right"], [6, 5, "down"], [6, 6, "down"], [7, 0, "right"], [7, 2, "down"], [7, 3, "right"],
    [7, 7, "down"], [7, 8, "down"], [8, 0, "right"], [8, 3, "right"], [8, 5, "right"]]


def test_a_frozen_lake_triggers_the_end():
    """Our ruling: Neptune stuck, no building and no street can rise -> the end is triggered."""
    game = aiplay.load("sunken_city", backend="reference", players=4)
    base = game.new_initial_state().to_dict()
    sites = [(3, 3), (2, 4), (4, 2), (4, 6), (6, 4), (3, 5), (5, 3), (5, 5), (0, 4), (4, 4)]
    base.update(buildings=[list(s) for s in sites], streets=FROZEN_STREETS,
                street_piles=[0, 0, 0, 0, 1, 0], draw_pile=5)
    state = game.state_from_dict(base)
    assert state.board_frozen() and not state.neptune_can_move()
    state.apply_action(card(4, 3))  # nothing to raise, nowhere to walk: the turn ends by itself
    data = state.to_dict()
    assert data["end_triggered"] and data["turn"] == 1
    while not state.is_terminal():  # the round is played out
        legal = state.legal_actions()
        state.apply_action(END_TURN if END_TURN in legal else legal[0])
    assert state.is_terminal() and state.returns() == [0.25] * 4
    # With building 9 back in its grotto a building can still rise: not frozen.
    base["buildings"][8] = None
    assert not game.state_from_dict(base).board_frozen()


def test_neptune_never_enters_a_village_and_the_two_player_reach_is_4():
    game = aiplay.load("sunken_city", backend="reference")
    state = position(game, streets=[(0, 0, "right"), (1, 0, "right"), (2, 0, "right"), (3, 0, "right")],
                     buildings={}, neptune=[0, 0], turn=0, phase="choose", card=0, raised=True,
                     played=[[0], []])
    state.apply_action(NEPTUNE)
    assert state.to_dict()["neptune_left"] == 4
    assert state.legal_actions() == [NEPTUNE_STOP, nep((1, 0))], "no step into the village"
