"""The seam between a game's SVG picture and a clicking frontend (aiplay.svg_targets, the protocol's ``targets``).

Every id a legal move names must be an element of the picture, every move that has
a place on the Sunken City board must be clickable there, and the protocol hands the
mapping only to the seat to move.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Set

import pytest

import aiplay
from aiplay.errors import NotDecisionNodeError
from aiplay.games.sunken_city import actions as A
from aiplay.match import Match
from aiplay.protocol import Server, render_state
from aiplay.svg_targets import FALLBACK_MAPPINGS, legal_move_targets


def svg_target_ids(svg: str) -> Set[str]:
    """The data-target ids of a picture (which must parse as XML)."""
    root = ET.fromstring(svg)
    return {e.attrib["data-target"] for e in root.iter() if "data-target" in e.attrib}


def sunken_city_positions(players: int, seed: int, backend: str = "auto"):
    """Every decision position of one seeded random Sunken City game."""
    match = Match(aiplay.load("sunken_city", players=players, backend=backend), seed=seed)
    rng = random.Random(seed)
    while not match.state.is_terminal():
        if match.state.is_chance_node():
            match.advance_chance()
            continue
        yield match.state.clone()
        match.apply(rng.choice(match.state.legal_actions()))


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_sunken_city_targets_name_only_elements_of_the_picture(players, seed):
    seen_kinds: Set[str] = set()
    for state in sunken_city_positions(players, seed):
        mover = state.current_player()
        targets = legal_move_targets(state)
        drawn = svg_target_ids(render_state(state, mover, "svg"))  # the picture the protocol sends
        legal = set(state.legal_actions())
        assert set(targets) <= legal
        for action, ids in targets.items():
            assert ids and set(ids) <= drawn, (state.action_to_string(action), ids)
        for action in legal:
            # Every move that has a place on the board can be clicked there.
            if A.STREET_BASE <= action < A.NUM_ACTIONS or action == A.ENTER_VILLAGE:
                assert action in targets, state.action_to_string(action)
        for action, ids in targets.items():
            if A.STREET_BASE <= action < A.BUILD_BASE:
                assert len(set(ids)) == 2  # a street's two cells: either one can be clicked
                seen_kinds.add("street")
            elif A.STEP_BASE <= action < A.NEPTUNE_STEP_BASE:
                seen_kinds.add("step")
        # Two moves on different places never share all their elements (a click can tell them apart).
        streets = [tuple(sorted(ids)) for a, ids in targets.items() if A.STREET_BASE <= a < A.BUILD_BASE]
        assert len(streets) == len(set(streets))
    assert {"street", "step"} <= seen_kinds


def test_native_and_reference_states_give_the_same_targets():
    native = list(sunken_city_positions(2, 5, backend="auto"))[:60]
    reference = list(sunken_city_positions(2, 5, backend="reference"))[:60]
    assert len(native) == len(reference) == 60
    for a, b in zip(native, reference):
        assert legal_move_targets(a) == legal_move_targets(b)


def test_a_game_without_a_mapping_has_no_targets_and_a_chance_node_is_refused():
    match = Match(aiplay.load("pig"), seed=1)
    if match.state.is_chance_node():
        match.advance_chance()
    assert legal_move_targets(match.state) == {}
    chance = Match(aiplay.load("groom_lake", players=4), seed=1).state
    assert chance.is_chance_node()
    before = chance.to_json()
    with pytest.raises(NotDecisionNodeError):
        legal_move_targets(chance)
    assert chance.to_json() == before


def test_a_mapping_may_take_the_viewer_and_name_one_id(monkeypatch):
    match = Match(aiplay.load("pig"), seed=1)
    if match.state.is_chance_node():
        match.advance_chance()
    state = match.state
    legal = state.legal_actions()
    seen = []

    def mapping(s, viewer):
        seen.append(viewer)
        return {**{a: f"spot-{a}" for a in legal}, max(legal) + 1: "not-legal", legal[0]: []} \
            if len(legal) > 1 else {legal[0]: "spot"}

    monkeypatch.setitem(FALLBACK_MAPPINGS, "pig", mapping)
    targets = legal_move_targets(state)
    assert seen == [state.current_player()]
    expected = {a: [f"spot-{a}"] for a in legal[1:]} if len(legal) > 1 else {legal[0]: ["spot"]}
    assert targets == expected


def _ask(server_lines: List[Dict[str, Any]], server: Server, **request: Any) -> Dict[str, Any]:
    server.handle_line(json.dumps(request))
    return server_lines.pop()


@pytest.mark.parametrize("game,players", [("sunken_city", 2), ("area51", 3), ("area1851", 3), ("groom_lake", 4)])
def test_the_protocol_gives_targets_to_the_seat_to_move_only(game, players):
    lines: List[Dict[str, Any]] = []
    server = Server(lines.append)
    status = _ask(lines, server, id=1, cmd="new", game=game, players=players, seed=3, auto_chance=True,
                  viewer="all")  # this client may look at every seat
    assert status["ok"], status
    rng = random.Random(3)
    clickable = 0
    for step in range(12):  # the first dozen decisions of a seeded game
        if status["terminal"]:
            break
        mover = status["to_move"]
        view = _ask(lines, server, id=2, cmd="view", player=mover, render="svg")
        assert view["ok"], view
        legal = sorted(m["id"] for m in _ask(lines, server, id=3, cmd="legal")["actions"])
        if view["svg"] is None:
            assert view["targets"] == {}
        else:
            drawn = svg_target_ids(view["svg"])
            assert {int(a) for a in view["targets"]} <= set(legal)
            for ids in view["targets"].values():
                assert set(ids) <= drawn
        clickable += bool(view["targets"])
        other = (mover + 1) % players
        assert _ask(lines, server, id=4, cmd="view", player=other, render="svg")["targets"] == {}
        assert "targets" not in _ask(lines, server, id=5, cmd="view", player=mover, render="text")
        status = _ask(lines, server, id=6, cmd="apply", action=rng.choice(legal))
        assert status["ok"], status
    if game == "sunken_city":
        assert clickable > 0, "some of Sunken City's first moves have a place on the board"
