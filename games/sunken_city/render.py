"""Pictures of a Sunken City state: a text board (``str(state)``) and an SVG of the lake.

Both read only ``state.to_dict()`` and the static board data, so they draw a
state of any engine.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple
from xml.sax.saxutils import escape

from . import board as B
from .components import CARDS

#: A ``SunkenCityState`` of either engine (``.rules`` sits above this module).
SunkenCityState = Any

#: Colours of the four board seats (yellow, red, blue, green), clockwise from (0,0).
SEAT_COLOURS: Tuple[str, ...] = ("#e6c619", "#d33c2c", "#2f5fd0", "#2e9e48")
SEAT_NAMES: Tuple[str, ...] = ("yellow", "red", "blue", "green")


def _pieces(data: Dict[str, Any]) -> Tuple[Dict[int, str], Dict[int, int]]:
    """Per cell: its glyph kind ('right', 'down' street cells or 'B<b>'), and anchor per cell."""
    glyph: Dict[int, str] = {}
    anchor_of: Dict[int, int] = {}
    for row, col, direction in data["streets"]:
        a = B.cell_of(row, col)
        b = a + 1 if direction == "right" else a + B.SIZE
        for c in (a, b):
            glyph[c] = direction
            anchor_of[c] = a
    for i, pos in enumerate(data["buildings"]):
        if pos is not None:
            c = B.cell_of(*pos)
            glyph[c] = f"B{i + 1}"
            anchor_of[c] = c
    return glyph, anchor_of


def text_board(state: SunkenCityState) -> str:
    """The lake as text, then the players' boards and the street supply.

    Cells: ``B9`` building 9, `` <==> `` a street lying left-right over two
    cells, ``^`` above ``v`` one lying up-down, ``~`` dark water, ``.`` light water, ``o`` the empty
    centre. After a cell, ``N`` is Neptune and digits are adventurers
    (players), drawn on the piece's upper-left cell.
    """
    data = state.to_dict()
    seats = list(state.game.seats)
    glyph, anchor_of = _pieces(data)
    tokens: Dict[int, str] = {}
    neptune = B.cell_of(*data["neptune"])
    tokens[neptune] = "N"
    for p, pos in enumerate(data["adventurers"]):
        if pos != "village":
            c = B.cell_of(*pos)
            tokens[c] = tokens.get(c, "") + str(p)
    lines: List[str] = []

    def village_label(seat: int) -> str:
        if seat not in seats:
            return "      "
        p = seats.index(seat)
        home = data["adventurers"][p] == "village"
        return f"V{p}{'*' if home else ' '}   "  # '*': the adventurer is at home

    header = "     " + "".join(f"  c{c}  " for c in range(B.SIZE))
    lines.append(f"{village_label(0)}{' ' * 47}{village_label(1)}")
    lines.append(header)
    for row in range(B.SIZE):
        cells = []
        for col in range(B.SIZE):
            c = B.cell_of(row, col)
            kind = glyph.get(c)
            if kind is None:
                body = " o " if c == B.CENTRE else (" ~ " if B.IS_DARK[c] else " . ")
            elif kind == "right":  # a left-right domino reads "<==>" across its two cells
                body = " <=" if anchor_of[c] == c else "=> "
            elif kind == "down":    # an up-down one reads "^" over "v"
                body = " ^ " if anchor_of[c] == c else " v "
            else:
                body = f"{kind:<3}"
            cells.append(f"{body}{tokens.get(c, ''):<3}")
        lines.append(f" r{row}  " + "".join(cells))
    lines.append(f"{village_label(3)}{' ' * 47}{village_label(2)}")
    lines.append("")
    phase = data["phase"]
    if phase == "over":
        winners = state.winners()
        lines.append("Game over; winner(s): " + ", ".join(f"player {p}" for p in winners))
    else:
        card = data["card"]
        card_text = "" if card is None else f", card {CARDS[card][0]}/{CARDS[card][1]}"
        lines.append(f"Turn: player {data['turn']}, phase {phase}{card_text}"
                     + (", END TRIGGERED" if data["end_triggered"] else ""))
    for p in range(state.game.players):
        pos = data["adventurers"][p]
        where = "village" if pos == "village" else B.cell_name(B.cell_of(*pos))
        lines.append(
            f"  player {p} ({SEAT_NAMES[seats[p]]}): at {where}; carried {data['carried'][p]}; "
            f"secured {data['secured'][p]} (value {data['secured_values'][p]}); "
            f"chips {data['chips'][p]}; played cards {data['played'][p]}")
    lines.append(f"Streets: piles {data['street_piles']}, drawing from space {data['draw_pile']}")
    return "\n".join(lines)


def svg_board(state: SunkenCityState, cell_size: int = 48) -> str:
    """An SVG picture of the lake: water, territories, villages, pieces, Neptune and adventurers."""
    data = state.to_dict()
    seats = list(state.game.seats)
    s = cell_size
    margin = s
    width = B.SIZE * s + 2 * margin
    out: List[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" '
        f'viewBox="0 0 {width} {width}">',
        f'<title>Sunken City: player {data["turn"]} to play, phase {escape(data["phase"])}</title>',
        f'<rect width="{width}" height="{width}" fill="#c8b48a"/>',
    ]

    def xy(cell: int) -> Tuple[int, int]:
        row, col = B.row_col(cell)
        return margin + col * s, margin + row * s

    for c in range(B.NUM_CELLS):
        x, y = xy(c)
        fill = "#0b3d91" if c == B.CENTRE else ("#1b5fb8" if B.IS_DARK[c] else "#8ec5f0")
        out.append(f'<rect class="water" x="{x}" y="{y}" width="{s}" height="{s}" fill="{fill}" stroke="#ffffff" stroke-width="0.5"/>')
    for seat in range(4):  # territory borders (4 x 4 corner blocks)
        row0 = 0 if seat in (0, 1) else 5
        col0 = 0 if seat in (0, 3) else 5
        x, y = margin + col0 * s, margin + row0 * s
        out.append(f'<rect class="territory" x="{x + 2}" y="{y + 2}" width="{4 * s - 4}" height="{4 * s - 4}" '
                   f'fill="none" stroke="{SEAT_COLOURS[seat]}" stroke-width="3" stroke-dasharray="6,4"/>')
    for seat in range(4):  # villages, outside the corners
        x, y = xy(B.VILLAGE_CORNER[seat])
        vx = x - s // 2 if seat in (0, 3) else x + s + s // 2
        vy = y - s // 2 if seat in (0, 1) else y + s + s // 2
        label = f"P{seats.index(seat)}" if seat in seats else ""
        out.append(f'<circle class="village" cx="{vx}" cy="{vy}" r="{s // 2 - 4}" fill="{SEAT_COLOURS[seat]}"/>')
        if label:
            out.append(f'<text x="{vx}" y="{vy + 5}" text-anchor="middle" font-size="14">{label}</text>')
    for row, col, direction in data["streets"]:
        a = B.cell_of(row, col)
        x, y = xy(a)
        w, h = (2 * s, s) if direction == "right" else (s, 2 * s)
        out.append(f'<rect class="street" x="{x + 4}" y="{y + 4}" width="{w - 8}" height="{h - 8}" rx="6" '
                   f'fill="#9a8f80" stroke="#4d463d" stroke-width="2"/>')
    for i, pos in enumerate(data["buildings"]):
        if pos is None:
            continue
        x, y = xy(B.cell_of(*pos))
        out.append(f'<rect class="building" x="{x + 3}" y="{y + 3}" width="{s - 6}" height="{s - 6}" '
                   f'fill="#e8dcc0" stroke="#5a4630" stroke-width="2"/>')
        out.append(f'<text x="{x + s // 2}" y="{y + s // 2 + 5}" text-anchor="middle" font-size="14">{i + 1}</text>')
    for p, pos in enumerate(data["adventurers"]):
        if pos == "village":
            x, y = xy(B.VILLAGE_CORNER[seats[p]])
            seat = seats[p]
            x = x - s // 2 if seat in (0, 3) else x + s + s // 2
            y = y - s // 2 if seat in (0, 1) else y + s + s // 2
            x, y = x - s // 4, y - s // 4
        else:
            x, y = xy(B.cell_of(*pos))
            x, y = x + s // 4 + (p % 2) * s // 2, y + s - s // 4
        out.append(f'<circle class="adventurer" cx="{x}" cy="{y}" r="{s // 7}" fill="{SEAT_COLOURS[seats[p]]}" '
                   f'stroke="#000" stroke-width="1.5"><title>adventurer of player {p}</title></circle>')
    x, y = xy(B.cell_of(*data["neptune"]))
    out.append(f'<polygon class="neptune" points="{x + s // 2},{y + 6} {x + s - 8},{y + s // 2} {x + 8},{y + s // 2}" '
               f'fill="#0fb5a6" stroke="#003" stroke-width="1.5"><title>Neptune</title></polygon>')
    out.append("</svg>")
    return "\n".join(out)
