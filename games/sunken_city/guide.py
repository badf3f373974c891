"""What each Sunken City move means, in one line (:mod:`aiplay.views.guide`)."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from aiplay.views.meanings import meaning_from

MEANINGS = (
    (r"card raise (\d+) move (\d+)", "play this card: raise {1} city piece(s) and walk up to {2} space(s) this turn"),
    (r"raise", "start raising city pieces out of the lake (streets, at most one building)"),
    (r"building (\d+) at r(\d+)c(\d+)", "raise building {1} on row {2}, column {3} (its treasure is found by walking in)"),
    (r"street r(\d+)c(\d+)-r(\d+)c(\d+)", "raise a street over r{1}c{2} and r{3}c{4}"),
    (r"move", "start walking your adventurer (up to the card's points)"),
    (r"walk to r(\d+)c(\d+)", "step onto the piece at row {1}, column {2} (1 point)"),
    (r"enter village", "step into your village: every treasure you found there is secured"),
    (r"use chip", "spend a Neptune chip: one more step per treasure you have not found yet"),
    (r"stop", "stop walking (unused points are lost)"),
    (r"neptune", "move Neptune this turn (outside your corner a die says how far); pieces he leaves sink"),
    (r"neptune to r(\d+)c(\d+)", "Neptune steps to row {1}, column {2}; the piece he leaves sinks"),
    (r"neptune stops", "Neptune stays where he is now"),
    (r"end turn", "finish your turn"),
    (r"roll (\d+)|neptune die (\d+)|die (\d+)", "the die says how far Neptune may go"),
)


def move_meaning(name: str, view: Mapping[str, Any]) -> Optional[str]:
    """One line for the move called ``name`` (``view``: the reader's view, unused here)."""
    return meaning_from(MEANINGS, name)

#: What the terminal board's symbols mean (shown under it).
LEGEND = ("legend: V0 player 0's village (* the adventurer is home) | B9 building 9 | <= => a street lying "
          "across two cells | ^ v a street lying down | ~ deep water (streets or buildings rise here) | "
          ". shallow water (streets only) | N Neptune | a digit after a piece: that player's adventurer")
