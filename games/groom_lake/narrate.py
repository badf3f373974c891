"""Groom Lake's automatic steps in words (:mod:`aiplay.views.narrate`), read from the reader's views.

The Team's moves and pushes back, a hazard's dice and whether it was beaten, a vote's
result, deaths and revealed roles, the Discard Stack running out, cards taken and
handed out (counted, never named for another seat), and the end.
"""

from __future__ import annotations

import re
from typing import Any, List, Mapping, Optional, Sequence

from aiplay.views.narrate import chance_story, generic_events

#: The life and score changes are told here, each seat's before its death, not after the end.
GENERIC_EVENTS = False


def _tile_at(view: Mapping[str, Any], xy: Sequence[int]) -> Optional[Mapping[str, Any]]:
    for tile in view.get("map") or []:
        if [tile.get("x"), tile.get("y")] == list(xy):
            return tile
    return None


def _tile_name(tile: Optional[Mapping[str, Any]]) -> str:
    if tile is None:
        return "a tile"
    hazard = tile.get("hazard")
    return f"{tile.get('terrain')} {hazard} {tile.get('number')}" if hazard else str(tile.get("tile") or tile.get("terrain"))


def events(before: Mapping[str, Any], after: Mapping[str, Any], mover: int, name: str,
           viewer: Optional[int]) -> List[str]:
    lines: List[str] = []
    rolled = re.search(r"(\d+)$", name) if mover < 0 else None
    final_total = int(before.get("total") or 0) + (int(rolled.group(1)) if rolled else 0)
    team_a, team_b = list(before.get("team") or []), list(after.get("team") or [])
    if team_a and team_b and team_a != team_b:
        tile = _tile_at(after, team_b)
        if before.get("step") in ("roll", "contribute") and before.get("total") is not None:
            hazard = _tile_at(before, team_a)
            total = final_total
            need = f", needed more than {hazard.get('number')}" if hazard is not None else ""
            lines.append(f"the hazard was not beaten (dice total {total}{need}): the Team goes back to "
                         f"({team_b[0]},{team_b[1]}), {_tile_name(tile)}")
        else:
            lines.append(f"the Team moves to ({team_b[0]},{team_b[1]}): {_tile_name(tile)}")
            if tile is not None and tile.get("hazard_open") and tile.get("hazard") not in (None, "Crash Site"):
                lines.append(f"an open hazard: {tile.get('hazard')} {tile.get('number')} must be beaten "
                             f"(every player may add helping cards and life tokens; one die each)")
    # A hazard closed since: beaten (the closing roll is this move: its die adds to the total so far).
    for old, new in zip(before.get("map") or [], after.get("map") or []):
        if old.get("hazard_open") and not new.get("hazard_open") and new.get("hazard"):
            what = "investigated" if new.get("hazard") == "Crash Site" else "beaten"
            lines.append(f"{_tile_name(new)} at ({new.get('x')},{new.get('y')}) is {what}"
                         + (f" (dice total {final_total}, more than {new.get('number')})" if what == "beaten" else ""))
    for tile in (after.get("map") or [])[len(before.get("map") or []):]:
        lines.append(f"a new tile is placed at ({tile.get('x')},{tile.get('y')}): {_tile_name(tile)}")
    if before.get("step") == "vote" and after.get("step") != "vote":
        ballots = list(before.get("ballots") or [])
        if re.fullmatch(r"yes|no", name):
            yes = sum(1 for b in ballots if b.get("yes")) + (name == "yes")
            no = len(ballots) + 1 - yes
            lines.append(f"the vote is over: {yes} yes, {no} no")
    # Causes before their effects: the Discard Stack running out before the lives it costs, a seat's
    # lives lost before its death, and the end last.
    stack_a, stack_b = list(before.get("discard_stack") or []), list(after.get("discard_stack") or [])
    if stack_a and stack_b == stack_a[:-1] and before.get("turn_seat") is not None:
        # The end of a turn: the Discard Stack's top card (the list's last) goes to the player's hand, openly.
        lines.append(f"player {before.get('turn_seat')} takes {stack_a[-1]} from the Discard Stack")
    if before.get("discard_stack") and not after.get("discard_stack") and after.get("step") != "over":
        lines.append("the Discard Stack is empty: every living player loses a life and 6 new cards are laid out")
    seats_a, seats_b = before.get("seats") or [], after.get("seats") or []
    for old, new in zip(seats_a, seats_b):
        seat = new.get("seat")
        lines.extend(generic_events({"seats": [old]}, {"seats": [new]}))
        if old.get("life", 0) > 0 and new.get("life") == 0:
            lines.append(f"player {seat} dies")
        if new.get("role_revealed") and not old.get("role_revealed"):
            lines.append(f"player {seat} is revealed: {new.get('role')}")
        dealing = after.get("step") in ("roles", "deal", "keep")  # the deal: the picture counts the hands
        # A chance step's cards are told by its sentence (chance_lines); a decision's here.
        if not dealing and mover >= 0 and (name.startswith("refresh") or name.startswith("card to")):
            change = int(new.get("hand_size") or 0) - int(old.get("hand_size") or 0)
            if change > 0 and seat != viewer:
                lines.append(f"player {seat} gets {change} card{'s' if change > 1 else ''} "
                             f"({new.get('hand_size')} in hand)")
    if after.get("result") != before.get("result") and after.get("result") not in (None, "none"):
        lines.append("the Team escapes!" if after.get("result") == "team_escapes" else "the Alien wins")
    return lines


