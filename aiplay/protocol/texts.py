"""The protocol's words for a person: the ``rules`` command, move meanings, the log, the outcome.

Kept out of :mod:`aiplay.protocol.server` so that the server only wires them in
(docs/protocol.md: ``rules``, ``legal`` with ``"meanings": true``, and the
``log``, ``summary`` and ``outcome`` fields of every status object).
Everything here is told as the client's seat may read it
(:mod:`aiplay.views.narrate`, :mod:`aiplay.views.guide`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Tuple

from aiplay.game import State, seen_action
from aiplay.match import Match
from aiplay.protocol.wire import ProtocolError, _field
from aiplay.registry import game_entry
from aiplay.views.guide import how_to_play, name_meaning
from aiplay.views.narrate import match_log, match_summaries, outcome, plural
from aiplay.views.panel import chances_in_words


class LogCursor:
    """What one client was told of a match's moves: the ply it was told up to, and that line of play."""

    def __init__(self) -> None:
        self.ply = 0
        self.key = b""

    def fields(self, match: Match, viewer: Optional[int]) -> Dict[str, Any]:
        """``log`` (the new lines since the last call), ``summary`` (the other seats' turns among them) and,
        at the end of the game, ``outcome``; moves the client was told of and that were taken back since
        are said in one line."""
        lines: List[str] = []
        since = self.ply
        if since > match.ply or match.line_key(min(since, match.ply)) != self.key:
            lines.append("moves were taken back: the game is now at move " + str(match.ply))
            since = match.ply
        lines.extend(match_log(match, since, viewer))
        data: Dict[str, Any] = {"log": lines, "summary": match_summaries(match, since, viewer) if since < match.ply
                                else []}
        self.ply, self.key = match.ply, match.line_key()
        if match.is_terminal():
            data["outcome"] = outcome(match.state, viewer)
        return data


def rules_reply(request: Mapping[str, Any], open_game: Optional[str]) -> Dict[str, Any]:
    """``rules``: the how-to-play text of ``game`` (a name), or of the open game when none is named."""
    name = _field(request, "game", (str,))
    if name is None:
        if open_game is None:
            raise ProtocolError("field 'game' is required (a game name) when no single game is open")
        name = open_game
    entry = game_entry(name)
    return {"game": entry.name, "title": entry.title, "format": "markdown", "text": how_to_play(entry.name)}


def value_in_words(value: Any, game: Any) -> Optional[str]:
    """A search's estimate for the seat to move in words ("about even"), None without an estimate."""
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return None
    return chances_in_words(value, game)


def with_meanings(state: State, viewer: Optional[int], actions: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """``legal``'s entries with ``meaning`` added, told from the viewer's own view (the mover's for "all")."""
    seat = viewer if viewer is not None else max(state.current_player(), 0)
    try:
        view: Mapping[str, Any] = state.view(seat)
    except Exception:  # noqa: BLE001 - a game without views: meanings read the names alone
        view = {}
    chance = state.is_chance_node()
    return [{**entry, "meaning": name_meaning(state, seen_action(state, entry["id"], viewer)[1], view, chance)}
            for entry in actions]


__all__ = ["LogCursor", "plural", "rules_reply", "value_in_words", "with_meanings"]
