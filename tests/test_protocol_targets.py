"""The protocol's ``targets``: which elements of the ``view`` picture each legal move touches.

A clicking frontend (the browser demo) reads them: every id must be an element of the picture
sent with it, every Sunken City move that has a place on the board must be clickable there, and
the map goes only to the seat to move (another seat's legal moves may tell what it hides).
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Set

import pytest

from aiplay.games.sunken_city import actions as A
from aiplay.protocol import Server


def svg_target_ids(svg: str) -> Set[str]:
    """The data-target ids of a picture (which must parse as XML)."""
    root = ET.fromstring(svg)
    return {e.attrib["data-target"] for e in root.iter() if "data-target" in e.attrib}


def _ask(lines: List[Dict[str, Any]], server: Server, **request: Any) -> Dict[str, Any]:
    server.handle_line(json.dumps(request))
    reply = lines.pop()
    assert reply["ok"], reply
    return reply


def test_every_sunken_city_board_move_is_clickable_in_the_picture_sent_with_it():
    lines: List[Dict[str, Any]] = []
    server = Server(lines.append)
    status = _ask(lines, server, id=1, cmd="new", game="sunken_city", players=2, seed=5, auto_chance=True)
    rng = random.Random(5)
    kinds: Set[str] = set()
    while not status["terminal"]:
        view = _ask(lines, server, id=2, cmd="view", player=status["to_move"], render="svg")
        drawn = svg_target_ids(view["svg"])
        legal = [m["id"] for m in _ask(lines, server, id=3, cmd="legal")["actions"]]
        assert {int(a) for a in view["targets"]} <= set(legal)
        targets = {int(a): ids for a, ids in view["targets"].items() if ids}  # []: no place on the board
        for action, ids in targets.items():
            assert ids and set(ids) <= drawn
        for action in legal:
            if A.STREET_BASE <= action < A.NUM_ACTIONS:  # streets, buildings, steps of the adventurer or Neptune
                assert action in targets, action
            if A.STREET_BASE <= action < A.BUILD_BASE:
                assert len(set(targets[action])) == 2  # a street's two cells
                kinds.add("street")
            elif A.STEP_BASE <= action < A.NUM_ACTIONS:
                kinds.add("step")
        status = _ask(lines, server, id=4, cmd="apply", action=rng.choice(legal))
    assert kinds == {"street", "step"}


@pytest.mark.parametrize("game,players", [("sunken_city", 2), ("area51", 3), ("area1851", 3), ("groom_lake", 4)])
def test_the_protocol_gives_targets_to_the_seat_to_move_only(game, players):
    lines: List[Dict[str, Any]] = []
    server = Server(lines.append)
    status = _ask(lines, server, id=1, cmd="new", game=game, players=players, seed=3, auto_chance=True,
                  viewer="all")  # this client may look at every seat
    rng = random.Random(3)
    clickable = 0
    for step in range(12):  # the first dozen decisions of a seeded game
        if status["terminal"]:
            break
        mover = status["to_move"]
        view = _ask(lines, server, id=2, cmd="view", player=mover, render="svg")
        legal = sorted(m["id"] for m in _ask(lines, server, id=3, cmd="legal")["actions"])
        drawn = svg_target_ids(view["svg"])
        assert {int(a) for a in view["targets"]} <= set(legal)
        for ids in view["targets"].values():
            assert set(ids) <= drawn
        clickable += any(view["targets"].values())
        other = (mover + 1) % players
        assert not any(_ask(lines, server, id=4, cmd="view", player=other, render="svg")["targets"].values())
        assert "targets" not in _ask(lines, server, id=5, cmd="view", player=mover, render="text")
        status = _ask(lines, server, id=6, cmd="apply", action=rng.choice(legal))
    assert clickable > 0, "some of the first moves have a place on the board"


def test_a_game_without_a_picture_has_no_targets():
    lines: List[Dict[str, Any]] = []
    server = Server(lines.append)
    status = _ask(lines, server, id=1, cmd="new", game="pig", seed=1, auto_chance=True)
    view = _ask(lines, server, id=2, cmd="view", player=status["to_move"], render="svg")
    assert view["svg"] is None and not view.get("targets")
