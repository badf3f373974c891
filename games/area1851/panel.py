"""Area 1851's view as labelled groups for a side panel (:func:`aiplay.views.panel.view_panel`)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from aiplay.views.panelkit import cards, count, items


def _gadget(g: Mapping[str, Any]) -> str:
    sockets = ", ".join(f"{s['socket']}: {s['mod'] or 'empty'}" for s in g.get("sockets") or [])
    return f"{g.get('gadget')} [{sockets}]"


def panel(view: Mapping[str, Any], viewer: int) -> List[Dict[str, Any]]:
    sections = [{"title": "This turn", "rows": [
        ["turn", f"{view.get('turn')} of 15"],
        ["phase", str(view.get("phase")).replace("_", " ")],
        ["acting", "everyone" if view.get("acting_seat") is None or view.get("acting_seat") < 0
         else f"player {view.get('acting_seat')}"],
        ["events this turn", items(view.get("turn_events"))],
        ["hands pass to the", str(view.get("pass_direction"))],
        ["Tinker deck", count(view.get("deck_size"), "card")],
        ["feat deck", count(view.get("feat_deck_size"), "card")],
    ]}]
    for s in view.get("seats") or []:
        seat = s.get("seat")
        dice = ", ".join(f"{d['value']}" + (" (used)" if d.get("used") else "") for d in s.get("dice") or [])
        rows = [
            ["reputation", str(s.get("score"))],
            ["action points", str(s.get("action_points"))],
            ["dice", dice],
            ["gadgets", "; ".join(f"{i}: {_gadget(g)}" for i, g in enumerate(s.get("gadgets") or [])) or "none"],
            ["hand", cards(s.get("hand")) if s.get("hand") is not None else count(s.get("hand_size"), "card")],
            ["junkyard", cards(s.get("junkyard")) if s.get("junkyard") is not None
             else count(s.get("junkyard_size"), "card")],
            ["assistants waiting", cards(s.get("assistants_waiting"))],
            ["assistants activated", cards(s.get("assistants_active"))],
            ["assistants in reserve", str(s.get("assistants_in_reserve"))],
            ["secret feats", items(s.get("feats_face_down")) if s.get("feats_face_down") is not None
             else count(s.get("feats_face_down_count"), "feat")],
            ["feats revealed", items(s.get("feats_revealed"))],
        ]
        sections.append({"title": f"Player {seat}" + (" (you)" if seat == viewer else ""), "rows": rows})
    return sections
