"""Groom Lake's view as labelled groups for a side panel (:func:`aiplay.views.panel.view_panel`)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from aiplay.views.panelkit import cards, count, items


def _tile(view: Mapping[str, Any], xy: Any) -> str:
    for t in view.get("map") or []:
        if [t.get("x"), t.get("y")] == list(xy or []):
            hazard = f" {t['hazard']} {t['number']}" + (" (open)" if t.get("hazard_open") else " (beaten)") \
                if t.get("hazard") else ""
            return f"{t.get('tile') if t.get('tile') == 'Groom Lake' else t.get('terrain')}{hazard}"
    return "-"


#: Each role's goal in a sentence (spec "End", in our words), told to the seat that holds the role.
GOALS = {
    "Human": "You are a Human: you win if the Team reaches a Civilization tile with no open hazard left "
             "there while you are alive and hold the most Alien Proof among the living Humans and Hunter. "
             "One player is the Alien: vote it out, and stay alive.",
    "Hunter": "You are the Hunter: you win like a Human (reach Civilization alive with the most Alien Proof), "
              "and if your strike kills the Alien you take its card (+50 Alien Proof). Strike a Human and you "
              "both die.",
    "Alien": "You are the Alien: you win if every Human and the Hunter dies, if you hold 50 Technology "
             "Alien Proof (you then reveal it), or if the Team can no longer reach a way out. Stay hidden: "
             "a vote against you kills you.",
}


def seat_note(view: Mapping[str, Any], viewer: int) -> Optional[str]:
    """The viewer's own role and its goal ("You are the Alien: you win if ..."), None before the roles are dealt.

    Read from the viewer's own seat in its view: it never names another seat's role.
    """
    seats = list(view.get("seats") or [])
    own = next((s for s in seats if s.get("seat") == viewer), None)
    role = own.get("role") if own is not None else None
    return GOALS.get(str(role)) if role else None


def panel(view: Mapping[str, Any], viewer: int) -> List[Dict[str, Any]]:
    team = view.get("team") or [0, 0]
    turn = view.get("turn_seat")
    note = seat_note(view, viewer)
    sections = [{"title": "Your role", "rows": [["goal", note]]}] if note else []
    sections += [{"title": "This turn", "rows": [
        ["player", "set-up" if turn is None else f"player {turn}" + (" (you)" if turn == viewer else "")],
        ["action points left", str(view.get("action_points"))],
        ["step", str(view.get("step")).replace("_", " ")],
        ["waiting for", items([f"player {s}" for s in view.get("waiting_seats") or []])],
        ["dice total / yes votes", str(view.get("total"))],
        ["result", str(view.get("result")).replace("_", " ")],
    ]}]
    sections += [{"title": "The desert", "rows": [
        ["Team at", f"({team[0]},{team[1]}): {_tile(view, team)}"],
        ["tiles placed", str(len(view.get("map") or []))],
        ["tile stacks", "; ".join(f"{t['stack']}: {t['tiles_left']} left" for t in view.get("tile_stacks") or [])],
        ["Discard Stack (top last)", items(view.get("discard_stack"))],
        ["supply deck", count(view.get("deck_size"), "card")],
        ["Refresh stack", count(view.get("refresh_size"), "card")],
        ["Recovery cards played", str(view.get("recoveries_played"))],
    ]}]
    for s in view.get("seats") or []:
        seat = s.get("seat")
        role = s.get("role") or "unknown"
        rows = [["role", role + (" (revealed)" if s.get("role_revealed") else "")],
                ["lives", str(s.get("life")) + (" (dead)" if s.get("life") == 0 and turn is not None else "")],
                ["hand", cards(s.get("hand")) if s.get("hand") is not None else count(s.get("hand_size"), "card")],
                ["cards all know of", cards(s.get("known_in_hand"))]]
        sections.append({"title": f"Player {seat}" + (" (you)" if seat == viewer else ""), "rows": rows})
    return sections
