"""Sunken City as an SVG picture, and where each legal move lies on it.

The game has perfect information, so every viewer sees the same picture (``viewer`` is
accepted for the shared signature). :func:`svg_board` draws the lake alone (water,
territories, villages, streets, buildings, adventurers, Neptune); :func:`svg` adds the
status line, each player's movement cards, treasures and chips, the buildings in the
grottos and the street supply. Both read only ``state.to_dict()`` and the static board.

:func:`move_targets` maps each legal action to ``data-target`` ids of the picture:

=================  ================================================================
id                 element
=================  ================================================================
``cell-{c}``       lake cell ``c`` (``row * 9 + col``), and the piece anchored there
``village-{s}``    the village of board seat ``s`` (0..3, clockwise from (0,0))
``p{p}-card-{k}``  player ``p``'s movement card ``k`` (``components.CARDS[k]``)
``building-{b}``   building ``b`` (1..10) waiting in the grottos
``chips-{p}``      player ``p``'s Neptune chips
``streets``        the street supply
=================  ================================================================

Actions: play card -> [card]; street -> [its two cells]; building -> [cell, building];
adventurer step and Neptune step -> [the piece's anchor cell]; enter the village ->
[village]; use a chip -> [chips]; the blocks: raise -> [``streets``, the street supply], move ->
[where the adventurer stands: its cell or village], Neptune -> [Neptune's cell]; end turn,
stop, Neptune stops -> [].
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from aiplay.views.svg import Drawing

from . import actions as A
from . import board as B
from .components import CARDS, NUM_BUILDINGS, NUM_CARDS

#: A ``SunkenCityState`` of either engine.
State = Any

#: Colours of the four board seats (yellow, red, blue, green), clockwise from (0,0).
SEAT_COLOURS: Tuple[str, ...] = ("#e6c619", "#d33c2c", "#2f5fd0", "#2e9e48")
SEAT_NAMES: Tuple[str, ...] = ("yellow", "red", "blue", "green")
PANEL_W = 400
#: The height of a player's panel with the gap under it.
SEAT_STEP = 102


def _board(d: Drawing, data: Dict[str, Any], seats: List[int], s: int, ox: float, oy: float) -> None:
    """The lake, its pieces and tokens, with the lake's top-left corner at (ox + s, oy + s)."""
    margin = s

    def xy(cell: int) -> Tuple[float, float]:
        row, col = B.row_col(cell)
        return ox + margin + col * s, oy + margin + row * s

    for c in range(B.NUM_CELLS):
        x, y = xy(c)
        fill = "#0b3d91" if c == B.CENTRE else ("#1b5fb8" if B.IS_DARK[c] else "#8ec5f0")
        d.rect(x, y, s, s, fill=fill, stroke="#ffffff", stroke_width=0.5, cls="water", target=f"cell-{c}",
               tip=f"{B.cell_name(c)}" + (" (dark: buildings too)" if B.IS_DARK[c] else ""))
    for k in range(B.SIZE):  # row and column names, as the moves' names use them (r2c5)
        d.text(ox + margin + k * s + s / 2, oy + margin - 6, f"c{k}", size=10, anchor="middle", fill="#4a3f2a")
        d.text(ox + margin - 4, oy + margin + k * s + s / 2 + 4, f"r{k}", size=10, anchor="end", fill="#4a3f2a")
    for seat in range(4):  # territory borders (4 x 4 corner blocks)
        row0 = 0 if seat in (0, 1) else 5
        col0 = 0 if seat in (0, 3) else 5
        x, y = ox + margin + col0 * s, oy + margin + row0 * s
        d.rect(x + 2, y + 2, 4 * s - 4, 4 * s - 4, stroke=SEAT_COLOURS[seat], stroke_width=3,
               stroke_dasharray="6,4", cls="territory", pointer_events="none")
    for seat in range(4):  # villages, outside the corners
        x, y = xy(B.VILLAGE_CORNER[seat])
        vx = x - s // 2 if seat in (0, 3) else x + s + s // 2
        vy = y - s // 2 if seat in (0, 1) else y + s + s // 2
        label = f"P{seats.index(seat)}" if seat in seats else ""
        with d.group(target=f"village-{seat}", tip=f"village of {SEAT_NAMES[seat]}"):
            d.circle(vx, vy, s // 2 - 4, fill=SEAT_COLOURS[seat], cls="village")
            if label:
                d.text(vx, vy + 5, label, size=14, anchor="middle")
    for row, col, direction in data["streets"]:
        a = B.cell_of(row, col)
        x, y = xy(a)
        w, h = (2 * s, s) if direction == "right" else (s, 2 * s)
        d.rect(x + 4, y + 4, w - 8, h - 8, rx=6, fill="#9a8f80", stroke="#4d463d", stroke_width=2, cls="street",
               target=f"cell-{a}", tip=f"street at {B.cell_name(a)}")
    for i, pos in enumerate(data["buildings"]):
        if pos is None:
            continue
        cell = B.cell_of(*pos)
        x, y = xy(cell)
        with d.group(target=f"cell-{cell}", tip=f"building {i + 1} at {B.cell_name(cell)}"):
            d.rect(x + 3, y + 3, s - 6, s - 6, fill="#e8dcc0", stroke="#5a4630", stroke_width=2, cls="building")
            d.text(x + s // 2, y + s // 2 + 5, f"{i + 1}", size=14, anchor="middle")
    for p, pos in enumerate(data["adventurers"]):
        seat = seats[p]
        if pos == "village":
            x, y = xy(B.VILLAGE_CORNER[seat])
            x = x - s // 2 if seat in (0, 3) else x + s + s // 2
            y = y - s // 2 if seat in (0, 1) else y + s + s // 2
            x, y = x - s // 4, y - s // 4
        else:
            x, y = xy(B.cell_of(*pos))
            x, y = x + s // 4 + (p % 2) * s // 2, y + s - s // 4
        d.circle(x, y, s // 7, fill=SEAT_COLOURS[seat], stroke="#000", stroke_width=1.5, cls="adventurer",
                 tip=f"adventurer of player {p}", pointer_events="none")
    x, y = xy(B.cell_of(*data["neptune"]))
    # A small triangle at the top of his cell, clear of a building's number.
    d.polygon([(x + s / 2, y + 3), (x + s / 2 + 11, y + 19), (x + s / 2 - 11, y + 19)], fill="#0fb5a6", stroke="#003",
              stroke_width=1.5, cls="neptune", tip="Neptune", pointer_events="none")


def svg_board(state: State, cell_size: int = 48) -> str:
    """An SVG picture of the lake: water, territories, villages, pieces, Neptune and adventurers."""
    data = state.to_dict()
    width = B.SIZE * cell_size + 2 * cell_size
    d = Drawing(width, width, f"Sunken City: player {data['turn']} to play, phase {data['phase']}",
                background="#c8b48a")
    _board(d, data, list(state.game.seats), cell_size, 0, 0)
    return d.to_string()


def _status(state: State, data: Dict[str, Any]) -> str:
    if data["phase"] == "over":
        return "Game over: winner(s) " + ", ".join(f"player {p}" for p in state.winners())
    what = {"card": "play a movement card", "choose": "choose the next block (raise, move, Neptune) or end",
            "raise": f"raise pieces ({data['raise_left']} left)", "move": f"move the adventurer ({data['move_left']} points)",
            "neptune": f"move Neptune ({data['neptune_left']} left)", "roll": "Neptune's die is rolled"}
    return f"Player {data['turn']} to play: {what.get(data['phase'], data['phase'])}" + (
        " (end triggered)" if data["end_triggered"] else "")


def svg(state: State, viewer: Optional[int] = None) -> str:
    """The lake plus the players' cards, treasures and chips and the supply (see the module docstring)."""
    data = state.to_dict()
    seats = list(state.game.seats)
    n = state.game.players
    s = 48
    board_w = B.SIZE * s + 2 * s
    height = max(board_w + 40, 40 + n * SEAT_STEP + 180)
    d = Drawing(board_w + PANEL_W + 10, height, f"Sunken City: player {data['turn']} to play, phase {data['phase']}",
                background="#c8b48a")
    d.text(10, 22, _status(state, data), size=15, weight="bold")
    _board(d, data, seats, s, 0, 34)
    px = board_w + 4
    y = 40
    # The viewer's own panel comes first, at the top of the column: with four players the column is
    # taller than the lake, and at 1280x720 its lower end may be below the fold (issue 38).
    order = list(range(n)) if viewer is None or not 0 <= viewer < n else [viewer] + [p for p in range(n) if p != viewer]
    for p in order:
        seat = seats[p]
        acting = p == data["turn"] and data["phase"] != "over"
        mine = p == viewer
        d.rect(px, y, PANEL_W, SEAT_STEP - 6, fill="#fffbe8" if mine else "#f4ecd8", stroke="#c03030" if acting else "#666",
               stroke_width=3 if acting else 1, rx=6, cls="own-seat" if mine else None)
        d.circle(px + 16, y + 17, 9, fill=SEAT_COLOURS[seat], stroke="#000")
        pos = data["adventurers"][p]
        where = "village" if pos == "village" else B.cell_name(B.cell_of(*pos))
        d.text(px + 32, y + 22, f"Player {p}{' (you)' if mine else ''} ({SEAT_NAMES[seat]}), at {where}", size=13,
               weight="bold")
        # Secured and carried treasures share a line (the chips sit on the name's line): a panel of
        # three text lines and a row of cards keeps four players beside the lake.
        d.text(px + 10, y + 40, f"secured {data['secured'][p] or '-'} (value {data['secured_values'][p]}), "
               f"carried {data['carried'][p] or '-'}", size=11)
        with d.group(target=f"chips-{p}", tip=f"{data['chips'][p]} Neptune chips"):
            chips = data["chips"][p]
            d.circle(px + PANEL_W - 74, y + 17, 9, fill="#0fb5a6", stroke="#003")
            d.text(px + PANEL_W - 60, y + 22, f"{chips} chip{'' if chips == 1 else 's'}", size=11)
        for k in range(NUM_CARDS):
            pieces, points = CARDS[k]
            played = k in data["played"][p] or (acting and data["card"] == k)
            # The card's two numbers said in words (the moves name them "card raise 4 move 3").
            d.card(px + 10 + k * 64, y + 48, 58, 44, f"raise {pieces}", fill="#bbbbbb" if played else "#ffffff",
                   sub=f"move {points}", target=f"p{p}-card-{k}",
                   tip=f"card: raise {pieces}, move {points}" + (" (played)" if played else ""), size=12)
        y += SEAT_STEP
    d.text(px, y + 16, "Buildings in the grottos:", size=12, weight="bold")
    waiting = [b for b in range(1, NUM_BUILDINGS + 1) if data["buildings"][b - 1] is None]
    for i, b in enumerate(waiting):
        with d.group(target=f"building-{b}", tip=f"building {b} (in the grottos)"):
            d.rect(px + (i % 10) * 38, y + 24, 34, 34, fill="#e8dcc0", stroke="#5a4630", stroke_width=2)
            d.text(px + (i % 10) * 38 + 17, y + 46, str(b), size=13, anchor="middle")
    if not waiting:
        d.text(px, y + 44, "none", size=11)
    y += 62
    piles = ", ".join(f"{i + 1}: {c}" for i, c in enumerate(data["street_piles"]))
    with d.group(target="streets", cls="street-supply", tip="the street supply"):
        # Two lines: at 13 units one line would run past the panel.
        d.rect(px - 4, y - 4, PANEL_W, 36, fill="#e0d4b8", stroke="#777", rx=4)
        d.text(px, y + 10, f"Street spaces {piles}", size=11)
        d.text(px, y + 26, f"drawing from space {data['draw_pile']}", size=11)
    d.legend(px, y + 38, [("#8ec5f0", "light water (streets)"), ("#1b5fb8", "dark water (+buildings)"),
                          ("#9a8f80", "street"), ("#e8dcc0", "building"), ("#0fb5a6", "Neptune")],
             columns=2, column_width=192)
    return d.to_string()


def move_targets(state: State) -> Dict[int, List[str]]:
    """``{action: [target ids]}`` for the legal actions of the decision at ``state`` (see the module docstring)."""
    if state.is_terminal() or state.is_chance_node():
        return {}
    p = state.current_player()
    seat = state.game.seats[p]
    data = state.to_dict()
    out: Dict[int, List[str]] = {}
    for a in state.legal_actions():
        if A.PLAY_CARD <= a < A.PLAY_CARD + NUM_CARDS:
            out[a] = [f"p{p}-card-{a - A.PLAY_CARD}"]
        elif A.STREET_BASE <= a < A.BUILD_BASE:
            cells = B.STREET_SLOTS[a - A.STREET_BASE]
            out[a] = [f"cell-{c}" for c in cells] if cells else []
        elif A.BUILD_BASE <= a < A.STEP_BASE:
            b, site = divmod(a - A.BUILD_BASE, B.NUM_SITES)
            out[a] = [f"cell-{B.BUILDING_SITES[site]}", f"building-{b + 1}"]
        elif A.STEP_BASE <= a < A.NUM_ACTIONS:
            out[a] = [f"cell-{(a - A.STEP_BASE) % B.NUM_CELLS}"]
        elif a == A.ENTER_VILLAGE:
            out[a] = [f"village-{seat}"]
        elif a == A.USE_CHIP:
            out[a] = [f"chips-{p}"]
        elif a == A.MOVE:  # the block starts where the adventurer stands
            pos = data["adventurers"][p]
            out[a] = [f"village-{seat}" if pos == "village" else f"cell-{B.cell_of(*pos)}"]
        elif a == A.NEPTUNE:
            out[a] = [f"cell-{B.cell_of(*data['neptune'])}"]
        elif a == A.RAISE:
            out[a] = ["streets"]
        else:
            out[a] = []
    return out