def past_tense(name: str) -> Optional[str]:
    for pattern, phrase in ((r"move ([NESW])", "moved the Team {0}"), (r"scout", "scouted"),
                            (r"place at \((-?\d+),(-?\d+)\) turned \d", "placed a tile at ({0},{1})"),
                            (r"play Recovery", "played a Recovery"),
                            (r"vote against player (\d+)", "called a vote against player {0}"),
                            (r"(yes|no)", "voted {0}"), (r"keep a (card|tile)", "kept a {0}"), (r"keep (?!tile )(.+)", "kept {0}"), (r"discard a life token", "gave a life token to the hazard"),
                            (r"discard (.+)", "gave {0} to the hazard"), (r"refresh (.+)", "put {0} on the Refresh stack"),
                            (r"a card to the Refresh stack", "put a card on the Refresh stack"),
                            (r"investigation to player (\d+)", "gave an investigation to player {0}"),
                            (r"card to player (\d+)", "handed a card to player {0}")):
        found = re.fullmatch(pattern, name)
        if found:
            return phrase.format(*found.groups())
    if name in ("end turn", "done") or name.startswith("keep tile") or name.startswith("draw tile"):
        return ""
    return None


def outcome_reason(view: Mapping[str, Any], returns: Sequence[float], scores: Sequence[float]) -> Optional[str]:
    roles = [f"player {s.get('seat')} was {s.get('role') or 'unknown'}" for s in view.get("seats") or []]
    if view.get("result") == "team_escapes":
        why = "The Team reached Civilization; the surviving non-Alien with the most Alien Proof wins."
    elif view.get("result") == "alien_wins":
        why = "The Alien won: " + _alien_win_cause(view, scores) + "."
    else:
        return None
    return why + (" " + "; ".join(roles) + "." if roles else "")


def _alien_win_cause(view: Mapping[str, Any], scores: Sequence[float]) -> str:
    """Which of the Alien's three ways to win ended this game, checked in the rules' order (spec, "End")."""
    seats = list(view.get("seats") or [])
    alien = next((s for s in seats if s.get("role") == "Alien"), None)
    if alien is not None and int(alien.get("life") or 0) > 0 and alien.get("role_revealed"):
        return "it held 50 Technology Alien Proof and showed it"  # the one way a living Alien is revealed
    others = [s for s in seats if s.get("role") not in (None, "Alien")]
    if others and all(int(s.get("life") or 0) == 0 for s in others):
        return "every Human and Hunter died"
    return "the Team could no longer escape (no way out to a Civilization tile)"


def public_scores(view: Mapping[str, Any], scores: Sequence[float]) -> List[Optional[float]]:
    """The Alien Proof a seat is shown at the end (spec, "End"): the seat's own always; when the Team
    escapes, the living Humans' and Hunter's, who compare theirs to find the winner; nobody else's."""
    seats = list(view.get("seats") or [])
    me = view.get("observer")
    shown: List[Optional[float]] = []
    for p, score in enumerate(scores):
        seat = seats[p] if p < len(seats) else {}
        compared = (view.get("result") == "team_escapes" and int(seat.get("life") or 0) > 0
                    and seat.get("role") not in (None, "Alien"))
        shown.append(float(score) if p == me or compared else None)
    return shown


def chance_lines(names: List[str], viewer: Optional[int]) -> List[str]:
    """Roles, the deal, draws, tiles and dice in sentences; another seat's card, tile or role never named."""
    lines: List[str] = []
    for name in names:
        role = re.fullmatch(r"(Alien|Hunter) is player (\d+)", name)
        if role:  # the viewer reads this name only for its own role
            lines.append(f"You are dealt the {role.group(1)} role (secret).")
        elif re.fullmatch(r"the (Alien|Hunter) role is dealt", name):
            lines.append(f"The {name.split()[1]} role is dealt to someone else, in secret.")
    rest = [n for n in names if not re.fullmatch(r"(Alien|Hunter) is player \d+|the (Alien|Hunter) role is dealt", n)]
    return lines + chance_story(rest, viewer, (
        (r"deal (?P<what>.+) to player (?P<seat>\d+)", "was dealt", "were dealt", ("card", "cards")),
        (r"player (?P<seat>\d+) draws (?P<what>a tile)", "drew", "drew", ("tile", "tiles")),
        (r"player (?P<seat>\d+) draws (?P<what>.+)", "drew", "drew", ("card", "cards")),
        (r"player (?P<seat>\d+) receives (?P<what>.+)", "received", "received", ("card", "cards"))),
        ((r"(?P<what>.+) face up", "Laid out face up:"), (r"die shows (?P<what>\d+)", "The dice show"),
         (r"draw tile (?P<what>.+)", "You drew the tile")))
