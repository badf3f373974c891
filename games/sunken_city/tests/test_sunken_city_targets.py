"""The protocol's ``targets`` on Sunken City: every move that has a place on the board is clickable there.

Moved from ``tests/test_protocol_targets.py`` (the action ranges are this game's).
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Set

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
