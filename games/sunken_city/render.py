"""Pictures of a Sunken City state: a text board (``str(state)``) and an SVG of the lake (:mod:`.svg`).

Both read only ``state.to_dict()`` and the static board data, so they draw a
state of any engine.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from . import board as B
from .components import CARDS
from .svg import SEAT_COLOURS, SEAT_NAMES, svg_board  # the SVG lives in .svg; re-exported for existing callers

#: A ``SunkenCityState`` of either engine (``.rules`` sits above this module).
SunkenCityState = Any

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
        card_text = "" if card is None else f", card raise {CARDS[card][0]} move {CARDS[card][1]}"
        # What is left of the block under way, so that a person counts nothing (issue 38).
        left = {"raise": (data["raise_left"], "piece", "pieces", "to raise"),
                "move": (data["move_left"], "point", "points", "to walk"),
                "neptune": (data["neptune_left"], "step", "steps", "for Neptune")}.get(phase)
        left_text = "" if left is None else f" ({left[0]} {left[1] if left[0] == 1 else left[2]} left {left[3]})"
        lines.append(f"Turn: player {data['turn']}, phase {phase}{left_text}{card_text}"
                     + (", END TRIGGERED" if data["end_triggered"] else ""))
    for p in range(state.game.players):
        pos = data["adventurers"][p]
        where = "village" if pos == "village" else B.cell_name(B.cell_of(*pos))
        lines.append(
            f"  player {p} ({SEAT_NAMES[seats[p]]}): at {where}; carried {data['carried'][p]}; "
            f"secured {data['secured'][p]} (value {data['secured_values'][p]}); "
            f"chips {data['chips'][p]}; played cards: "
            + (", ".join(f"raise {CARDS[c][0]} move {CARDS[c][1]}" for c in data['played'][p]) or "none"))
    lines.append(f"Streets (the sand timer): piles {data['street_piles']}, drawing from space {data['draw_pile']};"
                 " when the last pile runs out, the round is played out and the game ends")
    return "\n".join(lines)


__all__ = ["SEAT_COLOURS", "SEAT_NAMES", "svg_board", "text_board"]
