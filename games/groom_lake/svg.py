"""Unleashed From Groom Lake! as an SVG picture for one seat's eyes, and where each legal move lies on it.

:func:`svg` draws the map tile by tile at its rotation (terrain colour, red dots on the
edges, hazard name with its toughness or a Crash Site's investigation number, open or
closed), Groom Lake and the Team, the empty cells next to the map; beside it every seat
(life tokens, hand, role when the viewer may know it, dead seats crossed out), the Discard
Stack face up, the tile stacks' and card piles' sizes, the tiles a scout holds (face up for
the scout, backs for the others), the cards of an investigation (for the investigator) and
the votes of a ballot in progress.

:func:`move_targets` maps each legal action to ``data-target`` ids of the picture:

=====================  ===========================================================
id                     element
=====================  ===========================================================
``cell-{c}``           the placed tile on grid cell ``c`` (``components.cell_index``)
``slot-{c}``           the empty grid cell ``c`` next to the map
``held-t{t}``          scouted tile ``t`` held by the scout (the scout's view)
``rot-{r}``            the kept tile turned ``r`` quarter turns clockwise (scout's view)
``seat-{p}``           seat ``p``'s panel
``p{p}-life``          seat ``p``'s life tokens
``p{p}-hand-t{t}``     seat ``p``'s hand card of type ``t`` (owner's view)
``inv-t{t}``           an investigation card of type ``t`` (the investigator's view)
``stacks``             the tile stacks (scout)
=====================  ===========================================================

Actions: move -> [the tile moved onto]; scout -> [stacks]; play Recovery -> [the Recovery
card]; vote, strike, assign an investigation, give a card -> [the seat]; keep (set-up) and
refresh and discard to a hazard -> [hand card]; keep (investigation) -> [investigation card];
discard a life token -> [own life tokens]; keep a tile -> [held tile]; place -> [slot,
rotation]; end turn, yes, no, done, half-win -> [].
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from aiplay.views.svg import FIT_WIDTH, MIN_TEXT, Drawing, wrap

from . import actions as A
from .components import (
    CANYON, CIVILIZATION, CRASH, DESERT, DIRS, GROOM_LAKE, HAZARD_NAMES, MOUNTAIN, NUM_TYPES, ROLE_NAMES,
    STACK_NAMES, TERRAIN_NAMES, TILES, TYPE_NAMES, cell_index, in_grid, rotated_edges,
)

#: A ``GroomLakeState`` of the reference engine (``.rules`` sits above this module).
State = Any

TERRAIN_FILL = {DESERT: "#f2d49b", MOUNTAIN: "#a58a6a", CANYON: "#7a3b1e", CIVILIZATION: "#8fc98f"}
SEAT_FILL = ("#d33c2c", "#2f5fd0", "#2e9e48", "#e6c619", "#9b59d0", "#f08a24")
CARD_FILL = ["#7fc6e8", "#c9a36a", "#9a7b5a", "#e0d070", "#f07070"] + ["#8fd08f"] * 4 + ["#b0b0e0"] * 4
STEP_TEXT = {
    "keep": "set-up: keep 3 of your 12 cards", "action": "spend actions: move, scout, play Recovery, vote",
    "keep_tile": "keep one of the two scouted tiles", "place": "place the kept tile (choose cell and rotation)",
    "contribute": "discard helping cards or life tokens against the hazard", "assign": "give the next investigation",
    "investigate_keep": "keep one investigation card", "vote": "vote", "give": "hand out the next card",
    "turn_discard": "put a card face down on the Refresh stack", "half_vote": "vote on the Half-Win",
}
#: The widest picture: at 12/13 scale (13-unit text at 12 px) it fits the demo's board panel at
#: 1280x720 (issue 38). The map's box takes the room its tiles need, from MAP_MIN_W up to MAP_W (the
#: tiles shrink as the map grows), and the seats' column (SIDE_W) stands on its right.
WIDTH = FIT_WIDTH
SIDE_W = 450
MAP_W = WIDTH - 30 - SIDE_W
MAP_MIN_W = 400
#: A card's width ("Recovery" in bold 13-unit type), the step from one to the next, and cards a row in the
#: seats' column.
CARD_W = 70
#: A card's place in a row: 10 units between cards, so that a count badge (half outside its card's
#: corner) and a highlight's frame stay off the next card's label.
CARD_STEP = CARD_W + 10
CARDS_PER_ROW = SIDE_W // CARD_STEP
#: A seat's hand cards a row (inside its box, the count badge included).
HAND_PER_ROW = (SIDE_W - 30) // CARD_STEP
#: Hand cards a row in a half-width seat box (two other seats a row).
HALF_PER_ROW = ((SIDE_W - 6) // 2 - 20) // CARD_STEP


def _seen(state: State, viewer: Optional[int]) -> Dict[str, Any]:
    """What ``viewer`` may see of ``state`` (None: everything), as plain data.

    The one place the picture reads the state, with ``state.view``'s redaction: roles
    (own, revealed, or all at the end), hands (own), the scout's tiles, the investigator's
    cards and the cards kept at set-up are hidden from the others.
    """
    n = state.n
    every = viewer is None
    scouting = state.step in ("tile_draw", "keep_tile", "place")
    over = state.step == "over"
    return {
        "n": n, "step": state.step, "turn": state.turn, "cur": state.cur, "ap": state.ap,
        "current": state.current_player(), "over": over, "winners": state.winners() if over else [],
        "roles": [state.roles[q] if (every or q == viewer or state.revealed[q] or over) else None for q in range(n)],
        "revealed": list(state.revealed), "alien_card": state.alien_card, "life": list(state.life),
        "hands": [list(state.hands[q]) if (every or q == viewer) else None for q in range(n)],
        "hand_sizes": [sum(h) for h in state.hands],
        "kept": list(state.kept) if state.step == "keep" and (every or state.cur == viewer) else None,
        "discard": list(state.discard), "refresh": sum(state.refresh),
        # During the deal the deck shows its cards and the Alien's set-aside Recovery cards together.
        "deck": sum(state.deck) + (state._reserve() if state.step in ("roles", "deal") else 0),
        "recoveries": state.recoveries, "stacks": [len(s) for s in state.stacks], "pool": len(state.pool),
        "held": list(state.held) if scouting and (every or viewer == state.turn) else None,
        "held_count": len(state.held) if scouting else 0,
        "map": [list(t) for t in state.placed], "team": tuple(state.team), "team_from": tuple(state.team_from),
        "target": state.target, "count": state.count, "total": state.total,
        "inv": (list(state.inv_cards) if state.step in ("investigate_draw", "investigate_keep")
                and (every or viewer == state.cur) else None),
        "inv_size": sum(state.inv_cards), "ballots": [list(b) for b in state.ballots],
        "handout": sum(state.handout), "limit": state.limit_seat(),
    }


def _status(v: Dict[str, Any]) -> str:
    if v["over"]:
        return "Game over: winner(s) " + (", ".join(f"player {p}" for p in v["winners"]) or "none")
    cur = v["current"]
    if cur < 0:
        return f"step {v['step']}: chance (deal, draw, dice)"
    what = STEP_TEXT.get(v["step"], v["step"])
    if v["limit"] == cur:
        what = "over the hand limit (life tokens): put a card face down on the Refresh stack"
    elif v["step"] == "action":
        what = f"{v['ap']} action(s) left: move, scout, play Recovery, vote"
    if v["step"] in ("contribute", "roll") and v["limit"] != cur:
        t = v["map"][v["target"]]
        what += f" ({HAZARD_NAMES[TILES[t[0]].hazard]} {TILES[t[0]].number}: {v['count']} dice so far)"
    who = f"player {v['turn']}'s turn" if v["turn"] >= 0 else "set-up"
    return f"{who}; player {cur} to act: {what}"


def _tile(d: Drawing, x: float, y: float, s: float, tile: int, rot: int, open_: bool, target: Optional[str],
          tip_extra: str = "") -> None:
    """Tile ``tile`` turned ``rot`` in the square (x, y, s): terrain, red dots, hazard, a north mark."""
    info = TILES[tile]
    name = "Groom Lake" if tile == GROOM_LAKE else TERRAIN_NAMES[info.terrain]
    hazard = ""
    if info.hazard == CRASH:
        hazard = f"Crash Site (investigations {info.number})"
    elif info.hazard:
        hazard = f"{HAZARD_NAMES[info.hazard]} (toughness {info.number})"
    tip = name + (f", {hazard}, {'open' if open_ else 'closed'}" if hazard else "") + tip_extra
    with d.group(target=target, cls="tile", tip=tip):
        d.rect(x, y, s, s, fill="#6fa8dc" if tile == GROOM_LAKE else TERRAIN_FILL[info.terrain],
               stroke="#333", stroke_width=1.5)
        if info.hazard:  # pale plates under the hazard's texts, drawn before the edges' red dots
            fs0 = max(MIN_TEXT, s / 8.5)
            if s < COMPACT_TILE:
                d.rect(x + 4, y + 8, s - 8, 16, fill="#ffffffb8", rx=3, pointer_events="none")
                d.rect(x + s - 24, y + s - 22, 20, 18, fill="#ffffffb8", rx=3, pointer_events="none")
            else:
                d.rect(x + 4, y + s / 2 - fs0 - 1, s - 8, 2.5 * fs0 + 6, fill="#ffffffb8", rx=3, pointer_events="none")
        for k, dot in enumerate(rotated_edges(tile, rot)):
            dx, dy = DIRS[k]
            cx, cy = x + s / 2 + dx * (s / 2 - 5), y + s / 2 - dy * (s / 2 - 5)
            if dot:
                d.circle(cx, cy, max(3.0, s / 14), fill="#d00000", stroke="#fff", stroke_width=0.8)
        # The tile's printed north, turned with it, so the rotation shows even on symmetric edges.
        nx_, ny_ = DIRS[rot % 4]
        d.line(x + s / 2 + nx_ * (s / 2 - 14), y + s / 2 - ny_ * (s / 2 - 14), x + s / 2 + nx_ * (s / 2 - 9),
               y + s / 2 - ny_ * (s / 2 - 9), stroke="#333", stroke_width=2)
        fs = max(7.0, s / 8.5)
        text_fill = "#fff" if info.terrain == CANYON else "#000"
        # Dark red (open) or dark grey (closed) on a pale plate: readable on a Mountain's brown as on sand.
        colour = "#a00000" if open_ else "#454545"
        if s < COMPACT_TILE:
            _compact_labels(d, x, y, s, tile, open_, text_fill, colour)
            return
        label = "Groom Lake" if tile == GROOM_LAKE else TERRAIN_NAMES[info.terrain]
        if s < 92 and tile == GROOM_LAKE:  # "Groom Lake" in bold 13-unit type needs 88 units
            label = "Lake"
        label = _cut(label, s)
        # 10 units down: clear of the red dot on the tile's top edge.
        d.text(x + s / 2, y + fs + 10, label, size=fs, anchor="middle", fill=text_fill, weight="bold")
        if info.hazard:
            # Toughness (or a Crash Site's investigations) in large type, the state below it.
            d.text(x + s / 2, y + s / 2, _cut(_hazard_word(tile), s), size=fs, anchor="middle", fill=colour,
                   weight="bold")
            d.text(x + s / 2, y + s / 2 + 1.5 * fs, f"{info.number} {'open' if open_ else 'closed'}", size=fs,
                   anchor="middle", fill=colour)


#: Under this size (a wide map's tiles) a tile shows two short labels instead of three lines.
COMPACT_TILE = 66


def _hazard_word(tile: int) -> str:
    info = TILES[tile]
    return "Crash" if info.hazard == CRASH else HAZARD_NAMES[info.hazard].replace("Alien ", "")


def _cut(word: str, s: float) -> str:
    """``word`` cut to the bold 13-unit letters that fit across a tile ``s`` wide ("Dehydr.").

    The tooltip has the whole word.
    """
    fits = int((s - 4) / (0.68 * MIN_TEXT))
    return word if len(word) <= fits else word[:max(2, fits - 1)] + "."


def _compact_labels(d: Drawing, x: float, y: float, s: float, tile: int, open_: bool, text_fill: str,
                    colour: str) -> None:
    """A small tile's labels: a hazard's cut name at the top and its number in the lower right (red: open, grey:
    closed), or else the terrain's cut name in the middle (its colour says it too; the legend tells)."""
    info = TILES[tile]
    if info.hazard:
        # The name 20 units down (clear of the top edge's red dot); both on pale plates (see _tile).
        d.text(x + s / 2, y + 20, _cut(_hazard_word(tile), s), size=MIN_TEXT, anchor="middle", fill=colour,
               weight="bold")
        d.text(x + s - 6, y + s - 8, str(info.number), size=MIN_TEXT, anchor="end", fill=colour, weight="bold")
    else:
        word = "Lake" if tile == GROOM_LAKE else TERRAIN_NAMES[info.terrain]
        d.text(x + s / 2, y + s / 2 + 5, _cut(word, s), size=MIN_TEXT, anchor="middle", fill=text_fill, weight="bold")


