"""The protocol's ``targets``: which elements of the ``view`` picture each legal move touches.

A clicking frontend (the browser demo) reads them: every id must be an element of the picture
sent with it (a board game's own test checks that its moves with a place on the board are
clickable there), and the map goes only to the seat to move (another seat's legal moves may tell
what it hides).
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Set

import pytest

import aiplay
from aiplay.protocol import Server
from aiplay.testing.choose import games_with, pick_game, pick_options

#: Every board game (it draws pictures) at its first option set of the generic tests.
BOARD_GAMES = [(name, pick_options(name)) for name in games_with(board=True)]


def svg_target_ids(svg: str) -> Set[str]:
    """The data-target ids of a picture (which must parse as XML)."""
    root = ET.fromstring(svg)
    return {e.attrib["data-target"] for e in root.iter() if "data-target" in e.attrib}


def _ask(lines: List[Dict[str, Any]], server: Server, **request: Any) -> Dict[str, Any]:
    server.handle_line(json.dumps(request))
    reply = lines.pop()
    assert reply["ok"], reply
    return reply


@pytest.mark.parametrize("game,options", BOARD_GAMES, ids=[name for name, _ in BOARD_GAMES])
def test_the_protocol_gives_targets_to_the_seat_to_move_only(game, options):
    players = aiplay.load(game, **options).num_players
    lines: List[Dict[str, Any]] = []
    server = Server(lines.append)
    status = _ask(lines, server, id=1, cmd="new", game=game, options=options, seed=3, auto_chance=True,
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
    # A game with no picture that opens with no viewer (perfect information).
    name = pick_game(svg=False, perfect_information=True)
    status = _ask(lines, server, id=1, cmd="new", game=name, seed=1, auto_chance=True)
    view = _ask(lines, server, id=2, cmd="view", player=status["to_move"], render="svg")
    assert view["svg"] is None and not view.get("targets")
