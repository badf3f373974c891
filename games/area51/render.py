"""Text rendering of an Area 51 position, for the CLI and for people reading tests."""

from __future__ import annotations

from typing import Any, List, Optional

from .components import COLOURS, NUM_REGIONS, ROUTES, region_name, type_name, vehicle_name

#: An ``Area51State`` (``.rules`` sits above this module).
Area51State = Any



def _count(n: int, word: str) -> str:
    """``1 card``, ``2 cards``: a count with its noun, singular for one."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

def _cards(counts) -> str:
    items = [f"{c}x{type_name(t)}" if c > 1 else type_name(t) for t, c in enumerate(counts) if c]
    return ", ".join(items) or "-"


def render(state: Area51State, viewer: Optional[int] = None) -> str:
    """The position as text. ``viewer=None`` shows everything; a seat sees only what it knows
    (its own hand and its own face-down hangar cards; other face-down cards are ``??``)."""
    g = state.game
    names = g.owner_names
    lines: List[str] = []
    player = state.current_player()
    status = {-4: "game over", -1: "chance"}.get(player, f"player {player} to act ({state.step})")
    lines.append(f"Area 51, {g.players} players, phase {state.phase}, turn {state.turn}: {status}")
    for r in range(NUM_REGIONS):
        lines.append(f"{region_name(r)}: {state.markers[r]} security markers left")
        bunkers = [f"{s + 1}:{COLOURS[b[0]]} L{b[2]} ({names[b[1]]})"
                   for s, b in enumerate(state.spaces[r]) if b is not None]
        lines.append("  bunkers: " + (", ".join(bunkers) or "-"))
        for h, pile in enumerate(state.hangars[r]):
            shown = [type_name(t) if (up or viewer is None or by == viewer) else "??"
                     for t, up, by in pile]
            marks = ["" if up else "*" for _, up, _ in pile]
            lines.append(f"  hangar {h + 1}: " + (", ".join(a + m for a, m in zip(shown, marks)) or "-"))
    vehicles = []
    for v, veh in enumerate(state.vehicles):
        if veh is not None:
            a, b = ROUTES[veh[0]]
            vehicles.append(f"{vehicle_name(v)} {region_name(a)}->{region_name(b)} #{sum(x for _, x in veh[1])}")
    lines.append("vehicles: " + (", ".join(vehicles) or "-"))
    ctx = getattr(state, "ctx", None) or {}
    if "build" in ctx and "down" in ctx and state.step in ("play_face_up", "play_face_down"):
        # The action being played card by card: what it builds and how many face-down cards it still needs.
        region = region_name(ctx["region"])
        if ctx["build"] == 0:
            what = f"a new {COLOURS[ctx['colour']]} bunker in {region}"
        elif ctx["build"] == 1:
            what = f"a level on the bunker {region}/{ctx['space'] + 1}"
        else:
            a, b = ROUTES[ctx["route"]]
            what = (f"{vehicle_name(ctx['vehicle'])} {region_name(a)}->{region_name(b)}"
                    + (f" #{ctx['number']}" if "number" in ctx else ""))
        face_up = "face-up card to play, then " if state.step == "play_face_up" else ""
        lines.append(f"being built: {what}; {face_up}{_count(ctx['down'], 'face-down card')} still to play")
    lines.append(f"face-up row: {_cards(state.row)}")
    lines.append(f"deck: {_count(sum(state.top_pool) + sum(state.main_pool), 'card')}, discards: {sum(state.discards)}")
    if any(state.pile):
        lines.append(f"pile being loaded ({region_name(state.pile_region)}): {_cards(state.pile)}")
    seat_scores = state.seat_scores()
    for p in range(g.players):
        owners = "/".join(names[o] for o in g.owners_of[p])
        score = " ".join(str(state.scores_[o] + state.bonus[o]) for o in g.owners_of[p])
        hand = (_cards(state.hands[p]) if viewer is None or viewer == p
                else f"{_count(state.hand_size(p), 'card')}, known: {_cards(state.known[p])}")
        lines.append(f"player {p} ({owners}): score {seat_scores[p]} [{score}], hand: {hand}")
    lines.append("(* = face down)")
    return "\n".join(lines)
