"""Sunken City's moves as phrases for turn summaries, and why the game ended (:mod:`aiplay.views.narrate`)."""

from __future__ import annotations

import re
from typing import Any, List, Mapping, Optional, Sequence

#: (pattern, phrase) for summaries: "Player 1 raised building 9 and walked to r6c5."
PHRASES = ((r"card raise (\d+) move (\d+)", "played the card raise {0}, move {1}"),
           (r"building (\d+) at (r\d+c\d+)", "raised building {0} at {1}"),
           (r"street (\S+)", "raised a street at {0}"),
           (r"walk to (\S+)", "walked to {0}"), (r"enter village", "went home"),
           (r"neptune to (\S+)", "moved Neptune to {0}"), (r"use chip", "used a Neptune chip"))
#: Block starters and ends a summary leaves out (the moves inside say it all).
SILENT = {"raise", "move", "neptune", "stop", "neptune stops", "end turn"}


def past_tense(name: str) -> Optional[str]:
    for pattern, phrase in PHRASES:
        found = re.fullmatch(pattern, name)
        if found:
            return phrase.format(*found.groups())
    return "" if name in SILENT else None


def events(before: Mapping[str, Any], after: Mapping[str, Any], mover: int, name: str,
           viewer: Optional[int]) -> List[str]:
    """Treasures found, secured or lost, and pieces sunk by Neptune."""
    lines: List[str] = []
    rolled = re.fullmatch(r"die (\d+)", name) if mover < 0 else None
    if rolled:
        n = int(rolled.group(1))
        lines.append(f"Neptune may move up to {n} space{'s' if n != 1 else ''}" if n else "Neptune cannot move this turn")
    for old, new in zip(before.get("seats") or [], after.get("seats") or []):
        seat = new.get("seat")
        found = [t for t in new.get("carried") or [] if t not in (old.get("carried") or [])]
        secured = [t for t in new.get("secured") or [] if t not in (old.get("secured") or [])]
        lost = [t for t in old.get("carried") or [] if t not in (new.get("carried") or []) and t not in secured]
        if found:
            lines.append(f"player {seat} finds treasure {', '.join(map(str, found))}")
        if secured:
            lines.append(f"player {seat} secures treasure {', '.join(map(str, secured))} in the village")
        if lost:
            lines.append(f"player {seat} is sent home and loses treasure {', '.join(map(str, lost))}")
        if int(new.get("neptune_chips") or 0) > int(old.get("neptune_chips") or 0):
            lines.append(f"player {seat} gets a Neptune chip")
    sunk = [b["building"] for b, a in zip(before.get("buildings") or [], after.get("buildings") or [])
            if b.get("cell") is not None and a.get("cell") is None]
    if sunk:
        lines.append("building " + ", ".join(map(str, sunk)) + " sinks")
    if after.get("end_triggered") and not before.get("end_triggered"):
        lines.append("the end is near: this round is the last")
    return lines


def outcome_reason(view: Mapping[str, Any], returns: Sequence[float], scores: Sequence[float]) -> Optional[str]:
    seats = view.get("seats") or []
    parts = [f"player {s.get('seat')} secured {len(s.get('secured') or [])} "
             f"{'treasure' if len(s.get('secured') or []) == 1 else 'treasures'} (value {s.get('secured_value')})"
             for s in seats]
    return ("Most secured treasures wins, then their value: " + "; ".join(parts) + ".") if parts else None


def chance_lines(names: List[str], viewer: Optional[int]) -> List[str]:
    """Neptune's die in words (the line after it says how far Neptune may move)."""
    return [f"Neptune's die shows {m.group(1)}." if m else name[:1].upper() + name[1:] + "."
            for name, m in ((n, re.fullmatch(r"die (\d+)", n)) for n in names)]
