"""Area 51's automatic steps in words (:mod:`aiplay.views.narrate`): points scored by each owner colour.

The scores live on the owners (colours), not the seats, so the generic narrator
does not see them; this reads them from the reader's view before and after a move.
"""

from __future__ import annotations

import re
from typing import Any, List, Mapping, Optional, Sequence, Tuple

from aiplay.views.narrate import chance_story

#: The seats' scores are their colours' (told per colour below): no generic score lines too.
GENERIC_EVENTS = False


def _picked_up(before: Mapping[str, Any], after: Mapping[str, Any]) -> List[str]:
    """The cards of a hangar's pile just picked up: face-down ones included, it is shown to all (spec,
    "Information")."""
    pile_a, pile_b = before.get("picked_up") or {}, after.get("picked_up") or {}
    if not pile_b or pile_a:
        return []
    return [name for name, count in pile_b.items() for _ in range(int(count))]


def _into_hand(before: Mapping[str, Any], after: Mapping[str, Any], name: str) -> List[Tuple[Any, List[str]]]:
    """Per seat, the cards of an unloaded pile that went into its hand, seen by all (its ``known_in_hand``)."""
    if not (name.startswith("pick up ") or name.startswith("store ")):
        return []
    out = []
    for old, new in zip(before.get("seats") or [], after.get("seats") or []):
        known_a, known_b = old.get("known_in_hand") or {}, new.get("known_in_hand") or {}
        gained = [k for k, c in known_b.items() for _ in range(max(0, int(c) - int(known_a.get(k, 0))))]
        if gained:
            out.append((new.get("seat"), gained))
    return out


def summary_extra(before: Mapping[str, Any], after: Mapping[str, Any], name: str, viewer: Optional[int]) -> Optional[str]:
    """What a pick-up showed, for the turn summary: the pile's cards, or those taken into hand."""
    picked = _picked_up(before, after)
    if picked:
        return "its pile: " + ", ".join(picked)
    taken = [card for _, cards in _into_hand(before, after, name) for card in cards]
    return ("took " + ", ".join(taken) + " into hand") if taken else None


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
    picked = _picked_up(before, after)
    if picked:
        lines.append(f"player {after.get('turn_seat')} picks up the hangar's pile (now shown to all): "
                     + ", ".join(picked))
    for seat, gained in _into_hand(before, after, name):
        lines.append(f"player {seat} takes into hand from the pile (seen by all): " + ", ".join(gained))
    for old, new in zip(before.get("regions") or [], after.get("regions") or []):
        if old.get("security_markers") and not new.get("security_markers"):
            lines.append(f"region {new.get('region')} has no security markers left")
    return lines


#: (pattern, phrase) for turn summaries; the action's first move ("collect", "build"...) says nothing the rest does not.
PHRASES = ((r"create (\w+) bunker in (R\d) for (\w+)", "created a {0} bunker in {1} for {2}"),  # 2 players: a colour each
           (r"create (\w+) bunker in (R\d)", "created a {0} bunker in {1}"),
           (r"upgrade bunker (R\d/\d+)", "upgraded the bunker {0}"),
           (r"face-up (.+) to hangar (\d+)", "played {0} face up to hangar {1}"),
           (r"face-down card to hangar (\d+)", "played a card face down to hangar {0}"),
           (r"face-down (.+) to hangar (\d+)", "played {0} face down to hangar {1}"),
           (r"(\w+ (?:truck|train)) (R\d)->(R\d)", "sent the {0} from {1} to {2}"),
           (r"number (\d+)", "numbered it {0}"),
           (r"pick up (R\d) hangar (\d+)", "picked up hangar {1} of {0}"),
           (r"store (.+) in (R\d/\d+)", "stored {0} in {1}"),
           (r"take face-up (.+)", "took {0}"), (r"take deck top", "took the deck's top card"),
           (r"refresh discarding (.+)", "discarded {0} and refreshed the row"))
SILENT = {"collect", "build", "vehicle", "pick up"}


def past_tense(name: str) -> Optional[str]:
    """A move as a phrase for a turn summary ("" for an action's first move)."""
    for pattern, phrase in PHRASES:
        found = re.fullmatch(pattern, name)
        if found:
            return re.sub(r"\ba (?=[aeiou])", "an ", phrase.format(*found.groups()))
    return "" if name in SILENT else None


def chance_lines(names: List[str], viewer: Optional[int]) -> List[str]:
    """The deal, draws and the face-up row's new cards in sentences (another seat's cards counted, never named)."""
    return chance_story(names, viewer, (
        (r"deal (?P<what>.+) to player (?P<seat>\d+)", "was dealt", "were dealt", ("card", "cards")),
        (r"draw (?P<what>.+) for player (?P<seat>\d+)", "drew", "drew", ("card", "cards"))),
        ((r"reveal (?P<what>.+)", "Turned face up in the row:"),))

def outcome_reason(view: Mapping[str, Any], returns: Sequence[float], scores: Sequence[Any]) -> Optional[str]:
    """With two players, the final scores and the rule behind them (each owns two colours and counts the
    lower); None otherwise (the generic "Final scores: ..." line)."""
    seats = view.get("seats") or []
    if len(seats) != 2 or len(scores) != 2 or None in scores or returns[0] == returns[1]:
        return None
    winner = 0 if returns[0] > returns[1] else 1
    loser = 1 - winner
    text = (f"Final scores: player {winner} {scores[winner]:g}; player {loser} {scores[loser]:g}. With two "
            "players each player owns two colours and scores the lower of their two totals.")
    if scores[0] == scores[1]:
        text += " The scores tie: the player with more cards in hand wins."
    return text
