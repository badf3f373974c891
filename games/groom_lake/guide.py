"""What each Groom Lake move means, in one line (:mod:`aiplay.views.guide`)."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from aiplay.views.meanings import meaning_from

MEANINGS = (
    (r"keep tile (.+)", "keep the tile {1} to place on the map (the other goes to the pool)"),
    (r"keep (.+)", "keep your {1} (the cards not kept go back)"),
    (r"scout", "1 action point: draw 2 map tiles, keep one and place it next to the Team"),
    (r"place at \((-?\d+),(-?\d+)\) turned (\d)", "put the tile at x={1}, y={2}, turned {3} quarter turn(s)"),
    (r"move ([NESW])", "1 action point (2 onto a mountain): move the Team one tile {1}; an open hazard there must be beaten"),
    (r"discard a life token", "add one of your life tokens to beat the hazard (one more die)"),
    (r"discard (.+)", "add your {1} to beat the hazard (one more die if it helps here)"),
    (r"done", "stop adding to the hazard (or finish this step)"),
    (r"end turn", "end your action points; then you take the Discard Stack's top card and refresh one"),
    (r"refresh (.+)", "put your {1} face down on the Refresh stack"),
    (r"play recovery", "1 action point: play a Recovery card to gain lives"),
    (r"vote against player (\d+)", "2 action points: the others vote whether player {1} dies"),
    (r"yes", "vote yes (kill them, or agree)"),
    (r"no", "vote no"),
    (r"investigation to player (\d+)", "give a Crash Site investigation to player {1} (draws 2, keeps 1)"),
    (r"card to player (\d+)", "hand this card to player {1}"),
    (r"strike player (\d+)|hunter.*", "the Hunter's strike: kill a player; if they were Human, the Hunter dies too"),
    (r"half.*", "call a vote for a shared win (Alien Proof no longer counts)"),
)


def move_meaning(name: str, view: Mapping[str, Any]) -> Optional[str]:
    """One line for the move called ``name`` (``view``: the reader's view, unused here)."""
    return meaning_from(MEANINGS, name)

#: What the terminal map's symbols mean (shown under it).
LEGEND = ("legend: G Groom Lake | D desert | M mountain (2 points to enter) | # canyon (impassable) | "
          "C civilization (the way out) | ! an open hazard | + a beaten hazard | * the Team | o / - around a "
          "tile: a red dot / a blank edge (placed edges must meet dot to dot, blank to blank)")
