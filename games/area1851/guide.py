"""What each Area 1851 move means, in one line (:mod:`aiplay.views.guide`)."""

from __future__ import annotations

from typing import Any, Mapping, Optional

from aiplay.views.meanings import meaning_from

MEANINGS = (
    (r"done", "finish this step (your actions, deliveries or choices) and let the phase go on"),
    (r"yes", "say yes to the question asked (see the prompt)"),
    (r"no", "say no to the question asked"),
    (r"draw a card", "draw a Tinker card"),
    (r"take a feat", "1 AP: draw a secret feat card"),
    (r"hand: (.+gadget)", "use the {1} from your hand (build it: 1 AP and dice summing to its cost)"),
    (r"hand: (.+mod \d)", "use the {1} from your hand (put it on a gadget socket of its type: 1 AP and dice)"),
    (r"hand: (.+)", "choose the {1} from your hand"),
    (r"junkyard: (.+)", "choose the {1} from your junkyard"),
    (r"scrap (.+)", "1 AP: put your {1} face down in your junkyard"),
    (r"gadget (\d+) socket (\d+)", "the socket {2} of your gadget {1}"),
    (r"gadget (\d+)", "your gadget {1} (the gadgets in front of you, from 0)"),
    (r"die (\d+)", "pay with your die {1} (the paid dice must sum exactly to the cost)"),
    (r"set die (\d+) to (\d+)", "set your die {1} to {2}"),
    (r"tweak die (\d+) ([+-]1)", "change your die {1} by {2}, throwing a junkyard card away"),
    (r"workshop tweak die (\d+) ([+-]1)", "the Workshop's free tweak: change your die {1} by {2}"),
    (r"activate (\d+) at (.+)", "use {1} of your assistants waiting at the {2} (level 2 with two or more)"),
    (r"place assistant at (.+)", "put one more assistant on the waiting space of the {1}"),
    (r"move assistant (.+) -> (.+)", "move an assistant from the {1} to the {2}"),
    (r"reveal feat (.+)", "show your feat {1}: you have achieved it and score it"),
    (r"a hidden choice", "another inventor's choice, shown once the phase ends"),
)


def move_meaning(name: str, view: Mapping[str, Any]) -> Optional[str]:
    """One line for the move called ``name`` (``view``: the reader's view, unused here)."""
    return meaning_from(MEANINGS, name)

#: What the terminal board's symbols mean (shown under it).
LEGEND = ("legend: p0 player 0 | AP action points left | dice: your dice faces | assistants Workshop 1+0: "
          "waiting + activated there (reserve: not placed) | T P F: a gadget's Time, Power, Frame sockets | "
          "gadget 0: your first gadget (moves name gadgets and sockets by number)")
