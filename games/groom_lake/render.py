"""Text and SVG rendering of a Groom Lake position (plain string building)."""

from __future__ import annotations

from typing import Any, List, Optional

from .actions import decode
from .components import (
    CANYON, CIVILIZATION, CRASH, DIRS, HAZARD_NAMES, HELPS, MOUNTAIN, ROLE_NAMES, STACK_NAMES, TERRAIN_NAMES, TILES, TYPE_NAMES,
    rotated_edges,
)

#: One-letter terrain marks of the text map.
TERRAIN_MARKS = {0: "D", MOUNTAIN: "M", CANYON: "#", CIVILIZATION: "C"}
#: SVG fill colours by terrain.
TERRAIN_FILL = {0: "#f2d49b", MOUNTAIN: "#a58a6a", CANYON: "#7a3b1e", CIVILIZATION: "#8fc98f"}
CELL = 60



def _count(n: int, word: str) -> str:
    """``1 card``, ``2 cards``: a count with its noun, singular for one."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

def _cards(counts: List[int]) -> str:
    items = [f"{c}x{TYPE_NAMES[t]}" if c > 1 else TYPE_NAMES[t] for t, c in enumerate(counts) if c]
    return ", ".join(items) or "-"


def _deck_text(state: Any, viewer: Optional[int]) -> str:
    """The supply deck's size as ``viewer`` may know it: the view's ``deck_size``.

    During the deal the Alien gets its 2 Recovery cards from outside the supply deck (spec
    groom_lake.md "Set-up"), so which deal steps leave the deck as it was depends on who the
    Alien is, and the roles are hidden (spec "Information"). A seat counts the set-aside cards
    with the deck, as its view's ``deck_size`` does, so that the count does not tell the
    Alien's seat. ``viewer=None`` (everything) also says how many are set aside.
    """
    reserve = state._reserve() if state.step in ("roles", "deal") else 0
    if viewer is None and reserve:
        return f"{sum(state.deck)} (+{reserve} Recovery set aside for the Alien)"
    return str(sum(state.deck) + reserve)


def render(state: Any, viewer: Optional[int] = None) -> str:
    """The position as text. ``viewer=None`` shows everything; a seat sees only what it knows."""
    n = state.n
    player = state.current_player()
    status = {-4: "game over", -1: "chance"}.get(player, f"player {player} to act")
    # Before the first turn (roles, deal, set-up) no one's turn has begun: say so, not "player -1".
    turn = "set-up, before the first turn" if state.turn < 0 else f"turn of player {state.turn} ({state.ap} actions left)"
    lines = [f"Groom Lake, {n} players, step {state.step}, {turn}: {status}"]
    if state.step == "over":
        lines.append(f"winners: {state.winners()}")
    for p in range(n):
        show = viewer is None or viewer == p or state.revealed[p] or state.step == "over"
        role = state.role_name(p) if show else "?"
        hand = _cards(state.hands[p]) if viewer is None or viewer == p else _count(state.hand_size(p), "card")
        dead = " (dead)" if state.life[p] == 0 and state.turn >= 0 else ""
        lines.append(f"player {p}{dead}: {role}, life {state.life[p]}, hand: {hand}")
    lines.append("Discard Stack (top last): " + (", ".join(TYPE_NAMES[t] for t in state.discard) or "-"))
    refresh = f"Refresh {sum(state.refresh)}"
    if viewer is not None and any(state.refresh_known[viewer]):
        # The cards this seat put face down there itself (what it knows of the stack, and of the
        # deck the stack becomes when the deck runs out).
        refresh += f" (yours: {_cards(state.refresh_known[viewer])})"
    lines.append(f"deck {_deck_text(state, viewer)}, {refresh}, Recovery played {state.recoveries}")
    if viewer is not None and player == viewer and state.limit_seat() == viewer:
        lines.append(f"hand limit: you hold {state.hand_size(viewer)} cards and {state.life[viewer]} "
                     f"life tokens: put cards face down on the Refresh stack until they are equal")
    elif viewer is not None and player == viewer and state.step == "turn_discard":
        lines.append("end of your turn: you took the top of the Discard Stack; put one card face down "
                     "on the Refresh stack")
    lines.append("tile stacks: " + ", ".join(f"{STACK_NAMES[k]}: {len(s)}" for k, s in enumerate(state.stacks))
                 + f", pool: {len(state.pool)}")
    if state.step == "contribute" and state.target >= 0:
        # What the seat is paying into, which the map's letters do not say: the hazard, its
        # toughness, the dice pledged so far (every contribution is public) and what helps.
        tile_id, x, y = state.placed[state.target][:3]
        tile = TILES[tile_id]
        helps = ", ".join(TYPE_NAMES[t] for t in HELPS[tile.hazard])
        lines.append(f"overcoming {TERRAIN_NAMES[tile.terrain]} {HAZARD_NAMES[tile.hazard]} {tile.number} at "
                     f"({x},{y}), entered by player {state.turn}: {state.count} dice so far, the total must beat "
                     f"{tile.number}; {helps} and life tokens add a die each")
    lines.append(f"Team at ({state.team[0]},{state.team[1]}), map (x grows to the right, y upwards):")
    lines.extend(map_text(state))
    hazards = hazard_list(state)
    if hazards:
        lines.append("hazards: " + "; ".join(hazards))
    return "\n".join(lines)


def hazard_list(state: Any) -> List[str]:
    """Every hazard on the map, with its place, number and whether it is open: the map marks only ``!``/``+``."""
    out = []
    for tile_id, x, y, _rot, open_ in state.placed:
        tile = TILES[tile_id]
        if tile.hazard:
            what = "investigations" if tile.hazard == CRASH else "toughness"
            out.append(f"({x},{y}) {HAZARD_NAMES[tile.hazard]} ({what} {tile.number}) "
                       f"{'open' if open_ else 'closed'}")
    return out


def map_text(state: Any) -> List[str]:
    """The map as a character grid, three lines a tile row: each tile's edges around its marks.

    The middle line of a tile holds its terrain letter (``G`` Groom Lake), then ``!`` an open
    hazard or ``+`` a closed one, then ``*`` the Team; ``o`` on a side is a red dot on that edge,
    ``-`` a blank edge (a placed tile's edges must meet: dot to dot, blank to blank). ``.`` is
    an empty cell.
    """
    cells = {(t[1], t[2]): t for t in state.placed}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    out = []
    for y in range(max(ys), min(ys) - 1, -1):
        top, mid, bottom = [], [], []
        for x in range(min(xs), max(xs) + 1):
            t = cells.get((x, y))
            if t is None:
                top.append("       ")
                mid.append("   .   ")
                bottom.append("       ")
                continue
            tile = TILES[t[0]]
            n, e, s_, w = ("o" if dot else "-" for dot in rotated_edges(t[0], t[3]))
            mark = "G" if t[0] == 0 else TERRAIN_MARKS[tile.terrain]
            hz = " " if not tile.hazard else ("!" if t[4] else "+")
            team = "*" if [x, y] == list(state.team) else " "
            top.append(f"   {n}   ")
            mid.append(f"{w} {mark}{hz}{team} {e}")
            bottom.append(f"   {s_}   ")
        out.extend("".join(row).rstrip() for row in (top, mid, bottom))
    return out


def render_svg(state: Any) -> str:
    """The map as an SVG document: tiles coloured by terrain, red dots on their edges, hazards
    (open in red, closed in grey, with their number) and the Team's position."""
    cells = {(t[1], t[2]): t for t in state.placed}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, y1 = min(xs), max(ys)
    width = (max(xs) - x0 + 1) * CELL
    height = (y1 - min(ys) + 1) * CELL
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">']
    for (x, y), t in sorted(cells.items()):
        tile = TILES[t[0]]
        px, py = (x - x0) * CELL, (y1 - y) * CELL
        name = "Groom Lake" if t[0] == 0 else TERRAIN_NAMES[tile.terrain]
        parts.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{TERRAIN_FILL[tile.terrain]}" '
                     f'stroke="#333"><title>{name}</title></rect>')
        for d, dot in enumerate(rotated_edges(t[0], t[3])):
            if dot:
                dx, dy = DIRS[d]
                cx, cy = px + CELL / 2 + dx * (CELL / 2 - 5), py + CELL / 2 - dy * (CELL / 2 - 5)
                parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="4" fill="#d00"/>')
        if tile.hazard:
            colour = "#c00" if t[4] else "#888"
            label = f"{HAZARD_NAMES[tile.hazard][:5]} {tile.number}"
            parts.append(f'<text x="{px + 6}" y="{py + 22}" font-size="11" fill="{colour}">{label}</text>')
            state_text = "open" if t[4] else "closed"
            parts.append(f'<text x="{px + 6}" y="{py + 36}" font-size="9" fill="{colour}">{state_text}</text>')
        if t[0] == 0:
            parts.append(f'<text x="{px + 6}" y="{py + 22}" font-size="11">Groom Lake</text>')
    tx, ty = state.team
    parts.append(f'<circle cx="{(tx - x0) * CELL + CELL / 2:g}" cy="{(y1 - ty) * CELL + CELL - 14:g}" r="9" '
                 f'fill="#1450c8" stroke="#fff"><title>the Team</title></circle>')
    parts.append("</svg>")
    return "\n".join(parts)


__all__ = ["render", "render_svg", "map_text", "ROLE_NAMES"]


def _edges_text(edges: Any) -> str:
    """``N dot, E blank, S dot, W dot``: a tile's four edges (a red dot must meet a red dot)."""
    return ", ".join(f"{side} {'dot' if dot else 'blank'}" for side, dot in zip("NESW", edges))


def describe_action(state: Any, action: int, viewer: int) -> Optional[str]:
    """The tile's edges beside ``keep tile ...`` and ``place at (x,y) turned r`` (the placed tile
    as turned), for the seat scouting; None for other moves and other seats. Only the scout
    holds the tiles, and it sees them."""
    if state.current_player() != viewer:
        return None
    block, arg = decode(action)
    if block == "keep_tile":
        return "edges " + _edges_text(rotated_edges(arg, 0))
    if block == "place" and state.held:
        return "edges once turned: " + _edges_text(rotated_edges(state.held[0], arg % 4))
    return None
