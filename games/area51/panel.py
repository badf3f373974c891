"""Area 51's view as labelled groups for a side panel (:func:`aiplay.views.panel.view_panel`)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from aiplay.views.panelkit import cards, count, items


def panel(view: Mapping[str, Any], viewer: int) -> List[Dict[str, Any]]:
    deck = view.get("deck") or {}
    sections = [{"title": "This turn", "rows": [
        ["player", f"player {view.get('turn_seat')}" + (" (you)" if view.get("turn_seat") == viewer else "")],
        ["step", str(view.get("step")).replace("_", " ")],
        ["cards taken", str(view.get("cards_taken", 0))],
        ["last turns left", str(view.get("turns_left", 0)) if view.get("turns_left") else "-"],
        ["face-up row", cards(view.get("row"))],
        ["deck", count(sum(int(v) for v in deck.values()), "card")],
        ["discard pile", count(sum((view.get("discards") or {}).values()), "card")],
    ]}]
    for region in view.get("regions") or []:
        rows = [["security markers left", str(region.get("security_markers"))]]
        for space, bunker in enumerate(region.get("bunkers") or [], 1):
            if bunker:
                rows.append([f"space {space}", f"{bunker['colour']} bunker level {bunker['level']} ({bunker['owner']})"])
        for h, pile in enumerate(region.get("hangars") or [], 1):
            up = [c["card"] for c in pile if c.get("face_up")]
            down = sum(1 for c in pile if not c.get("face_up"))
            text = ", ".join(up + ([count(down, "face-down card")] if down else [])) or "empty"
            rows.append([f"hangar {h}", text])
        sections.append({"title": f"Region {region.get('region')}", "rows": rows})
    vehicles = [[v["vehicle"], f"{v['route'][0]} -> {v['route'][1]}, number {v['number']}"]
                for v in view.get("vehicles") or [] if v.get("route")]
    sections.append({"title": "Trucks and trains", "rows": vehicles or [["vehicles", "none hired yet"]]})
    points = {o.get("seat"): [] for o in view.get("owners") or []}
    for o in view.get("owners") or []:
        points.setdefault(o.get("seat"), []).append(f"{o.get('owner')} {o.get('points')} points, "
                                                     f"{count(o.get('caps_left'), 'cap')} left")
    for s in view.get("seats") or []:
        seat = s.get("seat")
        rows = [["colours", items(s.get("owners"))], ["score", str(s.get("score"))],
                ["by colour", "; ".join(points.get(seat, []))],
                ["hand", cards(s.get("hand")) if s.get("hand") is not None else count(s.get("hand_size"), "card")],
                ["cards all know of", cards(s.get("known_in_hand"))]]
        sections.append({"title": f"Player {seat}" + (" (you)" if seat == viewer else ""), "rows": rows})
    return sections
