"""What each Area 51 move means, in one line (:mod:`aiplay.views.guide`)."""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from aiplay.views.meanings import meaning_from

MEANINGS = (
    (r"collect", "action: take 3 artifact cards (from the face-up row or the deck)"),
    (r"refresh discarding (.+)", "discard your {1} and the whole face-up row, then turn up six new cards"),
    (r"take face-up (.+)", "take the face-up {1} into your hand"),
    (r"take deck top", "take the top card of the deck (unseen by the others)"),
    (r"build", "action: play cards to create a bunker or add a level to one of yours"),
    (r"create (\w+) bunker in (R\d) for (\w+)", "create a {1} bunker in region {2} for your colour {3} (1 face-up {1} card + 1 face-down card)"),
    (r"create (\w+) bunker in (R\d)", "create a {1} bunker in region {2} (1 face-up {1} card + 1 face-down card)"),
    (r"upgrade bunker (R\d)/(\d+)", "add a security level to your bunker on space {2} of {1}"),
    (r"face-up (.+) to hangar (\d+)", "play your {1} face up into hangar {2} of the region"),
    (r"face-down (.+) to hangar (\d+)", "play your {1} face down (hidden) into hangar {2} of the region"),
    (r"vehicle", "action: hire or move a truck or train (re-routes artifacts of its colour for everyone)"),
    (r"(\w+) (truck|train) (R\d)->(R\d)", "the {1} {2} goes from {3} to {4}: {1} artifacts unloaded in {3} may be stored in {4}"),
    (r"number (\d+)", "play {1} face-down card(s): the vehicle's number becomes {1}"),
    (r"pick up", "action: take every card of one hangar and store what fits in bunkers"),
    (r"pick up (R\d) hangar (\d+)", "pick up every card of hangar {2} in {1} and store them"),
    (r"store (.+) in (R\d)/(\d+)", "store the {1} in the bunker on space {3} of {2}: its owner scores its number"),
    (r"(done|stop|keep the rest).*", "stop storing: the cards left join your hand, face up"),
    (r"pass", "no action is possible: pass"),
)


def move_meaning(name: str, view: Mapping[str, Any]) -> Optional[str]:
    """One line for the move called ``name`` (``view``: the reader's view, unused here)."""
    text = meaning_from(MEANINGS, name)
    return None if text is None else re.sub(r"\ba (?=[aeiou])", "an ", text)  # "an orange bunker"

#: What the terminal board's symbols mean (shown under it).
LEGEND = ("legend: ??* a face-down card | 5:orange L1 (white) space 5 holds white's orange bunker, level 1 | "
          "green truck R2->R0 #1 re-routes green artifacts from R2 to R0 (number 1) | 2xgreen 1 two green 1 cards | "
          "score 7 [7] total [per colour]")
