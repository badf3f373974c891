"""Area 1851's automatic steps in words (:mod:`aiplay.views.narrate`), read from the reader's views.

The other inventors' choices in a simultaneous phase are hidden until it ends; at that
moment their results show in the public parts of the view (gadgets, dice, assistants,
feats, junkyard sizes), and this says what became public: "player 1 built Alien TP
gadget, used 2 dice, took a feat". Events revealed and the hand rotation get a line too.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Dict, List, Mapping, Optional, Sequence


#: The phases as a person reads them.
PHASES = {"setup_deal": "set-up: the cards are dealt", "setup_place": "set-up: each inventor places an assistant",
          "event": "event phase", "event_choice": "event: each inventor makes the event's choice",
          "prep_cheat": "preparation: each inventor may set one die (Not Cheatin')",
          "prep_skip": "preparation phase", "prep_draw": "preparation: draw up to 5 and roll the dice",
          "action": "action phase", "delivery": "delivery phase", "assistants": "assistants phase",
          "rotation": "rotation: hands are passed", "over": "the game is over"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _mods(seat: Mapping[str, Any]) -> Counter:
    return Counter(s.get("mod") for g in seat.get("gadgets") or [] for s in g.get("sockets") or [] if s.get("mod"))


def _seat_changes(old: Mapping[str, Any], new: Mapping[str, Any], own: bool) -> List[str]:
    """What changed in one seat's public facts, as phrases."""
    parts: List[str] = []
    built = Counter(g.get("gadget") for g in new.get("gadgets") or []) - Counter(
        g.get("gadget") for g in old.get("gadgets") or [])
    gone = Counter(g.get("gadget") for g in old.get("gadgets") or []) - Counter(
        g.get("gadget") for g in new.get("gadgets") or [])
    parts += [f"built {name}" for name in built.elements()]
    parts += [f"added {name}" for name in (_mods(new) - _mods(old)).elements()]
    parts += [f"gave up {name} (delivered or junked)" for name in gone.elements()]
    used = sum(1 for d in new.get("dice") or [] if d.get("used")) - sum(1 for d in old.get("dice") or [] if d.get("used"))
    if used > 0:
        parts.append(f"used {_plural(used, 'die')}".replace("dies", "dice"))
    active: Dict[str, int] = dict(Counter(new.get("assistants_active") or {}) - Counter(old.get("assistants_active") or {}))
    for place, n in active.items():
        parts.append(f"activated {_plural(n, 'assistant')} at the {place}")
    feats = int(new.get("feats_face_down_count") or 0) + len(new.get("feats_revealed") or []) - (
        int(old.get("feats_face_down_count") or 0) + len(old.get("feats_revealed") or []))
    if feats > 0:
        parts.append(f"took {_plural(feats, 'feat')}")
    for feat in (new.get("feats_revealed") or [])[len(old.get("feats_revealed") or []):]:
        parts.append(f"revealed the feat {feat}")
    junk = int(new.get("junkyard_size") or 0) - int(old.get("junkyard_size") or 0)
    if junk > 0:
        parts.append(f"put {_plural(junk, 'card')} in the junkyard")
    elif junk < 0:
        parts.append(f"threw {_plural(-junk, 'junkyard card')} away")
    return parts


def events(before: Mapping[str, Any], after: Mapping[str, Any], mover: int, name: str,
           viewer: Optional[int]) -> List[str]:
    lines: List[str] = []
    for event in (after.get("events") or [])[len(before.get("events") or []):]:
        lines.append(f"event revealed: {event}")
    if before.get("phase") != after.get("phase") and after.get("phase"):
        lines.append(PHASES.get(str(after.get("phase")), f"phase: {after.get('phase')}"))
    for old, new in zip(before.get("seats") or [], after.get("seats") or []):
        seat = new.get("seat")
        # Own moves are told by their names; the other seats' hidden choices show here when the phase ends.
        if seat == viewer and mover == viewer:
            continue
        parts = _seat_changes(old, new, seat == viewer)
        if parts:
            lines.append(f"player {seat} " + ", ".join(parts))
    if before.get("pass_direction") != after.get("pass_direction") and after.get("pass_direction"):
        lines.append(f"hands now pass to the {after.get('pass_direction')}")
    return lines


def past_tense(name: str) -> Optional[str]:
    for pattern, phrase in ((r"take a feat", "took a feat"), (r"scrap (.+)", "scrapped {0}"),
                            (r"reveal feat (.+)", "revealed the feat {0}"),
                            (r"move assistant (.+) -> (.+)", "moved an assistant to the {1}"),
                            (r"place assistant at (.+)", "placed an assistant at the {0}"),
                            (r"activate (\d+) at (.+)", "activated {0} at the {1}"),
                            (r"hand: (.+)", "played {0}")):
        found = re.fullmatch(pattern, name)
        if found:
            return phrase.format(*found.groups())
    if name in ("done",) or re.fullmatch(r"die \d+|gadget \d+( socket \d+)?", name):
        return ""
    return None


def outcome_reason(view: Mapping[str, Any], returns: Sequence[float], scores: Sequence[float]) -> Optional[str]:
    parts = [f"player {s.get('seat')} {s.get('score')} reputation ({_plural(len(s.get('feats_revealed') or []), 'feat')}"
             f" revealed, junkyard {s.get('junkyard_size')})" for s in view.get("seats") or []]
    return ("Most reputation wins (ties: the smaller junkyard, then more feats): " + "; ".join(parts) + ".") if parts else None
