"""Area 51's automatic steps in words (:mod:`aiplay.views.narrate`): points scored by each owner colour.

The scores live on the owners (colours), not the seats, so the generic narrator
does not see them; this reads them from the reader's view before and after a move.
"""

from __future__ import annotations

from typing import Any, List, Mapping, Optional


def events(before: Mapping[str, Any], after: Mapping[str, Any], mover: int, name: str,
           viewer: Optional[int]) -> List[str]:
    """Points each owner colour gained, and security markers running out in a region."""
    lines: List[str] = []
    for old, new in zip(before.get("owners") or [], after.get("owners") or []):
        gained = int(new.get("points", 0)) - int(old.get("points", 0))
        if gained:
            unit = "point" if abs(gained) == 1 else "points"
            lines.append(f"player {new.get('seat')} ({new.get('owner')}) scores {gained} {unit} "
                         f"(now {new.get('points')})")
    for old, new in zip(before.get("regions") or [], after.get("regions") or []):
        if old.get("security_markers") and not new.get("security_markers"):
            lines.append(f"region {new.get('region')} has no security markers left")
    return lines


def past_tense(name: str) -> Optional[str]:
    """A move as a phrase for a turn summary."""
    words = {"collect": "collected cards", "build": "built", "vehicle": "hired a vehicle",
             "pick up": "picked up a pile"}
    return words.get(name)
