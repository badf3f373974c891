"""Sunken City's view as labelled groups for a side panel (:func:`aiplay.views.panel.view_panel`)."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping

from aiplay.views.panelkit import cell, count, items, yes


def panel(view: Mapping[str, Any], viewer: int) -> List[Dict[str, Any]]:
    turn = view.get("turn") or {}
    card = (turn.get("card") or {}).get("name")
    sections = [{"title": "This turn", "rows": [
        ["player", f"player {view.get('turn_seat')}" + (" (you)" if view.get("turn_seat") == viewer else "")],
        ["step", str(view.get("phase"))],
        ["card", card or "not chosen yet"],
        ["pieces still to raise", str(turn.get("raise_left", 0))],
        ["steps still to walk", str(turn.get("move_left", 0))],
        ["Neptune steps left", str(turn.get("neptune_left", 0))],
        ["Neptune chip used", yes(turn.get("chip_used"))],
    ]}]
    raised = [f"{b['building']} at {cell(b['cell'])}" for b in view.get("buildings") or [] if b.get("cell") is not None]
    piles = view.get("street_spaces") or []
    sections.append({"title": "The lake", "rows": [
        ["Neptune", cell(view.get("neptune"))],
        ["buildings up", items(raised)],
        ["streets up", str(len(view.get("streets") or []))],
        ["street piles", " / ".join(str(p) for p in piles) + f" (drawing from space {view.get('draw_space')})"],
        ["last round", yes(view.get("end_triggered"))],
    ]})
    for s in view.get("seats") or []:
        seat = s.get("seat")
        where = "in the village" if s.get("adventurer") is None else cell(s.get("adventurer"))
        rows = [
            ["adventurer", where],
            ["treasures found, not yet safe", items(s.get("carried"))],
            ["treasures secured", f"{count(len(s.get('secured') or []), 'treasure')} (value {s.get('secured_value')})"],
            ["still to find", items(s.get("treasures_to_find"))],
            ["Neptune chips", str(s.get("neptune_chips", 0))],
            ["cards in hand", items(s.get("cards_in_hand"))],
            ["cards played", items(s.get("cards_played"))],
        ]
        sections.append({"title": f"Player {seat}" + (" (you)" if seat == viewer else ""), "rows": rows})
    return sections