def _frontier(cells: Dict[Tuple[int, int], Any]) -> List[Tuple[int, int]]:
    out = set()
    for x, y in cells:
        for dx, dy in DIRS:
            c = (x + dx, y + dy)
            if c not in cells and in_grid(*c):
                out.add(c)
    return sorted(out)


def _card(d: Drawing, x: float, y: float, t: int, target: Optional[str], count: int = 1) -> None:
    d.card(x, y, CARD_W, 40, TYPE_NAMES[t].split()[0], fill=CARD_FILL[t], sub=TYPE_NAMES[t].split()[1]
           if " " in TYPE_NAMES[t] else "", target=target, tip=TYPE_NAMES[t], count=count, size=10)


def _seat_places(own: Optional[int], others: List[int], heights: List[float],
                 paired: bool) -> Dict[int, Tuple[float, float, float]]:
    """``{seat: (x, y, width)}`` of each seat's box in the side column, from the column's top-left corner.

    The viewer's own box (``own``) first, the whole width; then the others, two a row when ``paired``.
    """
    places: Dict[int, Tuple[float, float, float]] = {}
    y = 0.0
    if own is not None:
        places[own] = (0.0, y, float(SIDE_W))
        y += heights[own]
    if not paired:
        for p in others:
            places[p] = (0.0, y, float(SIDE_W))
            y += heights[p]
        return places
    half = (SIDE_W - 6) / 2
    for i in range(0, len(others), 2):
        row = others[i:i + 2]
        for j, p in enumerate(row):
            places[p] = (j * (half + 6), y, half)
        y += max(heights[p] for p in row)
    return places


