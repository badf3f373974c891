"""Kuhn poker through the protocol: its hidden deals are named for a seat only with an explicit viewer.

Moved from ``tests/test_seat_transcripts.py`` (the deal's name is this game's).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List

from aiplay.protocol import Server


def test_omniscient_names_need_an_explicit_viewer() -> None:
    """A hidden-information game opens only for a seat or for "all", and "all" shows the hidden draws."""
    replies: List[Dict[str, Any]] = []
    server = Server(replies.append)
    server.handle_line(json.dumps({"id": 1, "cmd": "new", "game": "kuhn_poker"}))
    assert replies[-1]["ok"] is False and "viewer" in replies[-1]["error"]
    server.handle_line(json.dumps({"id": 2, "cmd": "new", "game": "kuhn_poker", "viewer": "all",
                                   "auto_chance": True, "seed": 1}))
    shown = [m["name"] for m in replies[-1]["chance_moves"]]
    assert all(m["action"] is not None for m in replies[-1]["chance_moves"])
    server.handle_line(json.dumps({"id": 3, "cmd": "history", "viewer": 1}))
    seen = replies[-1]["moves"]
    assert seen[0]["action"] is None and seen[0]["name"] == "Deal a card to player 0" != shown[0]
    assert seen[1]["action"] is not None and seen[1]["name"] == shown[1]
    server.handle_line(json.dumps({"id": 4, "cmd": "position", "viewer": 1}))
    assert replies[-1]["ok"] is False
    server.handle_line(json.dumps({"id": 5, "cmd": "view", "player": 0, "viewer": 1}))
    assert replies[-1]["ok"] is False