def svg(state: State, viewer: Optional[int] = None) -> str:
    """The picture of ``state`` as seat ``viewer`` sees it (None: everything); see the module docstring."""
    v = _seen(state, viewer)
    n = v["n"]
    cells = {(t[1], t[2]): t for t in v["map"]}
    slots = _frontier(cells)
    xs = [x for x, _ in list(cells) + slots]
    ys = [y for _, y in list(cells) + slots]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    size = max(22.0, min(84.0, (MAP_W - 20) / (x1 - x0 + 1), 640 / (y1 - y0 + 1)))
    map_h = (y1 - y0 + 1) * size + 20
    map_w = max(MAP_MIN_W, min(MAP_W, (x1 - x0 + 1) * size + 20))
    # A seat's box: its name, life and one row of cards; a hand of many kinds takes more rows.
    # The viewer's own box comes first, the full width of the column; with a viewer the other seats'
    # boxes go two a row (their hands are backs): six seats then fit a 1280x720 window (issue 38).
    own = viewer if viewer is not None and 0 <= viewer < n else None
    others = [p for p in range(n) if p != own]
    paired = own is not None and len(others) > 1
    per_row = [HAND_PER_ROW if p == own or not paired else HALF_PER_ROW for p in range(n)]
    # Cards start 60 units down: a card's count badge (half above its corner) stays clear of the life line.
    seat_hs = [106 + 44 * (max(1, -(-sum(1 for c in hand if c) // per_row[p])) - 1) if hand is not None else 106
               for p, hand in enumerate(v["hands"])]
    places = _seat_places(own, others, seat_hs, paired)
    seats_h: float = max((y + seat_hs[p] for p, (_, y, _) in places.items()), default=0.0)
    # The side column: the seats, then the Discard Stack and the notes of the moment; the legend goes
    # under the map (the map's column is the shorter one while the Team is near the start).
    notes_h = (24 + 44 * max(1, -(-len(v["discard"]) // CARDS_PER_ROW)) + 20
               + (66 if v["inv"] is not None else 24 if v["inv_size"] else 0) + (24 if v["handout"] else 0)
               + (24 if v["kept"] is not None and any(v["kept"]) else 0)
               + (24 if v["step"] in ("vote", "half_vote") or v["ballots"] else 0))
    side_h = seats_h + notes_h + 10
    status = wrap(_status(v), 84)
    top = 18 * (len(status) - 1)  # a long status takes more lines
    held_h = 130 if v["held_count"] else 0
    legend_notes = wrap("A hazard's number: its toughness (the dice must total more); a Crash Site's number: its "
                        "investigations. Grey: closed.", 50)
    # The legend goes under the shorter column: under the map while it is small, in the seats' column
    # once the map has grown (the picture then stays as short as it can).
    left_h = map_h + 10 + 92 + held_h
    legend_h = 110 + 16 * len(legend_notes)
    legend_left = left_h <= side_h
    height = top + 60 + (max(left_h + legend_h, side_h) if legend_left else max(left_h, side_h + legend_h))
    who = "everything" if viewer is None else f"player {viewer}'s view"
    d = Drawing(map_w + 30 + SIDE_W, height, f"Unleashed From Groom Lake! ({who})", background="#f6efe0")
    for i, line in enumerate(status):
        d.text(12, 24 + 18 * i, line, size=16, weight="bold")
    d.text(12, top + 44, f"Picture: {who}.", size=12)

    # -- map ------------------------------------------------------------------------------
    mx, my = 10, top + 60

    def at(x: int, y: int) -> Tuple[float, float]:
        return mx + 10 + (x - x0) * size, my + 10 + (y1 - y) * size  # north is up

    d.rect(mx, my, map_w, map_h, fill="#e9dcc0", stroke="#8a7a5a", rx=6)
    for x, y in slots:
        px, py = at(x, y)
        with d.group(target=f"slot-{cell_index(x, y)}", cls="slot", tip=f"empty cell ({x},{y})"):
            d.rect(px + 2, py + 2, size - 4, size - 4, fill="#ffffff40", stroke="#b09a70", stroke_dasharray="4,3")
            # The coordinates the placement moves name ("place at (x,y) turned r").
            d.text(px + size / 2, py + size / 2 + 4, f"{x},{y}", size=max(7.0, size / 8), anchor="middle",
                   fill="#6e5f45")  # dark enough on the sand (was too faint)
    for (x, y), t in sorted(cells.items()):
        px, py = at(x, y)
        _tile(d, px, py, size, t[0], t[3], bool(t[4]), f"cell-{cell_index(x, y)}", f" at ({x},{y})")
    fx, fy = at(*v["team_from"])
    tx, ty = at(*v["team"])
    if v["team_from"] != v["team"]:  # where the Team came from (it goes back there if a hazard holds)
        d.line(fx + size * 0.25, fy + size * 0.84, tx + size * 0.25, ty + size * 0.84, stroke="#1450c8",
               stroke_width=2, stroke_dasharray="5,3", pointer_events="none")
    # The Team sits in the tile's lower-left corner, clear of the labels in the middle.
    d.circle(tx + size * 0.25, ty + size * 0.84, max(6.0, size / 8), fill="#1450c8", stroke="#fff",
             stroke_width=2, tip="the Team", pointer_events="none")
    d.text(tx + size * 0.25, ty + size * 0.84 + 4, "T", size=max(8.0, size / 8), fill="#fff", anchor="middle",
           weight="bold", pointer_events="none")

    # -- tiles in play, piles ---------------------------------------------------------------
    by = my + map_h + 10
    with d.group(target="stacks", cls="stacks", tip="the tile stacks (scout draws from the one the distance picks)"):
        d.rect(10, by, map_w, 60, fill="#ddd3bb", stroke="#666", rx=5)
        d.text(20, by + 18, "Tile stacks", size=12, weight="bold")
        d.text(20, by + 38, "  ".join(f'"{STACK_NAMES[k]}": {c} tiles' for k, c in enumerate(v["stacks"])), size=11)
        d.text(20, by + 54, f"discard pool {v['pool']}", size=11)
    d.text(10, by + 80, f"Supply deck {v['deck']}, Refresh stack {v['refresh']}, Recovery played {v['recoveries']}",
           size=12)
    if v["held_count"]:
        ty0 = by + 92  # the scouted tiles, under the piles
        d.text(10, ty0 + 14, "Scouted tiles:", size=12, weight="bold")
        if v["held"] is None:
            for i in range(v["held_count"]):
                d.card_back(10 + i * 50, ty0 + 24, 44, 44, tip="a scouted tile (only the scout sees it)", label="tile")
        elif v["step"] == "place":
            tile = v["held"][0]
            for r in range(4):
                _tile(d, 10 + r * 84, ty0 + 24, 70, tile, r, TILES[tile].hazard > 0, f"rot-{r}",
                      f", turned {r} quarter turn(s)")
                d.text(45 + r * 84, ty0 + 110, f"turned {r * 90}\u00b0", size=10, anchor="middle")
        else:
            for i, tile in enumerate(v["held"]):
                _tile(d, 10 + i * 84, ty0 + 24, 70, tile, 0, TILES[tile].hazard > 0, f"held-t{tile}")

    # -- seats ----------------------------------------------------------------------------
    sx0 = map_w + 20
    y: float
    alien_card_holder = [p for p in range(n) if v["roles"][p] == 2 and v["alien_card"]]
    for p in ([own] if own is not None else []) + others:
        dx, dy, sw = places[p]
        sx, y = sx0 + dx, top + 60 + dy
        seat_h = seat_hs[p]
        mine = p == viewer
        half = sw < SIDE_W
        dead = v["life"][p] == 0 and v["turn"] >= 0
        acting = v["current"] == p
        role = v["roles"][p]
        role_text = "role ?" if role is None else ("role ?" if role < 0 else ROLE_NAMES[role])
        extras = ([" (revealed)"] if role is not None and role >= 0 and v["revealed"][p] else []) \
            + ([" +Alien card"] if p in alien_card_holder else []) + (["  DEAD"] if dead else [])
        with d.group(target=f"seat-{p}", cls="seat", tip=f"player {p}" + (" (dead)" if dead else "")):
            d.rect(sx, y, sw, seat_h - 6, fill="#cccccc" if dead else ("#fffbe8" if mine else "#f7f1e3"),
                   stroke="#c03030" if acting else "#888", stroke_width=3 if acting else 1, rx=6,
                   cls="own-seat" if mine else None)
            if dead:  # under the texts, faint: the seat's name stays readable
                d.line(sx + 4, y + 4, sx + sw - 4, y + seat_h - 10, stroke="#600", stroke_width=2, opacity=0.3)
            d.circle(sx + 16, y + 18, 9, fill=SEAT_FILL[p], stroke="#000")
            # A half-width box keeps the name on its line and says the rest beside the hand.
            d.text(sx + 32, y + 23, f"Player {p}{' (you)' if mine else ''}: {role_text}" + ("" if half else "".join(extras)),
                   size=13, weight="bold", fill="#600" if dead else "#000")
            if half and extras:
                d.text(sx + 50, y + 86, ", ".join(e.strip() for e in extras), size=12,
                       fill="#600" if dead else "#000")
        with d.group(target=f"p{p}-life", cls="life", tip=f"{v['life'][p]} life tokens"):
            for k in range(v["life"][p]):
                d.circle(sx + 20 + k * 16, y + 40, 6, fill="#e03050", stroke="#600")
            d.text(sx + 24 + max(1, v["life"][p]) * 16, y + 44, f"life {v['life'][p]}", size=11)
        hand = v["hands"][p]
        hx = sx + 10
        if hand is not None:
            kinds = [t for t in range(NUM_TYPES) if hand[t]]
            for k, t in enumerate(kinds):
                _card(d, hx + (k % per_row[p]) * CARD_STEP, y + 60 + (k // per_row[p]) * 44, t, f"p{p}-hand-t{t}",
                      hand[t])
        elif v["hand_sizes"][p]:
            d.card_back(hx, y + 60, 30, 40, count=v["hand_sizes"][p], tip=f"{v['hand_sizes'][p]} cards in hand")
    sx, y = sx0, top + 60 + seats_h

    # -- Discard Stack, investigation, votes, kept ------------------------------------------
    d.text(sx, y + 16, f"Discard Stack ({len(v['discard'])}, face up; the turn takes the top):", size=12,
           weight="bold")
    for i, t in enumerate(v["discard"]):
        _card(d, sx + (i % CARDS_PER_ROW) * CARD_STEP, y + 24 + (i // CARDS_PER_ROW) * 44, t, None)
    if v["discard"]:
        last = len(v["discard"]) - 1
        d.text(sx + (last % CARDS_PER_ROW) * CARD_STEP + CARD_W / 2, y + 76 + (last // CARDS_PER_ROW) * 44, "top",
               size=10, anchor="middle")
    y += 24 + 44 * max(1, -(-len(v["discard"]) // CARDS_PER_ROW)) + 20
    if v["inv"] is not None:
        d.text(sx, y + 12, "Investigation cards (keep one):", size=12, weight="bold")
        x = sx
        for t in range(NUM_TYPES):
            if v["inv"][t]:
                _card(d, x, y + 18, t, f"inv-t{t}", v["inv"][t])
                x += CARD_STEP
        y += 66
    elif v["inv_size"]:
        d.text(sx, y + 12, f"An investigation: {v['inv_size']} card(s) drawn (hidden)", size=12)
        y += 24
    if v["handout"]:
        d.text(sx, y + 12, f"Cards to hand out, face down: {v['handout']}", size=12)
        y += 24
    if v["kept"] is not None and any(v["kept"]):
        d.text(sx, y + 12, "Kept so far: " + ", ".join(f"{c}x {TYPE_NAMES[t]}" for t, c in enumerate(v["kept"]) if c),
               size=12)
        y += 24
    if v["step"] in ("vote", "half_vote") or v["ballots"]:
        votes = ", ".join(f"player {q}: {'yes' if b else 'no'}" for q, b in v["ballots"]) or "none yet"
        about = "Half-Win" if v["step"] == "half_vote" else f"against player {v['target']}"
        d.text(sx, y + 12, f"Vote {about}: {votes}", size=12)
        y += 24
    lx, ly = (10, by + 92 + held_h) if legend_left else (sx0, top + 60 + side_h)
    d.legend(lx, ly, [("#6fa8dc", "Groom Lake (start)"), (TERRAIN_FILL[DESERT], "Desert (move 1)"),
                      (TERRAIN_FILL[MOUNTAIN], "Mountain (move 2)"), (TERRAIN_FILL[CANYON], "Canyon (no entry)"),
                      (TERRAIN_FILL[CIVILIZATION], "Civilization (escape)"), ("#d00000", "red-dot edge"),
                      ("#1450c8", "the Team (T)"), ("#e03050", "life token")], columns=2, column_width=195)
    for i, line in enumerate(legend_notes):
        d.text(lx, ly + 112 + 16 * i, line, size=11)
    return d.to_string()


def move_targets(state: State) -> Dict[int, List[str]]:
    """``{action: [target ids]}`` for the legal actions of the decision at ``state`` (see the module docstring)."""
    if state.is_terminal() or state.is_chance_node():
        return {}
    p = state.current_player()
    tx, ty = state.team
    out: Dict[int, List[str]] = {}
    for a in state.legal_actions():
        block, arg = A.decode(a)
        if block == "move":
            dx, dy = DIRS[arg]
            out[a] = [f"cell-{cell_index(tx + dx, ty + dy)}"]
        elif block == "scout":
            out[a] = ["stacks"]
        elif block == "recover":
            out[a] = [f"p{p}-hand-t4"]
        elif block in ("vote", "strike", "assign", "give"):
            out[a] = [f"seat-{arg}"]
        elif block == "keep":
            out[a] = [f"inv-t{arg}"] if state.step == "investigate_keep" else [f"p{p}-hand-t{arg}"]
        elif block in ("refresh", "contrib"):
            out[a] = [f"p{p}-hand-t{arg}"]
        elif block == "life":
            out[a] = [f"p{p}-life"]
        elif block == "keep_tile":
            out[a] = [f"held-t{arg}"]
        elif block == "place":
            out[a] = [f"slot-{arg // 4}", f"rot-{arg % 4}"]
        else:
            out[a] = []
    return out
